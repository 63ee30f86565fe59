"""The words of a picture for the people who see it: a catalog locale made into the
:class:`rendering.words.Words` value the pictures take (``rendering`` may not read the
catalogs itself). The channel's pictures get the server's locale, a hand its owner's."""

from __future__ import annotations

from functools import cache

from bot.i18n import catalog, catalog_locale, plural_category
from bot.i18n.numbers import format_number
from rendering.words import Words

PREFIX = "picture."


@cache
def picture_words(locale: str) -> Words:
    """The picture texts, plural rule and number style of the catalog for ``locale``."""
    loc = catalog_locale(locale)
    texts = {key: text for key, text in catalog(loc).items() if key.startswith(PREFIX)}

    def plural(count: int) -> str:
        return plural_category(loc, count)

    def digits(value: float, decimals: int | None) -> str:
        return format_number(value, loc, decimals)

    return Words(texts, plural, digits)
