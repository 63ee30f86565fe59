"""Cards with a physical identity, and the text people type for them.

Two-deck games hold twins: two 10♥ that are different physical cards. A card therefore
carries a copy number beside its face, so nothing can be duplicated or lost, and the rule
"you may not discard the card you just took" can tell a card from its twin.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import accumulate

from bot.rummy.card_words import (
    RANK_LETTERS,
    RANK_WORDS,
    SUIT_LETTERS,
    SUIT_WORDS,
    plain,
    rank_named,
    suit_named,
)
from bot.rummy.errors import CardParseError


class Suit(IntEnum):
    """Suits in the order hands are sorted: ♣ ♦ ♥ ♠."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


ACE, JACK, QUEEN, KING = 1, 11, 12, 13
HIGH_ACE = 14
"""A rank position, not a card: the ace standing above the king in Q-K-A."""

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card.

    ``rank`` is 1 (ace) to 13 (king), or 0 for a joker, whose ``suit`` is None. ``copy``
    tells physical twins apart: the deck a card came from (0 or 1), and for jokers their
    serial number (two per deck: 0-3).
    """

    rank: int
    suit: Suit | None
    copy: int = 0

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit is not None:
                raise ValueError("a joker has no suit")
        elif not (1 <= self.rank <= 13) or self.suit is None:
            raise ValueError(f"no such card: rank {self.rank}, suit {self.suit}")
        if self.copy < 0:
            raise ValueError("copy must be 0 or more")

    @classmethod
    def joker(cls, copy: int = 0) -> Card:
        return cls(0, None, copy)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse exactly one card (see :func:`parse_cards` for the accepted text)."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardParseError("refusal.card.one_only", token=shown(text), count=len(cards))
        return cards[0]

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def face(self) -> tuple[int, Suit | None]:
        """What the card shows, ignoring which physical copy it is."""
        return (self.rank, self.suit)

    @property
    def face_text(self) -> str:
        """The face for people: ``10♥``, ``A♠``, ``JK``."""
        if self.suit is None:
            return "JK"
        return rank_text(self.rank) + self.suit.symbol

    @property
    def code(self) -> str:
        """A plain-ASCII form that parses back to this very card: ``10h``, ``jk#2``."""
        base = "JK" if self.suit is None else rank_text(self.rank) + self.suit.letter
        return base if self.copy == 0 else f"{base}#{self.copy + 1}"

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Suit, then rank, then copy; jokers last."""
        if self.suit is None:
            return (4, 0, self.copy)
        return (int(self.suit), self.rank, self.copy)

    @property
    def rank_sort_key(self) -> tuple[int, int, int]:
        """Rank, then suit, then copy; jokers last."""
        if self.suit is None:
            return (99, 0, self.copy)
        return (self.rank, int(self.suit), self.copy)

    def __str__(self) -> str:
        base = self.face_text
        return base if self.copy == 0 else f"{base}#{self.copy + 1}"

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key


def full_pack(decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """Every physical card of ``decks`` packs, in a fixed order (suit, rank, copy)."""
    return list(_pack(decks, jokers_per_deck))


@cache
def _pack(decks: int, jokers_per_deck: int) -> tuple[Card, ...]:
    """The cards of :func:`full_pack`, made once per size: every deal and every loaded
    save asks for them."""
    cards = [
        Card(rank, suit, copy) for copy in range(decks) for suit in Suit for rank in range(1, 14)
    ]
    cards.extend(Card.joker(n) for n in range(decks * jokers_per_deck))
    return tuple(cards)


_RANKS = {"a": 1, "1": 1, "t": 10, "j": 11, "q": 12, "k": 13}
_RANKS.update({str(n): n for n in range(2, 11)})
_SUITS = {
    "c": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "h": Suit.HEARTS,
    "s": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_RANK_RE = r"(10|[2-9]|1|[atjqk])"
_SUIT_RE = r"([cdhs♣♦♥♠♧♢♡♤])"
_COPY_RE = r"(?:#(\d+))?"
# ASCII: no Unicode case folding (the long s "ſ" would match "s") and no non-ASCII digits.
_FLAGS = re.IGNORECASE | re.ASCII
_CARD = re.compile(rf"{_RANK_RE}{_SUIT_RE}{_COPY_RE}", _FLAGS)
_SUIT_FIRST = re.compile(rf"{_SUIT_RE}{_RANK_RE}{_COPY_RE}", _FLAGS)
_JOKER = re.compile(r"(?:jk|joker|\*|🃏)(?:#(\d+))?", _FLAGS)
_BARE_RANK = re.compile(_RANK_RE, _FLAGS)
_BARE_SUIT = re.compile(rf"{_SUIT_RE}{_COPY_RE}", _FLAGS)
_SEPARATORS = re.compile(r"[\s,;]+")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\ufe0f\u00ad"))
"""Characters phones and copy-paste slip into text, which nobody means as part of a card."""
SHOWN = 20
"""How much of a token a refusal repeats: a reply must stay short, whatever was typed."""


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), for repeating it to people."""
    return text if len(text) <= limit else text[:limit] + "…"


def clean(text: str) -> str:
    """``text`` without invisible characters."""
    return text.translate(_INVISIBLE)


def rank_of(text: str) -> int | None:
    """The rank a person means by ``text`` (``A``, ``1``, ``2``..``10``, ``T``, ``J``,
    ``Q``, ``K``, any case), or None."""
    return _RANKS.get(text.lower()) if text.isascii() else None


def _copy(number: str | None, token: str) -> int:
    if number is None:
        return 0
    if len(number) > 2 or int(number) < 1:
        raise CardParseError("refusal.card.no_copy", token=shown(token))
    return int(number) - 1


