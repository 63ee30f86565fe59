"""The words of a picture for the people who see it: a catalog locale made into the
:class:`rendering.words.Words` value the pictures take (``rendering`` may not read the
catalogs itself). The channel's pictures get the server's locale, a hand its owner's.
A language that names the variants its own way gets those names too (``variant.*``); English
keeps the pictures' shorter titles."""

from __future__ import annotations

from functools import cache

from bot.i18n import catalog, catalog_locale, plural_category
from bot.i18n.numbers import format_number
from bot.rummy.variants import VARIANTS
from rendering.words import Words

PREFIX = "picture."


@cache
def picture_words(locale: str) -> Words:
    """The picture texts, plural rule and number style of the catalog for ``locale``."""
    loc = catalog_locale(locale)
    texts = {key: text for key, text in catalog(loc).items() if key.startswith(PREFIX)}
    english = catalog("en")
    for variant in VARIANTS.values():
        name = catalog(loc).get(variant.name_key)
        if name and name != english.get(variant.name_key):
            texts[variant.name_key] = name

    def plural(count: int) -> str:
        return plural_category(loc, count)

    def digits(value: float, decimals: int | None) -> str:
        return format_number(value, loc, decimals)

    return Words(texts, plural, digits)
