"""Turning the solver's plan into the legal action that carries it out.

The solver speaks of cards standing for places in melds; the legal actions are what the
engine accepts. Both *normal* and *hard* play a plan through :func:`_match`, and judge a
joker swap by the table :func:`_swapped` leaves."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rummy.actions import Action, LayOff, Meld, SwapJoker
from bot.rummy.cards import ACE, HIGH_ACE, Card
from bot.rummy.melds import MeldKind, PlacedCard, Reading, Slot, TableMeld, readings
from bot.rummy.rules import Ruleset
from bot.rummy.solver import Play


def _slot_key(slot: Slot) -> tuple[object, int, object]:
    face = None if slot.card.is_joker else slot.card.face
    return (face, slot.rank, slot.suit)


def _match(
    plan: Sequence[Play], plays: Sequence[Action], melds: Sequence[TableMeld], ruleset: Ruleset
) -> Action | None:
    """The legal action that carries out one play of ``plan`` (the first that can): the same
    cards standing for the same places, or failing that the same faces."""
    for play in plan:
        wanted = sorted(map(_slot_key, play.slots), key=repr)
        faces = sorted((c.face for c in play.cards), key=repr)
        fallback: Action | None = None
        for action in plays:
            if isinstance(action, Meld) and play.meld_id is None:
                got = _reading_keys(action.reading, action.cards, ruleset)
            elif isinstance(action, LayOff) and action.meld_id == play.meld_id:
                table = next((m for m in melds if m.id == action.meld_id), None)
                on_table = {_slot_key(p.slot) for p in table.cards} if table else set()
                got = _reading_keys(action.reading, None, ruleset)
                got = [k for k in got if k not in on_table] if got is not None else None
            else:
                continue
            if got is not None and sorted(got, key=repr) == wanted:
                return action
            if fallback is None and sorted((c.face for c in action.cards), key=repr) == faces:
                fallback = action
        if fallback is not None:
            return fallback
    return None


def _reading_keys(
    reading: Reading | int | None, meld_cards: Sequence[Card] | None, ruleset: Ruleset
) -> list[tuple[object, int, object]] | None:
    """What each card of a legal play stands for: its reading, or for a new meld without
    one, the reading the engine will choose (``meld_cards``' readings by index)."""
    if isinstance(reading, Reading):
        return [_slot_key(s) for s in reading.slots]
    if meld_cards is None:
        return None
    found = readings(meld_cards, ruleset)
    index = reading or 0
    if 0 <= index < len(found):
        return [_slot_key(s) for s in found[index].slots]
    return None


def _swapped(
    melds: Sequence[TableMeld], swap: SwapJoker
) -> tuple[tuple[TableMeld, ...], Card | None]:
    """The table after ``swap``, and the joker it brings to the hand."""
    result = []
    joker: Card | None = None
    for meld in melds:
        if meld.id != swap.meld_id:
            result.append(meld)
            continue
        cards = list(meld.cards)
        for i, placed in enumerate(cards):
            if not placed.card.is_joker or joker is not None:
                continue
            if meld.kind is MeldKind.SET:
                fits = swap.card.rank == meld.rank
            else:
                fits = placed.suit == swap.card.suit and (
                    placed.rank == swap.card.rank
                    or (placed.rank == HIGH_ACE and swap.card.rank == ACE)
                )
            if fits:
                joker = placed.card
                suit = swap.card.suit if placed.suit is None else placed.suit
                cards[i] = PlacedCard(swap.card, placed.rank, suit, placed.placed_by)
        result.append(TableMeld(meld.id, meld.owner, meld.kind, tuple(cards)))
    return tuple(result), joker