def parse_cards(text: str) -> list[Card]:
    """Parse what a player types into cards.

    Ranks ``A 2..10 J Q K`` (``T`` for ten, ``1`` for ace), suits ``c d h s`` or symbols,
    case-insensitive; ``JK``, ``joker`` or ``*`` for a joker; a rank and its suit may be
    separated by a space (``7 D``). Russian and Czech letters and names are read too, where
    they name one card only (:mod:`bot.rummy.card_words`: ``Дп``, ``туз пик``, ``eso srdce``).
    Cards are separated by spaces or commas. A ``#N`` suffix
    names a physical copy (``10h#2`` is the second deck's ten of hearts); without it the first.
    Anything else raises :class:`CardParseError`, which repeats at most 20 characters of it.

    >>> [str(c) for c in parse_cards("10h, qs a♠ 7 D jk")]
    ['10♥', 'Q♠', 'A♠', '7♦', 'JK']
    """
    tokens = [t for t in _SEPARATORS.split(clean(text)) if t]
    cards: list[Card] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if m := _CARD.fullmatch(token):
            cards.append(Card(_RANKS[m[1].lower()], _SUITS[m[2].lower()], _copy(m[3], token)))
        elif m := _SUIT_FIRST.fullmatch(token):
            cards.append(Card(_RANKS[m[2].lower()], _SUITS[m[1].lower()], _copy(m[3], token)))
        elif m := _JOKER.fullmatch(token):
            cards.append(Card.joker(_copy(m[1], token)))
        elif (
            _BARE_RANK.fullmatch(token)
            and i + 1 < len(tokens)
            and (s := _BARE_SUIT.fullmatch(tokens[i + 1]))
        ):
            pair = f"{token} {tokens[i + 1]}"
            cards.append(Card(_RANKS[token.lower()], _SUITS[s[1].lower()], _copy(s[2], pair)))
            i += 1
        elif named := _named_card(token):
            cards.append(named)
        elif two := _named_pair(tokens, i):
            cards.append(two)
            i += 1
        else:
            raise CardParseError("refusal.card.unknown", token=shown(token))
        i += 1
    return cards


# --- Russian and Czech names (bot/rummy/card_words.py), read only where unambiguous ---------

_WITH_COPY = re.compile(r"(.+?)(?:#(\d+))?")


def _rank(text: str) -> int | None:
    named = rank_named(text)
    return rank_of(text) or (_RANKS[named] if named else None)


def _suit(text: str, *, letters: bool = True) -> Suit | None:
    if letters and (english := _SUITS.get(text.lower())) is not None:
        return english
    named = suit_named(text, letters=letters)
    return _SUITS[named] if named else None


_LONGEST_NAME = max(
    map(len, [*_RANKS, *RANK_LETTERS, *RANK_WORDS, *_SUITS, *SUIT_LETTERS, *SUIT_WORDS])
)
"""The longest rank or suit name, as it is looked up."""


def _named_card(token: str) -> Card | None:
    """One token, rank and suit in either order (``Дп``, ``10ч``, ``тК``, ``Dh``): the
    card when exactly one way of cutting the token names one."""
    m = _WITH_COPY.fullmatch(token)
    if m is None:
        return None
    body = m[1]
    # How long each head is as looked up (lower case, accents dropped): a cut with a head or
    # a tail longer than every name is no card, so a long token costs one pass, not one
    # lookup per cut.
    looked_up = list(accumulate((len(plain(ch)) for ch in body), initial=0))
    faces = set()
    for cut in range(1, len(body)):
        if looked_up[cut] > _LONGEST_NAME:
            break
        if looked_up[-1] - looked_up[cut] > _LONGEST_NAME:
            continue
        head, tail = body[:cut], body[cut:]
        if (rank := _rank(head)) and (suit := _suit(tail)) is not None:
            faces.add((rank, suit))
        if (suit := _suit(head)) is not None and (rank := _rank(tail)):
            faces.add((rank, suit))
    if len(faces) != 1:
        return None
    rank, suit = faces.pop()
    return Card(rank, suit, _copy(m[2], token))


def _named_pair(tokens: Sequence[str], i: int) -> Card | None:
    """Two tokens: a rank then its suit (``туз пик``, ``D h``, ``eso srdce``), or a suit's
    name then the rank (``пиковый туз``, ``srdcové eso``)."""
    if i + 1 >= len(tokens):
        return None
    first, second = tokens[i], _WITH_COPY.fullmatch(tokens[i + 1])
    if second is None:
        return None
    pair = f"{first} {tokens[i + 1]}"
    if (rank := _rank(first)) and (suit := _suit(second[1])) is not None:
        return Card(rank, suit, _copy(second[2], pair))
    if (suit := _suit(first, letters=False)) is not None and (rank := _rank(second[1])):
        return Card(rank, suit, _copy(second[2], pair))
    return None


CardsLike = str | Card | Iterable[Card]
"""What action constructors accept for their cards: text, one card, or any iterable."""


@cache
def cards_by_code() -> dict[str, Card]:
    """Every card of two packs with jokers by its :attr:`Card.code`; do not change it."""
    return {c.code: c for c in full_pack(2, 2)}


def card_from_code(code: str) -> Card:
    """The card of a :attr:`Card.code` (as saved games and logs store them), fast for the
    codes of two packs with jokers; any other text goes through :func:`Card.parse`."""
    card = cards_by_code().get(code)
    return card if card is not None else Card.parse(code)


def as_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Accept text, one card, or an iterable of cards; used by action constructors."""
    if isinstance(cards, str):
        return tuple(parse_cards(cards))
    if isinstance(cards, Card):
        return (cards,)
    result = tuple(cards)
    for card in result:
        if not isinstance(card, Card):
            raise TypeError(f"not a card: {card!r}")
    return result


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)
