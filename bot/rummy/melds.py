"""Which groups of cards are melds, and how each can be read.

A group of cards can often be read in more than one way — ``5♥ 6♥ JK`` is 4-5-6 or 5-6-7,
and in Rummy 500 an ace may sit below the two or above the king. The functions here return
every reading, so the caller can let the player choose; a group with no reading is no meld.
Melds on the table are never rearranged, so lay-offs keep every card where it already is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.rummy.cards import ACE, HIGH_ACE, KING, Card, Suit, as_cards, rank_text
from bot.rummy.rules import Ruleset


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Slot:
    """A card in a meld and the card it stands for.

    ``rank`` is the position (1-13, or 14 for an ace above the king); ``suit`` is None only
    for a joker in a set, which stands for the rank and any suit missing from the set.
    """

    card: Card
    rank: int
    suit: Suit | None

    @property
    def stands_for(self) -> str:
        return rank_text(self.rank) + (self.suit.symbol if self.suit is not None else "")

    def __str__(self) -> str:
        """The text people type for this card in this place: ``JK=7♥`` (a joker and what
        it stands for; ``JK=7`` in a set), ``A♠(high)`` (an ace above the king)."""
        if self.card.is_joker:
            high = "(high)" if self.rank == HIGH_ACE else ""
            return f"{self.card}={self.stands_for}{high}"
        if self.card.rank == ACE and self.rank == HIGH_ACE:
            return f"{self.card}(high)"
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a group of cards as a meld: runs ascending, sets by suit."""

    kind: MeldKind
    slots: tuple[Slot, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(s.card for s in self.slots)

    @property
    def jokers(self) -> dict[Card, str]:
        """What each joker stands for, for showing the choice to a player."""
        return {s.card: s.stands_for for s in self.slots if s.card.is_joker}

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.slots)


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A card on the table: what it stands for and who put it there."""

    card: Card
    rank: int
    suit: Suit | None
    placed_by: str

    @property
    def slot(self) -> Slot:
        return Slot(self.card, self.rank, self.suit)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table; ``id`` is the number players use to lay off or swap onto it."""

    id: int
    owner: str
    kind: MeldKind
    cards: tuple[PlacedCard, ...]

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(p.slot for p in self.cards)

    @property
    def rank(self) -> int:
        """The rank of a set (undefined for runs: their lowest position)."""
        return self.cards[0].rank

    @property
    def suit(self) -> Suit | None:
        """The suit of a run (None for a set)."""
        return self.cards[0].suit if self.kind is MeldKind.RUN else None

    def __str__(self) -> str:
        return f"#{self.id} " + " ".join(str(p.slot) for p in self.cards)


def canonical(reading: Reading, on_table: Collection[Card] = ()) -> Reading:
    """The same reading with its new jokers in a fixed order, so two readings that differ
    only in which physical joker stands where compare equal. Jokers already on the table
    (``on_table``) keep their places."""

    def movable(slot: Slot) -> bool:
        return slot.card.is_joker and slot.card not in on_table

    jokers = sorted((s.card for s in reading.slots if movable(s)), key=lambda c: c.copy)
    if not jokers:
        return reading
    order = iter(jokers)
    slots = tuple(Slot(next(order), s.rank, s.suit) if movable(s) else s for s in reading.slots)
    return Reading(reading.kind, slots)


