"""The moves of the game as small frozen values, with a text form that parses back.

An action says what is done, not who does it: it is always the player whose turn it is.
Action values feed buttons, autocomplete, computer players and the log alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.rummy.cards import (
    ACE,
    HIGH_ACE,
    Card,
    CardsLike,
    Suit,
    as_cards,
    card_from_code,
    cards_by_code,
    clean,
    parse_cards,
    rank_of,
    shown,
)
from bot.rummy.errors import CardParseError, PlayerError, SnapshotError
from bot.rummy.melds import MeldKind, Reading, Slot


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top ``depth`` cards of the discard pile (``depth`` > 1 only in Rummy 500)."""

    depth: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.depth, bool) or not isinstance(self.depth, int):
            raise TypeError("depth must be a whole number")

    def __str__(self) -> str:
        return "take" if self.depth == 1 else f"take {self.depth}"


@dataclass(frozen=True, slots=True)
class EndRound:
    """End the round instead of drawing, when the stock is empty (classic and 500)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """Put a new meld on the table.

    ``reading`` chooses between the readings of the cards: a :class:`Reading`, or its index
    in ``readings(cards)`` (what a select menu returns); the default is the first.
    """

    cards: tuple[Card, ...]
    reading: Reading | int | None = None

    def __init__(self, cards: CardsLike, reading: Reading | int | None = None) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "reading", reading)

    def __str__(self) -> str:
        return "meld " + _with_reading(self.cards, self.reading)


@dataclass(frozen=True, slots=True, init=False)
class LayOff:
    """Add cards to meld number ``meld_id`` on the table."""

    cards: tuple[Card, ...]
    meld_id: int
    reading: Reading | int | None = None

    def __init__(
        self, cards: CardsLike, meld_id: int, reading: Reading | int | None = None
    ) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "meld_id", meld_id)
        object.__setattr__(self, "reading", reading)

    def __str__(self) -> str:
        return f"layoff {self.meld_id} " + _with_reading(self.cards, self.reading)


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """Replace a joker in meld ``meld_id`` with the natural ``card`` it stands for."""

    meld_id: int
    card: Card

    def __post_init__(self) -> None:
        value: object = self.card
        if isinstance(value, str):
            object.__setattr__(self, "card", Card.parse(value))

    def __str__(self) -> str:
        return f"swap {self.meld_id} {self.card}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put a card on the discard pile, ending the turn."""

    card: Card

    def __post_init__(self) -> None:
        value: object = self.card
        if isinstance(value, str):
            object.__setattr__(self, "card", Card.parse(value))

    def __str__(self) -> str:
        return f"discard {self.card}"


Action = DrawStock | TakeDiscard | EndRound | Meld | LayOff | SwapJoker | Discard
DRAW_ACTIONS = (DrawStock, TakeDiscard, EndRound)
PLAY_ACTIONS = (Meld, LayOff, SwapJoker)


def _with_reading(cards: tuple[Card, ...], reading: Reading | int | None) -> str:
    """The cards in the order of their reading, each joker with what it stands for and a
    high ace marked (``5♥ JK=6♥ 7♥``, ``Q♠ K♠ A♠(high)``); a reading of a whole meld
    shows only the cards laid off."""
    if not isinstance(reading, Reading):
        return " ".join(str(c) for c in cards)
    slots = reading.slots
    if len(slots) > len(cards):
        slots = tuple(s for s in slots if s.card in cards)
    return " ".join(str(s) for s in slots)


# --- JSON ------------------------------------------------------------------------------


def reading_to_json(reading: Reading) -> dict[str, Any]:
    return {
        "kind": reading.kind.value,
        "slots": [
            [s.card.code, s.rank, None if s.suit is None else s.suit.letter] for s in reading.slots
        ],
    }


