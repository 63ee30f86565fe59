"""Plural categories and numbers as each language writes them, from CLDR through Babel.

Why Babel rather than rules written here: Russian and Czech plurals depend on the last digits
(1 карта, 2 карты, 5 карт, 21 карта; 1 karta, 2 karty, 5 karet) and on whether the number
is whole, and CLDR is where those rules are kept up to date. A catalog text about ``count``
things is stored once per category the language has (``unit.cards.one``, ``.few``, ``.many``,
``.other``), and :func:`plural_category` says which one a number takes.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import cache, lru_cache

from babel import Locale
from babel.dates import format_date as babel_date
from babel.numbers import format_decimal

__all__ = ["CATEGORIES", "format_date", "format_number", "plural_categories", "plural_category"]

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""Every CLDR plural category, in CLDR's order: the last part of a plural key."""

Number = int | float | Decimal


@cache
def _locale(locale: str) -> Locale:
    return Locale.parse(locale.replace("-", "_"))


@cache
def plural_categories(locale: str) -> frozenset[str]:
    """The categories a catalog of ``locale`` must have for each plural text
    (``en``: one, other; ``fr``: one, many, other; ``ru`` and ``cs``: one, few, many, other)."""
    return frozenset(_locale(locale).plural_form.tags) | {"other"}


def plural_category(locale: str, count: Number) -> str:
    """The category ``count`` takes in ``locale``: ``plural_category("ru", 22) == "few"``."""
    return str(_locale(locale).plural_form(count))


def format_number(value: Number, locale: str, decimals: int | None = None) -> str:
    """``value`` written for ``locale``: ``1,000`` in English, ``1 000`` in French and Czech,
    ``1,5`` for one and a half in Russian; with exactly ``decimals`` digits after the
    separator when given (a rating's ``25.0``)."""
    if type(value) is int:
        return _format_whole(value, locale, decimals)
    return _format(value, locale, decimals)


@lru_cache(maxsize=4096)
def _format_whole(value: int, locale: str, decimals: int | None) -> str:
    """Whole numbers (scores, counts, targets) are written once each: a table text writes a
    dozen of them, the same ones move after move."""
    return _format(value, locale, decimals)


def _format(value: Number, locale: str, decimals: int | None) -> str:
    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return str(format_decimal(value, format=pattern, locale=_locale(locale)))


def format_date(value: date, locale: str) -> str:
    """A day written for ``locale``, as CLDR's medium date: ``Dec 2, 2026``, ``2 дек. 2026 г.``,
    ``2. 12. 2026``, ``2 déc. 2026`` (a ``datetime`` gives its own day)."""
    return str(babel_date(value, "medium", locale=_locale(locale)))