def _naturals_and_jokers(cards: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    naturals = [c for c in cards if not c.is_joker]
    jokers = sorted((c for c in cards if c.is_joker), key=lambda c: c.copy)
    return naturals, jokers


def readings(cards: str | Iterable[Card], ruleset: Ruleset) -> list[Reading]:
    """Every valid reading of ``cards`` as a new meld; empty when they are no meld.

    >>> from bot.rummy.rules import preset
    >>> [str(r) for r in readings("5h 6h jk", preset("parlett"))]
    ['5♥ 6♥ JK=7♥', 'JK=4♥ 5♥ 6♥']
    """
    group = as_cards(cards)
    if len(group) < 3 or len(set(group)) != len(group):
        return []
    naturals, jokers = _naturals_and_jokers(group)
    if len(naturals) < len(jokers):
        return []
    found = _set_readings(naturals, jokers, ())
    if not found:
        found = _run_readings({}, naturals, jokers, ruleset.ace_high)
    return found


def _set_readings(
    naturals: Sequence[Card], jokers: Sequence[Card], existing: Sequence[Slot]
) -> list[Reading]:
    total = len(naturals) + len(jokers) + len(existing)
    if total > 4 or total < 3:
        return []
    ranks = {c.rank for c in naturals} | {s.rank for s in existing}
    if len(ranks) != 1:
        return []
    suits = [c.suit for c in naturals] + [s.suit for s in existing if s.suit is not None]
    if len(set(suits)) != len(suits):
        return []
    reading = set_reading(ranks.pop(), naturals, jokers, existing)
    if sum(1 for s in reading.slots if s.card.is_joker) * 2 > len(reading.slots):
        return []
    return [reading]


def set_reading(
    rank: int, naturals: Iterable[Card], jokers: Iterable[Card], existing: Iterable[Slot] = ()
) -> Reading:
    """The one reading of a set, its slots in a canonical order (by suit, jokers last).

    The caller has checked that the cards form a set.
    """
    slots = [*existing]
    slots.extend(Slot(c, rank, c.suit) for c in naturals)
    slots.extend(Slot(j, rank, None) for j in jokers)
    slots.sort(key=lambda s: (s.suit is None, s.suit or 0, s.card.copy))
    return Reading(MeldKind.SET, tuple(slots))


def run_reading(
    suit: Suit,
    start: int,
    end: int,
    naturals: dict[int, Card],
    jokers: Iterable[Card],
    fixed: dict[int, Slot] | None = None,
) -> Reading:
    """The run from ``start`` to ``end``: naturals and table cards at their positions, the
    jokers (in the order given) filling the rest from the bottom up.

    The caller has checked that there are enough jokers and that the run is valid.
    """
    free = iter(jokers)
    slots: list[Slot] = []
    for pos in range(start, end + 1):
        if fixed is not None and pos in fixed:
            slots.append(fixed[pos])
        elif pos in naturals:
            slots.append(Slot(naturals[pos], pos, suit))
        else:
            slots.append(Slot(next(free), pos, suit))
    return Reading(MeldKind.RUN, tuple(slots))


def _run_readings(
    fixed: dict[int, Slot],
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    ace_high: bool,
) -> list[Reading]:
    """Readings of a run: ``fixed`` holds the positions already on the table."""
    suits = {c.suit for c in naturals} | {s.suit for s in fixed.values()}
    if len(suits) != 1:
        return []
    suit = next(iter(suits))
    if suit is None:
        return []
    aces = [c for c in naturals if c.rank == ACE]
    others = [c for c in naturals if c.rank != ACE]
    if len(aces) > 1:
        return []  # an ace is high or low, never both in one run
    ace_positions = [ACE, HIGH_ACE] if ace_high else [ACE]
    choices: list[dict[int, Card]] = []
    base = {c.rank: c for c in others}
    if len(base) != len(others):
        return []
    if aces:
        for pos in ace_positions:
            choices.append({**base, pos: aces[0]})
    else:
        choices.append(base)
    top = HIGH_ACE if ace_high else KING
    found: list[Reading] = []
    total_jokers = len(jokers) + sum(1 for s in fixed.values() if s.card.is_joker)
    total_cards = len(naturals) + len(jokers) + len(fixed)
    if total_jokers * 2 > total_cards:
        return []
    for placed in choices:
        if any(pos in fixed for pos in placed):
            continue
        occupied = set(fixed) | set(placed)
        lo, hi = min(occupied), max(occupied)
        gaps = [p for p in range(lo, hi + 1) if p not in occupied]
        extra = len(jokers) - len(gaps)
        if extra < 0:
            continue
        for below in range(extra + 1):
            start, end = lo - below, hi + (extra - below)
            if start < ACE or end > top or (start == ACE and end == HIGH_ACE):
                continue
            found.append(run_reading(suit, start, end, placed, jokers, fixed))
    return found


def layoff_readings(
    meld: TableMeld, cards: str | Iterable[Card], ruleset: Ruleset
) -> list[Reading]:
    """Every reading of ``meld`` grown by ``cards`` that keeps its cards where they are."""
    group = as_cards(cards)
    on_table = {p.card for p in meld.cards}
    if not group or len(set(group)) != len(group) or on_table & set(group):
        return []
    naturals, jokers = _naturals_and_jokers(group)
    if meld.kind is MeldKind.SET:
        return _set_readings(naturals, jokers, meld.slots)
    fixed = {s.rank: s for s in meld.slots}
    return _run_readings(fixed, naturals, jokers, ruleset.ace_high)


def swap_position(meld: TableMeld, card: Card) -> int | None:
    """The index of the joker in ``meld`` that the natural ``card`` can replace, if any."""
    if card.is_joker:
        return None
    if meld.kind is MeldKind.SET:
        if card.rank != meld.rank or card.suit in {p.suit for p in meld.cards}:
            return None
        return next((i for i, p in enumerate(meld.cards) if p.card.is_joker), None)
    for i, p in enumerate(meld.cards):
        if not p.card.is_joker or p.suit != card.suit:
            continue
        if p.rank == card.rank or (p.rank == HIGH_ACE and card.rank == ACE):
            return i
    return None


def slot_value(slot: Slot, kind: MeldKind, ruleset: Ruleset) -> int:
    """What a card on the table is worth to whoever placed it (Rummy 500)."""
    low_ace = kind is MeldKind.RUN and slot.rank == ACE
    return ruleset.placed_value(slot.card, low_ace_of_run=low_ace)


def is_valid_meld(meld: TableMeld, ruleset: Ruleset) -> bool:
    """Whether ``meld`` is a reading of its cards that the rules allow, whatever order its
    slots are in and whichever physical joker stands where (for data loaded from outside)."""

    def shape(slots: Iterable[Slot]) -> dict[tuple[Card | None, int, Suit | None], int]:
        return dict(Counter((None if s.card.is_joker else s.card, s.rank, s.suit) for s in slots))

    wanted = shape(meld.slots)
    return any(
        option.kind is meld.kind and shape(option.slots) == wanted
        for option in readings([p.card for p in meld.cards], ruleset)
    )


SlotKey = tuple[int, int, int, int]


def _slot_key(slot: Slot) -> SlotKey:
    card = slot.card
    return (
        card.rank,
        -1 if card.suit is None else int(card.suit),
        slot.rank,
        -1 if slot.suit is None else int(slot.suit),
    )


def slot_shape(slots: Iterable[Slot], table: Iterable[Slot] = ()) -> tuple[SlotKey, ...]:
    """What ``slots`` say, less the slots of ``table``: each card's face and what it stands
    for, in a fixed order. Two readings with the same shape differ only in which twin or
    which physical joker stands where, which people do not choose."""
    counts = Counter(_slot_key(s) for s in slots)
    counts.subtract(_slot_key(s) for s in table)
    return tuple(sorted(counts.elements()))