def reading_from_json(data: dict[str, Any]) -> Reading:
    """The reading saved by :func:`reading_to_json`; :class:`SnapshotError` if damaged."""
    if not isinstance(data, dict) or not isinstance(data.get("slots"), list):
        raise SnapshotError("a saved reading is damaged")
    try:
        kind = MeldKind(str(data.get("kind")))
    except ValueError:
        raise SnapshotError("a saved reading has no kind") from None
    slots: list[Slot] = []
    for slot in data["slots"]:
        if not isinstance(slot, list) or len(slot) != 3:
            raise SnapshotError("a saved reading is damaged")
        code, rank, suit = slot
        if not _is_int(rank) or not (suit is None or suit in _SUIT_BY_LETTER):
            raise SnapshotError("a saved reading is damaged")
        slots.append(Slot(_card(code), rank, None if suit is None else _SUIT_BY_LETTER[suit]))
    return Reading(kind, tuple(slots))


_SUIT_BY_LETTER = {s.letter: s for s in Suit}


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case DrawStock():
            return {"type": "draw"}
        case TakeDiscard(depth=depth):
            return {"type": "take", "depth": depth}
        case EndRound():
            return {"type": "end"}
        case Meld(cards=cards, reading=reading):
            data: dict[str, Any] = {"type": "meld", "cards": [c.code for c in cards]}
            _put_reading(data, reading)
            return data
        case LayOff(cards=cards, meld_id=meld_id, reading=reading):
            data = {"type": "layoff", "meld": meld_id, "cards": [c.code for c in cards]}
            _put_reading(data, reading)
            return data
        case SwapJoker(meld_id=meld_id, card=card):
            return {"type": "swap", "meld": meld_id, "card": card.code}
        case Discard(card=card):
            return {"type": "discard", "card": card.code}
    raise TypeError(f"not an action: {action!r}")


def _put_reading(data: dict[str, Any], reading: Reading | int | None) -> None:
    if isinstance(reading, Reading):
        data["reading"] = reading_to_json(reading)
    elif reading is not None:
        data["reading"] = reading


