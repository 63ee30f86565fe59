"""The one generator of legal plays, shared by buttons, autocomplete, computer players,
the Rummy 500 deep-take check and the tests.

It works on a :class:`TurnContext` — a hand, the table and the few facts of the turn that
restrict play — rather than on the game, so the deep-take check can ask "could the player
use this card if they took it?" without touching the game.

What it generates: every draw, every discard, every swap, every meld whose gaps are filled
by jokers only where the hand has no natural card, and lay-offs of one card onto a set or
of a contiguous stretch of cards onto either end of a run. Twins (the same face from two
decks) are offered once. Any other legal play is still accepted by ``Game.apply``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TypeVar

from bot.rummy.actions import Discard, LayOff, Meld, SwapJoker
from bot.rummy.cards import ACE, HIGH_ACE, KING, Card, Suit
from bot.rummy.melds import MeldKind, TableMeld, run_reading, set_reading, swap_position
from bot.rummy.rules import Ruleset


@dataclass(frozen=True, slots=True)
class TurnContext:
    ruleset: Ruleset
    hand: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    has_melded: bool
    layoff_cards: int
    """Cards laid off (or swapped in) so far this turn, for the limit-lay-offs option."""
    no_discard: Card | None
    must_use: Card | None


def dead_end(ctx: TurnContext, used: Collection[Card]) -> str | None:
    """Why a play using ``used`` would leave the player unable to end the turn, if it would."""
    left = len(ctx.hand) - len(used)
    if left == 0:
        if ctx.ruleset.must_discard_to_go_out:
            return "You must keep a card to discard: going out needs a final discard here."
        return None
    taken = ctx.no_discard
    if left == 1 and taken is not None and taken in ctx.hand and taken not in used:
        return (
            f"That would leave you holding only {taken}, which you took from the"
            " discard pile and may not discard this turn."
        )
    return None


def layoff_refusal(ctx: TurnContext, count: int) -> str | None:
    """Why the limit-lay-offs option refuses laying off ``count`` more cards, if it does."""
    if not ctx.ruleset.limit_layoffs:
        return None
    if not ctx.has_melded:
        return "You may lay off only after you have melded this round."
    if ctx.layoff_cards + count > 1:
        return "You may lay off only one card per turn."
    return None


def _representatives(ctx: TurnContext) -> tuple[dict[tuple[int, Suit], Card], list[Card]]:
    """One physical card per face (the must-use or no-discard twin first), and the jokers."""
    reps: dict[tuple[int, Suit], Card] = {}
    jokers: list[Card] = []
    preferred = [c for c in (ctx.must_use, ctx.no_discard) if c is not None and c in ctx.hand]
    for card in [*preferred, *ctx.hand]:
        if card.suit is None:
            if card not in jokers:
                jokers.append(card)
        else:
            reps.setdefault((card.rank, card.suit), card)
    jokers.sort(key=lambda j: (j != ctx.must_use, j.copy))
    return reps, jokers


def meld_options(ctx: TurnContext) -> list[Meld]:
    reps, jokers = _representatives(ctx)
    return _playable(ctx, [*_set_melds(ctx, reps, jokers), *_run_melds(ctx, reps, jokers)])


PlayT = TypeVar("PlayT", Meld, LayOff)


def _playable(ctx: TurnContext, plays: list[PlayT]) -> list[PlayT]:
    """The plays that use the must-use card (if any) and leave the turn able to end."""
    target = ctx.must_use
    return [
        p for p in plays if (target is None or target in p.cards) and dead_end(ctx, p.cards) is None
    ]


def _set_melds(
    ctx: TurnContext, reps: dict[tuple[int, Suit], Card], jokers: list[Card]
) -> Iterator[Meld]:
    by_rank: dict[int, list[Card]] = {}
    for (rank, _), card in reps.items():
        by_rank.setdefault(rank, []).append(card)
    target = ctx.must_use
    for rank, cards in sorted(by_rank.items()):
        if target is not None and not target.is_joker and target.rank != rank:
            continue
        cards.sort()
        for size in (3, 4):
            for naturals in range(len(cards), 0, -1):
                wild = size - naturals
                if wild < 0 or wild > len(jokers) or wild > naturals:
                    continue
                for combo in combinations(cards, naturals):
                    reading = set_reading(rank, combo, jokers[:wild])
                    yield Meld(reading.cards, reading)


def _positions(suit: Suit, reps: dict[tuple[int, Suit], Card], ace_high: bool) -> dict[int, Card]:
    by_pos = {rank: reps[(rank, suit)] for rank in range(ACE, KING + 1) if (rank, suit) in reps}
    if ace_high and ACE in by_pos:
        by_pos[HIGH_ACE] = by_pos[ACE]
    return by_pos


def _run_melds(
    ctx: TurnContext, reps: dict[tuple[int, Suit], Card], jokers: list[Card]
) -> Iterator[Meld]:
    ace_high = ctx.ruleset.ace_high
    top = HIGH_ACE if ace_high else KING
    target = ctx.must_use
    for suit in Suit:
        if target is not None and target.suit is not None and target.suit != suit:
            continue
        by_pos = _positions(suit, reps, ace_high)
        if len(by_pos) < 2:
            continue
        for start in range(ACE, top - 1):
            naturals = missing = 0
            for end in range(start, min(top, start + 12) + 1):
                if end in by_pos:
                    naturals += 1
                else:
                    missing += 1
                    if missing > len(jokers):
                        break
                if end - start < 2 or naturals < missing:
                    continue
                window = {p: c for p, c in by_pos.items() if start <= p <= end}
                reading = run_reading(suit, start, end, window, jokers[:missing])
                yield Meld(reading.cards, reading)


def layoff_options(ctx: TurnContext) -> list[LayOff]:
    if layoff_refusal(ctx, 1) is not None:
        return []
    reps, jokers = _representatives(ctx)
    single = ctx.ruleset.limit_layoffs
    found: list[LayOff] = []
    for meld in ctx.melds:
        if meld.kind is MeldKind.SET:
            found.extend(_set_layoffs(meld, reps, jokers))
        else:
            found.extend(_run_layoffs(ctx.ruleset, meld, reps, jokers, single))
    return _playable(ctx, found)


def _set_layoffs(
    meld: TableMeld, reps: dict[tuple[int, Suit], Card], jokers: list[Card]
) -> Iterator[LayOff]:
    if len(meld.cards) >= 4:
        return
    present = {p.suit for p in meld.cards}
    wild = sum(1 for p in meld.cards if p.card.is_joker)
    for suit in Suit:
        card = reps.get((meld.rank, suit))
        if card is not None and suit not in present:
            reading = set_reading(meld.rank, (card,), (), meld.slots)
            yield LayOff((card,), meld.id, reading)
    if jokers and (wild + 1) * 2 <= len(meld.cards) + 1:
        reading = set_reading(meld.rank, (), jokers[:1], meld.slots)
        yield LayOff(tuple(jokers[:1]), meld.id, reading)


def _run_layoffs(
    ruleset: Ruleset,
    meld: TableMeld,
    reps: dict[tuple[int, Suit], Card],
    jokers: list[Card],
    single: bool,
) -> Iterator[LayOff]:
    suit = meld.suit
    if suit is None:
        return
    fixed = {p.rank: p.slot for p in meld.cards}
    lo, hi = min(fixed), max(fixed)
    ace_high = ruleset.ace_high
    bottom = ACE + 1 if hi == HIGH_ACE else ACE
    top = (HIGH_ACE if ace_high else KING) if lo > ACE else KING
    by_pos = _positions(suit, reps, ace_high)
    wild_on_table = sum(1 for p in meld.cards if p.card.is_joker)
    for step, limit in ((-1, bottom), (1, top)):
        added: dict[int, Card] = {}
        used_jokers: list[Card] = []
        pos = (lo if step < 0 else hi) + step
        while (pos >= limit) if step < 0 else (pos <= limit):
            card = by_pos.get(pos)
            if card is not None and card not in added.values():
                added[pos] = card
            elif len(used_jokers) < len(jokers):
                used_jokers.append(jokers[len(used_jokers)])
            else:
                break
            wild = wild_on_table + len(used_jokers)
            if wild * 2 <= len(meld.cards) + len(added) + len(used_jokers):
                start, end = (pos, hi) if step < 0 else (lo, pos)
                reading = run_reading(suit, start, end, added, used_jokers, fixed)
                cards = tuple(s.card for s in reading.slots if s.rank not in fixed)
                yield LayOff(cards, meld.id, reading)
            if single:
                break
            pos += step


def swap_options(ctx: TurnContext) -> list[SwapJoker]:
    if not ctx.ruleset.joker_swap or ctx.must_use is not None:
        return []
    if ctx.ruleset.limit_layoffs and ctx.layoff_cards >= 1:
        return []
    reps, _ = _representatives(ctx)
    found: list[SwapJoker] = []
    for meld in ctx.melds:
        if not any(p.card.is_joker for p in meld.cards):
            continue
        for card in reps.values():
            if swap_position(meld, card) is not None:
                found.append(SwapJoker(meld.id, card))
    return found


def discard_options(ctx: TurnContext) -> list[Discard]:
    if ctx.must_use is not None:
        return []
    seen: set[tuple[int, Suit | None]] = set()
    found: list[Discard] = []
    for card in sorted(ctx.hand):
        if card == ctx.no_discard or card.face in seen:
            continue
        seen.add(card.face)
        found.append(Discard(card))
    return found


def play_options(ctx: TurnContext) -> list[Meld | LayOff | SwapJoker | Discard]:
    return [*meld_options(ctx), *layoff_options(ctx), *swap_options(ctx), *discard_options(ctx)]


def can_use(ctx: TurnContext, card: Card) -> bool:
    """Whether some meld or lay-off containing ``card`` is legal in ``ctx``."""
    probe = replace(ctx, must_use=card)
    return bool(meld_options(probe)) or bool(layoff_options(probe))
