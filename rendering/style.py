"""Sizes shared by every picture: the type scale and its floor.

Discord fits a picture into about 550×350 pixels on a desktop and 360 pixels of width on a
phone, and only a tap shows it whole. Most people look on a phone, so the scale is set for
the phone:

- **The floor.** Every word and number in every picture reads at :data:`FLOOR_PX` (8 pixels)
  when the picture is shown :data:`PHONE_WIDTH` (360) pixels wide. "Reads at 8 pixels" means
  the ink height of a digit (DejaVu Sans' "0", which is as tall as its capitals and as the
  ascenders of its lowercase) is at least 8 pixels on the phone's screen: for a picture
  ``width`` pixels wide, ``cap_height(spec) * PHONE_WIDTH / width >= FLOOR_PX``. In the
  960-pixel pictures that is 30 pixels of type (22-pixel digits, 8.25 on a phone);
  :func:`floor_size` gives it for any width.
- **Three steps above it and nothing below**: :data:`TITLE`, :data:`HEADING`, and
  :data:`READ` / :data:`READ_BOLD`, the floor itself, for everything else (names, points,
  column heads, pills, tags, captions, axes, legends). A picture whose text does not fit at
  the floor drops it or says it shorter by a rule of its own (a shorter label, a second
  line, fewer columns), and the message posted with it says it whole; it never draws
  smaller type.
- Marks that carry meaning without words (lay-off dots, player colours) are at least
  :data:`MARK_MIN` pixels across, 4 on a phone.

The same rule holds for the scripts the bot draws (Latin, Cyrillic, Greek, Arabic, Hebrew,
CJK, emoji): their fallback fonts are drawn at the same size, and the tests measure the ink
of every label on the picture scaled to phone width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.rummy.rules import Ruleset
from rendering.text import FontSpec, cap_height, display_name
from rendering.words import ENGLISH_WORDS, Words

WIDTH = 960
MARGIN = 20
INNER = WIDTH - 2 * MARGIN

PHONE_WIDTH = 360
FLOOR_PX = 8.0


def floor_size(width: int = WIDTH) -> int:
    """The smallest type whose digits stay :data:`FLOOR_PX` tall when a picture ``width``
    pixels wide is shown :data:`PHONE_WIDTH` wide."""
    size = 8
    while cap_height(FontSpec(size)) * PHONE_WIDTH / width < FLOOR_PX:
        size += 1
    return size


READ = FontSpec(30)
READ_BOLD = FontSpec(30, bold=True)
"""The floor in a 960-pixel picture: its digits are 22 pixels tall, 8.25 on a phone."""
HEADING = FontSpec(32, bold=True)
TITLE = FontSpec(36, bold=True)

MARK_MIN = 12
"""The smallest dot or mark that means something, in a 960-pixel picture."""

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