def action_from_json(data: dict[str, Any]) -> Action:
    """The action saved by :func:`action_to_json`; :class:`SnapshotError` if damaged."""
    if not isinstance(data, dict):
        raise SnapshotError("a saved action is not an object")
    kind = data.get("type")
    code = data.get("card")
    if kind == "discard" and isinstance(code, str) and "reading" not in data:
        known = _discards().get(code)  # a third of every log: made once each
        if known is not None:
            return known
    stored = data.get("reading")
    reading = stored if stored is None or _is_int(stored) else reading_from_json(stored)
    if kind == "draw":
        return DrawStock()
    if kind == "take":
        return TakeDiscard(_int(data.get("depth", 1)))
    if kind == "end":
        return EndRound()
    if kind == "meld":
        return Meld(_cards(data.get("cards")), reading)
    if kind == "layoff":
        return LayOff(_cards(data.get("cards")), _int(data.get("meld")), reading)
    if kind == "swap":
        return SwapJoker(_int(data.get("meld")), _card(data.get("card")))
    if kind == "discard":
        return Discard(_card(data.get("card")))
    raise SnapshotError(f"unknown action type {str(kind)[:20]!r}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SnapshotError("a saved action has a number that is not a whole number")
    return value


@cache
def _discards() -> dict[str, Discard]:
    """The discard of each card of two packs with jokers, by the card's code."""
    return {code: Discard(card) for code, card in cards_by_code().items()}


def _card(code: object) -> Card:
    known = cards_by_code().get(code) if type(code) is str else None
    if known is not None:
        return known
    if not isinstance(code, str):
        raise SnapshotError("a saved action names a card that is not text")
    try:
        return card_from_code(code)
    except PlayerError:
        raise SnapshotError(f"a saved action names no card: {code[:20]!r}") from None


def _cards(codes: object) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise SnapshotError("a saved action's cards are not a list")
    return tuple(_card(code) for code in codes)


# --- text that people (and replay files) write -----------------------------------------


def parse_action(text: str) -> Action:
    """Parse the text form: ``draw``, ``take [N]``, ``end``, ``meld CARDS``,
    ``layoff N CARDS``, ``swap N CARD``, ``discard CARD``. Cards of a meld or lay-off may
    say what each joker stands for and mark a high ace, as the table shows them
    (``meld 5h JK=6h 7h``, ``layoff 2 Q♠ K♠ A♠(high)``); that chooses the reading.
    Anything else raises a :class:`PlayerError` that repeats at most 20 characters of it.

    >>> parse_action("layoff 2 10h")
    LayOff(cards=(Card(rank=10, suit=<Suit.HEARTS: 2>, copy=0),), meld_id=2, reading=None)
    """
    words = clean(text).split(maxsplit=1)
    if not words:
        raise PlayerError("refusal.move.empty")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if verb in ("draw", "stock"):
        return DrawStock()
    if verb in ("take", "pick", "pickup"):
        count = _number(rest or "1")
        if count is None:
            raise PlayerError("refusal.move.take_count", text=shown(rest or "1"))
        return TakeDiscard(count)
    if verb in ("end", "end_round"):
        return EndRound()
    if verb == "meld":
        return Meld(*parse_group(rest))
    if verb in ("layoff", "lay", "swap"):
        number, cards = [*rest.split(maxsplit=1), "", ""][:2]
        meld_id = _number(number)
        if meld_id is None:
            raise PlayerError("refusal.move.meld_number", text=shown(number))
        if verb == "swap":
            return SwapJoker(meld_id, Card.parse(cards))
        group, reading = parse_group(cards)
        return LayOff(group, meld_id, reading)
    if verb == "discard":
        return Discard(Card.parse(rest))
    raise PlayerError("refusal.move.unknown", move=shown(words[0]))


def _number(text: str) -> int | None:
    """The whole number ``text`` says (``2``, ``#2``), or None."""
    digits = text.strip().lstrip("#")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        return None
    return int(digits)


_ANNOTATED = re.compile(r"(?P<card>[^=()]+?)(?:=(?P<stands>[^=()]+?))?(?P<high>\(high\))?", re.I)


def parse_group(text: str) -> tuple[tuple[Card, ...], Reading | None]:
    """The cards of a meld or lay-off and, when the text says what its jokers stand for or
    marks a high ace, the reading it names (of these cards alone).

    >>> cards, reading = parse_group("5h JK=6h 7h")
    >>> str(reading), reading.kind.value
    ('5♥ JK=6♥ 7♥', 'run')
    """
    text = clean(text)
    if "=" not in text and "(" not in text:
        return tuple(parse_cards(text)), None
    slots: list[Slot] = []
    for token in (t for t in re.split(r"[\s,;]+", text) if t):
        m = _ANNOTATED.fullmatch(token)
        if m is None:
            raise CardParseError("refusal.reading.unknown", token=shown(token))
        card = Card.parse(m["card"])
        if m["stands"] is not None:
            if not card.is_joker:
                raise CardParseError("refusal.reading.joker_only", token=shown(token))
            rank, suit = _stands_for(m["stands"], token)
            slots.append(Slot(card, HIGH_ACE if m["high"] and rank == ACE else rank, suit))
        elif m["high"]:
            if card.rank != ACE:
                raise CardParseError("refusal.reading.ace_only", token=shown(token))
            slots.append(Slot(card, HIGH_ACE, card.suit))
        elif card.is_joker:
            raise CardParseError("refusal.reading.joker_unsaid", token=shown(token))
        else:
            slots.append(Slot(card, card.rank, card.suit))
    return tuple(s.card for s in slots), Reading(reading_kind(slots), tuple(slots))


def reading_kind(slots: Sequence[Slot]) -> MeldKind:
    """The kind of meld a group of slots reads as: one rank is a set, else a run."""
    return MeldKind.SET if len({s.rank for s in slots}) == 1 else MeldKind.RUN


def _stands_for(text: str, token: str) -> tuple[int, Suit | None]:
    """``7♥`` → (7, ♥); ``7`` → (7, None): what a joker stands for."""
    rank = rank_of(text)
    if rank is not None:
        return rank, None
    try:
        card = Card.parse(text)
    except CardParseError:
        card = None
    if card is None or card.is_joker or card.copy:
        raise CardParseError("refusal.reading.stands_for", token=shown(token)) from None
    return card.rank, card.suit
