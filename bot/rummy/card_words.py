"""Cards as Russian and Czech players name them, accepted from everyone.

Why here, beside the parser, rather than in the catalogs: what a card *is* must not depend on
who types it, so these spellings are read the same for every person, in every language, and
only where they cannot mean two cards. A player types what their own deck shows:

- Russian decks mark В (валет, jack), Д (дама, queen), К (король, king), Т (туз, ace); the
  suits are пики ♠, трефы ♣ (крести), бубны ♦, червы ♥ (черви), one-letter п т б ч.
  Cyrillic Т is the ace; the Latin T stays the ten.
- Czech players say kluk (spodek on the German-suited deck) for the jack, dáma (D) for the
  queen, král (K) for the king, eso (A) for the ace; the suits are piky ♠, kříže ♣ (trefy),
  káry ♦, srdce ♥. Czech suits have no letters of their own: k and s are taken (king,
  spades), so they are written in full.

Names take the common inflected forms (``туз пик``, ``дама червей``, ``пиковый туз``,
``eso srdcové``, ``král křížů``), with or without Czech accents, in any case. The letter D
(dáma) is read only where no English reading exists (``Dh`` is the queen of hearts; ``D7``
stays the seven of diamonds).
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "RANK_LETTERS",
    "RANK_WORDS",
    "SUIT_LETTERS",
    "SUIT_WORDS",
    "plain",
    "rank_named",
    "suit_named",
]

# The English letters the card parser knows: these tables say which one a name means, so
# this module needs nothing from the parser (which imports it).
JACK, QUEEN, KING, ACE = "j", "q", "k", "a"
SPADES, CLUBS, DIAMONDS, HEARTS = "s", "c", "d", "h"

RANK_LETTERS = {"в": JACK, "д": QUEEN, "к": KING, "т": ACE, "d": QUEEN}
"""One-letter ranks beside the English ones: Russian, and the Czech dáma."""

RANK_WORDS = {
    # Russian
    "валет": JACK,
    "дама": QUEEN,
    "король": KING,
    "туз": ACE,
    # Czech (accents dropped before looking up)
    "kluk": JACK,
    "spodek": JACK,
    "dama": QUEEN,
    "kral": KING,
    "eso": ACE,
}

SUIT_LETTERS = {"п": SPADES, "т": CLUBS, "б": DIAMONDS, "ч": HEARTS}
"""Russian one-letter suits (т is clubs after a rank, the ace before a suit)."""


def _forms(suit: str, *stems_and_endings: tuple[str, tuple[str, ...]]) -> dict[str, str]:
    return {stem + end: suit for stem, endings in stems_and_endings for end in endings}


_RU_ADJECTIVE = ("овый", "овая", "овой", "овое", "овую", "овые", "овых")
_CS_ADJECTIVE = ("ovy", "ova", "ove", "ovou", "ovych", "ovym")
SUIT_WORDS = {
    # Russian: nouns and the adjectives (пиковый туз, дама треф)
    **_forms(SPADES, ("пик", ("и", "", "а", *_RU_ADJECTIVE))),
    **_forms(CLUBS, ("треф", ("ы", "", "а", *_RU_ADJECTIVE))),
    **_forms(CLUBS, ("крест", ("и", "ей", *_RU_ADJECTIVE))),
    **_forms(DIAMONDS, ("бубн", ("ы", "а", *_RU_ADJECTIVE)), ("бубен", ("",))),
    **_forms(
        HEARTS,
        ("черв", ("ы", "и", "ей", "а", *_RU_ADJECTIVE)),
        ("червонн", ("ый", "ая", "ой", "ое", "ую")),
    ),
    # Czech, accents dropped: piky, kříže, káry, srdce and their adjectives
    **_forms(SPADES, ("pik", ("y", "", "a", "u", *_CS_ADJECTIVE))),
    **_forms(CLUBS, ("kriz", ("e", "", "u", "i", *_CS_ADJECTIVE))),
    **_forms(CLUBS, ("tref", ("y", "", "a", *_CS_ADJECTIVE))),
    **_forms(DIAMONDS, ("kar", ("y", "a", "", "u", *_CS_ADJECTIVE))),
    **_forms(HEARTS, ("srdc", ("e", "i", *_CS_ADJECTIVE))),
}


def plain(text: str) -> str:
    """Lower case without accents (``Kříže`` -> ``krize``); Cyrillic keeps its letters
    (й and ё are not accents for a Russian reader, but no card name has them)."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# Looked up as typed text is: lower case, accents (and the breve of й) dropped.
RANK_WORDS = {plain(word): rank for word, rank in RANK_WORDS.items()}
SUIT_WORDS = {plain(word): suit for word, suit in SUIT_WORDS.items()}


def rank_named(text: str) -> str | None:
    """The English rank letter a Russian or Czech letter or word names, or None."""
    key = plain(text)
    return RANK_LETTERS.get(key) or RANK_WORDS.get(key)


def suit_named(text: str, *, letters: bool = True) -> str | None:
    """The English suit letter a Russian or Czech word (or Russian letter, when ``letters``)
    names, or None."""
    key = plain(text)
    found = SUIT_WORDS.get(key)
    if found is None and letters:
        found = SUIT_LETTERS.get(key)
    return found
