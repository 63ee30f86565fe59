"""Sizes shared by every picture, chosen to stay readable in Discord's chat column.

Discord fits a picture into about 550×350 pixels on a desktop and 360 pixels of width on a
phone, and only a click shows it whole. So pictures are landscape, and what people must
read at a glance (card ranks, meld numbers, pile depths) is drawn at least 16 pixels tall in
a 960-pixel picture, which stays 6 pixels tall at phone width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.rummy.rules import Ruleset
from rendering.text import FontSpec, display_name
from rendering.words import ENGLISH_WORDS, Words

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

READ = FontSpec(26)
READ_BOLD = FontSpec(26, bold=True)
"""The smallest text on the table and the hand: its capitals are 19 pixels tall in a
960-pixel picture, so still 7 pixels on a phone, where the picture is 360 pixels wide."""

PILL_PAD = 8
RADIUS = 12


@dataclass(frozen=True, slots=True)
class DisplayBox:
    """The area Discord shrinks a picture into; no height means only the width counts."""

    width: int
    height: int | None = None

    def scale(self, width: int, height: int) -> float:
        """How much a ``width`` by ``height`` picture is shrunk (never enlarged)."""
        fits = self.width / width
        if self.height is not None:
            fits = min(fits, self.height / height)
        return min(1.0, fits)


DESKTOP = DisplayBox(550, 350)
PHONE = DisplayBox(360)


def game_name(ruleset: Ruleset, words: Words = ENGLISH_WORDS) -> str:
    """The variant's name on a picture: the reader's language's own name when ``words``
    has one (under the variant's catalog key), else the short English title."""
    return words.texts.get(ruleset.variant.name_key) or ruleset.variant.picture_title


def game_over_text(
    winners: Sequence[str], names: Mapping[str, str] | None, words: Words = ENGLISH_WORDS
) -> str:
    if not winners:
        return words("picture.over")
    who = words.names([display_name(w, names) for w in winners])
    return words.count("picture.over_won", len(winners), names=who)


def number(value: int, words: Words = ENGLISH_WORDS) -> str:
    """A whole number as the reader writes it, with a true minus sign."""
    return words.number(value)


def signed(value: int, words: Words = ENGLISH_WORDS) -> str:
    return f"+{words.number(value)}" if value > 0 else words.number(value)
