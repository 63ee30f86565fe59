"""Sizes shared by every picture, chosen to stay readable in a phone's chat preview.

Discord shows a picture about 400-550 pixels wide on a phone, so a 960-pixel picture is
shown at roughly half size: body text is 22 pixels here to read as 11 there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.rummy.rules import Ruleset
from rendering.text import FontSpec, display_name

WIDTH = 960
MARGIN = 20
INNER = WIDTH - 2 * MARGIN

TITLE = FontSpec(30, bold=True)
HEADING = FontSpec(24, bold=True)
BODY = FontSpec(22)
BODY_BOLD = FontSpec(22, bold=True)
SMALL = FontSpec(18)
SMALL_BOLD = FontSpec(18, bold=True)
TAG = FontSpec(16, bold=True)

PILL_PAD = 8
RADIUS = 12

_GAME_NAMES = {"classic": "Classic Rummy", "parlett": "Parlett Rummy", "500": "Rummy 500"}


def game_name(ruleset: Ruleset) -> str:
    return _GAME_NAMES.get(ruleset.name, ruleset.name)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def game_over_text(winners: Sequence[str], names: Mapping[str, str] | None) -> str:
    if not winners:
        return "★ Game over"
    who = " and ".join(display_name(w, names) for w in winners)
    return f"★ Game over · {who} {'wins' if len(winners) == 1 else 'win'}!"


def number(value: int) -> str:
    """A whole number with a true minus sign, which reads better than a hyphen."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else number(value)
