"""The moves of the game as small frozen values, with a text form that parses back.

An action says what is done, not who does it: it is always the player whose turn it is.
Action values feed buttons, autocomplete, computer players and the log alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.rummy.cards import Card, Suit, as_cards, parse_cards
from bot.rummy.errors import PlayerError
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


@dataclass(frozen=True, slots=True)
class Meld:
    """Put a new meld on the table.

    ``reading`` chooses between the readings of the cards: a :class:`Reading`, or its index
    in ``readings(cards)`` (what a select menu returns); the default is the first.
    """

    cards: tuple[Card, ...]
    reading: Reading | int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", as_cards(self.cards))

    def __str__(self) -> str:
        return "meld " + _with_reading(self.cards, self.reading)


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add cards to meld number ``meld_id`` on the table."""

    cards: tuple[Card, ...]
    meld_id: int
    reading: Reading | int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", as_cards(self.cards))

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


def _with_reading(cards: Iterable[Card], reading: Reading | int | None) -> str:
    if not isinstance(reading, Reading):
        return " ".join(str(c) for c in cards)
    return str(reading)


# --- JSON ------------------------------------------------------------------------------


def reading_to_json(reading: Reading) -> dict[str, Any]:
    return {
        "kind": reading.kind.value,
        "slots": [
            [s.card.code, s.rank, None if s.suit is None else s.suit.letter] for s in reading.slots
        ],
    }


def reading_from_json(data: dict[str, Any]) -> Reading:
    slots = tuple(
        Slot(Card.parse(code), int(rank), None if suit is None else _SUIT_BY_LETTER[suit])
        for code, rank, suit in data["slots"]
    )
    return Reading(MeldKind(data["kind"]), slots)


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
    kind = data["type"]
    stored = data.get("reading")
    reading = stored if isinstance(stored, int) or stored is None else reading_from_json(stored)
    if kind == "draw":
        return DrawStock()
    if kind == "take":
        return TakeDiscard(int(data.get("depth", 1)))
    if kind == "end":
        return EndRound()
    if kind == "meld":
        return Meld(tuple(Card.parse(c) for c in data["cards"]), reading)
    if kind == "layoff":
        return LayOff(tuple(Card.parse(c) for c in data["cards"]), int(data["meld"]), reading)
    if kind == "swap":
        return SwapJoker(int(data["meld"]), Card.parse(data["card"]))
    if kind == "discard":
        return Discard(Card.parse(data["card"]))
    raise ValueError(f"unknown action type {kind!r}")


# --- text that people (and replay files) write -----------------------------------------


def parse_action(text: str) -> Action:
    """Parse the text form: ``draw``, ``take [N]``, ``end``, ``meld CARDS``,
    ``layoff N CARDS``, ``swap N CARD``, ``discard CARD``.

    >>> parse_action("layoff 2 10h")
    LayOff(cards=(Card(rank=10, suit=<Suit.HEARTS: 2>, copy=0),), meld_id=2, reading=None)
    """
    words = text.strip().split(maxsplit=1)
    if not words:
        raise PlayerError("say what to do: draw, take, end, meld, layoff, swap or discard")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if verb in ("draw", "stock"):
        return DrawStock()
    if verb in ("take", "pick", "pickup"):
        return TakeDiscard(_number(rest or "1", "how many cards to take"))
    if verb in ("end", "end_round"):
        return EndRound()
    if verb == "meld":
        return Meld(tuple(parse_cards(rest)))
    if verb in ("layoff", "lay", "swap"):
        number, _, cards = rest.partition(" ")
        meld_id = _number(number, "the meld's number")
        if verb == "swap":
            return SwapJoker(meld_id, Card.parse(cards))
        return LayOff(tuple(parse_cards(cards)), meld_id)
    if verb == "discard":
        return Discard(Card.parse(rest))
    raise PlayerError(f"unknown move '{words[0]}'")


def _number(text: str, what: str) -> int:
    try:
        return int(text.strip().lstrip("#"))
    except ValueError:
        raise PlayerError(f"expected {what}, got '{text}'") from None
