"""What the levels share about cards and hands: card values, partners for a meld, the cards
a player cannot see, and picking a discard among the legal ones.

The helpers are private to this package (the levels import them by name); legal actions
name faces, not physical copies, which is why several of them compare ``face``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.rummy.actions import Action, Discard, LayOff, Meld, SwapJoker
from bot.rummy.cards import ACE, HIGH_ACE, Card, full_pack
from bot.rummy.melds import TableMeld, layoff_readings
from bot.rummy.rules import Ruleset
from bot.rummy.solver import Arrangement, solve
from bot.rummy.views import GameView


def _value(card: Card, ruleset: Ruleset) -> int:
    return ruleset.card_value(card)


def _plays(legal: Sequence[Action]) -> list[Meld | LayOff | SwapJoker]:
    return [a for a in legal if isinstance(a, Meld | LayOff | SwapJoker)]


def _discards(legal: Sequence[Action]) -> list[Discard]:
    return [a for a in legal if isinstance(a, Discard)]


def _loose(hand: Sequence[Card], ruleset: Ruleset) -> list[Card]:
    """Cards with no partner for a meld: no other card of their rank, no card of their suit
    within two places, and not a joker."""
    found = []
    for card in hand:
        if card.is_joker:
            continue
        partner = False
        for other in hand:
            if other is card or other.is_joker or other.face == card.face:
                continue
            if _partners(card, other, ruleset):
                partner = True
                break
        if not partner:
            found.append(card)
    return found


def _partners(a: Card, b: Card, ruleset: Ruleset) -> bool:
    """Whether two natural cards could stand in one meld: the same rank, or the same suit
    within two places."""
    return a.rank == b.rank or (a.suit == b.suit and _distance(a, b, ruleset) <= 2)


_HandKey = tuple[tuple[int, int, int], ...]


def _hand_key(cards: Iterable[Card]) -> _HandKey:
    """The same key for the same cards in any order."""
    return tuple(sorted(c.sort_key for c in cards))


def _distance(a: Card, b: Card, ruleset: Ruleset) -> int:
    gap = abs(a.rank - b.rank)
    if ruleset.ace_high and ACE in (a.rank, b.rank):
        other = b.rank if a.rank == ACE else a.rank
        gap = min(gap, HIGH_ACE - other)
    return gap


def _run_fillers(a: Card, b: Card, ruleset: Ruleset) -> list[int]:
    """Ranks that would make a run of three with ``a`` and ``b`` (same suit, near)."""
    found: set[int] = set()
    for pa in _positions(a, ruleset):
        for pb in _positions(b, ruleset):
            low, high = sorted((pa, pb))
            if high - low == 1:
                found |= {low - 1, high + 1}
            elif high - low == 2:
                found.add(low + 1)
    top = HIGH_ACE if ruleset.ace_high else 13
    return [ACE if r == HIGH_ACE else r for r in found if 1 <= r <= top]


def _positions(card: Card, ruleset: Ruleset) -> set[int]:
    if card.rank == ACE and ruleset.ace_high:
        return {ACE, HIGH_ACE}
    return {card.rank}


def _highest(discards: Sequence[Discard], ruleset: Ruleset, among: Iterable[Card]) -> Discard:
    """The highest discard among the cards ``among``, else among all; never a joker while
    another card may go (:func:`_spare_jokers`)."""
    allowed = _spare_jokers(discards)
    pool = {c.face for c in among}
    chosen = [d for d in allowed if d.card.face in pool] or allowed
    return max(chosen, key=lambda d: (_value(d.card, ruleset), d.card.sort_key))


def _spare_jokers(discards: Sequence[Discard]) -> list[Discard]:
    """The discards without the jokers, unless nothing else may go. A joker is the most
    useful card of the pack, to its holder and to the next player who picks it up: held, it
    melds with any pair, which is worth more than the 15 points it saves when thrown."""
    naturals = [d for d in discards if not d.card.is_joker]
    return naturals or list(discards)


def _jokers_last(
    ranked: Sequence[Discard], hand: Sequence[Card], ruleset: Ruleset, melds: Sequence[TableMeld]
) -> list[Discard]:
    """``ranked`` with every joker moved to the end (see :func:`_spare_jokers`), but for a
    joker whose discard goes out (the rest of the hand melds and lays off entirely) when no
    other card's does: that joker is the way to win the round."""

    def goes_out(discard: Discard) -> bool:
        return not solve(_without(hand, discard.card), ruleset, melds).left

    jokers = [d for d in ranked if d.card.is_joker]
    if not jokers:
        return list(ranked)
    naturals = [d for d in ranked if not d.card.is_joker]
    winning = [d for d in jokers if goes_out(d)]
    if winning and not any(map(goes_out, naturals)):
        return winning + naturals + [d for d in jokers if d not in winning]
    return naturals + jokers


def _fits(card: Card, meld: TableMeld, ruleset: Ruleset) -> bool:
    return bool(layoff_readings(meld, (card,), ruleset))


def _distinct(cards: Iterable[Card]) -> list[Card]:
    seen: set[tuple[object, object]] = set()
    found = []
    for card in cards:
        if card.face not in seen:
            seen.add(card.face)
            found.append(card)
    return found


def _physical(view: GameView, card: Card) -> Card:
    """The card of the viewer's hand that a discard naming ``card``'s face throws."""
    held = [c for c in view.hand if c.face == card.face]
    held.sort(key=lambda c: (c == view.no_discard, c != card))
    return held[0] if held else card


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    """``hand`` less one card of ``card``'s face (legal actions name faces, not copies)."""
    rest = list(hand)
    for i, held in enumerate(rest):
        if held.face == card.face:
            del rest[i]
            break
    return rest


def _used(arrangement: Arrangement, card: Card, *, may_lay_off: bool = True) -> bool:
    """Whether ``arrangement`` places ``card``; with ``may_lay_off`` False, only in a new
    meld (the limit-lay-offs option before a player's first meld)."""
    return any(
        card.face == c.face
        for p in arrangement.plays
        if may_lay_off or p.meld_id is None
        for c in p.cards
    )


def _may_lay_off(view: GameView) -> bool:
    """Whether the viewer may lay off this turn without melding first."""
    seat = view.seat_of_viewer
    return not view.ruleset.limit_layoffs or (seat is not None and seat.has_melded)


def unseen_cards(view: GameView) -> list[Card]:
    """Cards the viewer cannot see: other hands, the stock and the hidden part of the pile."""
    players = len(view.seats)
    pack = full_pack(view.ruleset.decks_for(players), view.ruleset.jokers_per_deck)
    seen = set(view.hand) | set(view.discard) | {p.card for m in view.melds for p in m.cards}
    return [c for c in pack if c not in seen]
