"""Moves as people type them into /meld, /layoff, /swap and /discard.

The engine's text form is the one language: ``5♥ 6♥ JK=7♥`` (what a joker stands for),
``A♠(high)``, ``10h#2`` (a named copy), the same as the table and autocomplete show; a high
ace written in the reader's words as the table shows it (``A♠(старший)``, ``A♠ (vysoké)``)
is read as ``A♠(high)``. The
``reading`` option, when given, picks a reading by its number instead. Whatever the form,
the engine checks the action; nothing here decides a rule.
"""

from __future__ import annotations

import re
from functools import cache

from bot.i18n import available_locales, t
from bot.rummy import Card, CardParseError, LayOff, Meld, PlayerError, parse_action
from bot.rummy.actions import parse_group

MAX_TEXT = 300
"""Longer than any hand typed in full: anything longer is refused before parsing."""
_INVISIBLE = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ufe0f"}


def clean(text: str) -> str:
    """The text without the invisible characters phones and copy-paste slip in, a high ace
    marked in any language's words marked as the engine reads it."""
    if len(text) > MAX_TEXT:
        raise CardParseError("refusal.card.too_long", token=text[:20])
    visible = "".join(ch for ch in text if ch not in _INVISIBLE).strip()
    return _high_marks().sub("(high)", visible)


@cache
def _high_marks() -> re.Pattern[str]:
    """Every catalog's mark of a high ace (``(high)``, ``(старший)``), a space before it
    allowed."""
    marks = sorted({t("card.high", loc) for loc in available_locales()}, key=len, reverse=True)
    return re.compile(r"\s*(?:" + "|".join(map(re.escape, marks)) + ")", re.IGNORECASE)


def reading_number(text: str | None) -> int | None:
    """The ``reading`` option: ``2`` or ``2: 5♥ 6♥ JK=7♥`` (what autocomplete shows)."""
    if text is None or not text.strip():
        return None
    head = clean(text).split(":", 1)[0].strip().lstrip("#")
    if not (head.isascii() and head.isdigit()) or len(head) > 3 or int(head) < 1:
        raise PlayerError("refusal.reading.number")
    return int(head)


def meld_action(text: str, number: int | None = None) -> Meld:
    """/meld: the cards (annotated or not) and, if given, the reading's number (1-based)."""
    action = parse_action("meld " + clean(text))
    assert isinstance(action, Meld)
    return action if number is None else Meld(action.cards, number - 1)


def layoff_action(text: str, meld_id: int, number: int | None = None) -> LayOff:
    action = parse_action(f"layoff {meld_id} " + clean(text))
    assert isinstance(action, LayOff)
    return action if number is None else LayOff(action.cards, meld_id, number - 1)


def cards_of(text: str) -> tuple[Card, ...]:
    """The cards typed so far (annotations dropped), for autocomplete to match against."""
    cards, _ = parse_group(clean(text))
    return cards


def one_card(text: str) -> Card:
    return Card.parse(clean(text))
