"""The one generator of legal plays, shared by buttons, autocomplete, computer players,
the Rummy 500 deep-take check and the tests.

It works on a :class:`TurnContext` — a hand, the table and the few facts of the turn that
restrict play — rather than on the game, so the deep-take check can ask "could the player
use this card if they took it?" without touching the game.

The generator only proposes groups of cards; whether a group is a meld, and every way to
read it, is decided by :func:`bot.rummy.melds.readings` and
:func:`bot.rummy.melds.layoff_readings`, the same functions ``Game.apply`` checks with. So
the two cannot disagree about what a meld is. Proposals are cheap because they are made by
suit and rank: a set is cards of one rank; a run is cards of one suit whose gaps jokers can
fill, where a joker may also stand in for a card the player holds; a lay-off may add cards at
both ends of a run at once.

Plays are returned as people type them (see ``Game.legal_actions``): faces without copy
numbers, so twins (the same face from two decks) are offered once, and a reading only where
the cards have more than one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain, combinations

from bot.rummy.actions import Discard, LayOff, Meld, SwapJoker, reading_kind
from bot.rummy.cards import ACE, HIGH_ACE, Card, Suit
from bot.rummy.errors import IllegalAction
from bot.rummy.melds import (
    MeldKind,
    Reading,
    Slot,
    TableMeld,
    layoff_readings,
    readings,
    swap_position,
)
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


def dead_end(ctx: TurnContext, used: Collection[Card]) -> IllegalAction | None:
    """Why a play using ``used`` would leave the player unable to end the turn, if it would."""
    left = len(ctx.hand) - len(used)
    if left == 0:
        if ctx.ruleset.must_discard_to_go_out:
            return IllegalAction("refusal.play.keep_discard")
        return None
    taken = ctx.no_discard
    if left == 1 and taken is not None and taken in ctx.hand and taken not in used:
        return _holding_only(taken)
    return None


def _holding_only(taken: Card) -> IllegalAction:
    return IllegalAction("refusal.play.holding_only", card=taken)


def swap_dead_end(ctx: TurnContext, joker: Card) -> IllegalAction | None:
    """Why swapping the only card in hand for ``joker`` would leave the player stuck: the
    joker coming back may be the very card just taken from the discard pile (taken, melded,
    then swapped out again), which may not be discarded this turn."""
    if len(ctx.hand) == 1 and joker == ctx.no_discard:
        return _holding_only(joker)
    return None


def layoff_refusal(ctx: TurnContext, count: int) -> IllegalAction | None:
    """Why the limit-lay-offs option refuses laying off ``count`` more cards, if it does."""
    if not ctx.ruleset.limit_layoffs:
        return None
    if not ctx.has_melded:
        return IllegalAction("refusal.layoff.before_meld")
    if ctx.layoff_cards + count > 1:
        return IllegalAction("refusal.layoff.one_per_turn")
    return None


def _representatives(ctx: TurnContext) -> tuple[dict[tuple[int, Suit], Card], list[Card]]:
    """One physical card per face (the must-use or no-discard twin first, since playing the
    card just taken never hurts), and the jokers (the must-use one first)."""
    reps: dict[tuple[int, Suit], Card] = {}
    jokers: list[Card] = []
    preferred = [c for c in (ctx.must_use, ctx.no_discard) if c is not None and c in ctx.hand]
    for card in [*preferred, *ctx.hand]:
        if card.suit is None:
            if card not in jokers:
                jokers.append(card)
        else:
            reps.setdefault((card.rank, card.suit), card)
    jokers.sort(key=lambda j: (j != ctx.must_use, j != ctx.no_discard, j.copy))
    return reps, jokers


def _playable(ctx: TurnContext, cards: Sequence[Card]) -> bool:
    """Whether a play of ``cards`` uses the must-use card (if any) and leaves the turn
    able to end."""
    target = ctx.must_use
    return (target is None or target in cards) and dead_end(ctx, cards) is None


# --- which groups to ask about -------------------------------------------------------------


def _by_suit(reps: dict[tuple[int, Suit], Card]) -> dict[Suit, list[Card]]:
    found: dict[Suit, list[Card]] = {}
    for (_, suit), card in sorted(reps.items()):
        found.setdefault(suit, []).append(card)
    return found


def _set_groups(
    reps: dict[tuple[int, Suit], Card], jokers: int, sizes: range
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """(naturals, jokers) of each rank whose count fits ``sizes``."""
    by_rank: dict[int, list[Card]] = {}
    for (rank, _), card in sorted(reps.items()):
        by_rank.setdefault(rank, []).append(card)
    for cards in by_rank.values():
        for n in range(1, min(len(cards), 4) + 1):
            for wild in range(min(n, jokers) + 1):
                if n + wild in sizes:
                    for combo in combinations(cards, n):
                        yield combo, wild


def _run_groups(
    cards: list[Card], jokers: int, ace_high: bool
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """(naturals, jokers) of one suit: the naturals span at most as many gaps as there are
    jokers (a joker may also stand in for a held card left out), at least three in all."""
    positions = sorted((c.rank, c) for c in cards)
    if ace_high and cards and cards[0].rank == ACE:
        positions.append((HIGH_ACE, cards[0]))
    seen: set[tuple[frozenset[Card], int]] = set()
    for i, (low, _) in enumerate(positions):
        for j in range(i, len(positions)):
            high = positions[j][0]
            span = high - low + 1
            inside = positions[i + 1 : j]
            gaps = span - (j - i + 1)
            if gaps > jokers:
                break
            for left_out in range(min(len(inside), jokers - gaps) + 1):
                for dropped in combinations(inside, left_out):
                    chosen = tuple(c for p, c in positions[i : j + 1] if (p, c) not in dropped)
                    if len(set(chosen)) != len(chosen):
                        continue
                    need = gaps + left_out
                    for wild in range(need, min(jokers, len(chosen)) + 1):
                        if len(chosen) + wild < 3:
                            continue
                        key = (frozenset(chosen), wild)
                        if key not in seen:
                            seen.add(key)
                            yield chosen, wild


def _joker_groups(jokers: int, sizes: range) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Jokers alone, for lay-offs (a new meld needs naturals)."""
    for wild in range(1, jokers + 1):
        if wild in sizes:
            yield (), wild


# --- melds -------------------------------------------------------------------------------


def meld_options(ctx: TurnContext) -> list[Meld]:
    found: list[Meld] = []
    for options in _meld_readings(ctx):
        for reading in options:
            typed, named = _as_typed(reading.slots, len(options) > 1)
            found.append(Meld(typed, named))
    return found


def _meld_readings(ctx: TurnContext) -> Iterator[list[Reading]]:
    """The readings of each playable group that is a new meld, one group at a time (so
    :func:`can_use` stops at the first)."""
    reps, jokers = _representatives(ctx)
    target = ctx.must_use
    same_rank = same_suit = reps
    if target is not None and not target.is_joker:  # only its set and its runs can hold it
        same_rank = {face: c for face, c in reps.items() if face[0] == target.rank}
        same_suit = {face: c for face, c in reps.items() if face[1] == target.suit}
    groups = chain(
        _set_groups(same_rank, len(jokers), range(3, 5)),
        *(
            _run_groups(cards, len(jokers), ctx.ruleset.ace_high)
            for cards in _by_suit(same_suit).values()
        ),
    )
    for naturals, wild in groups:
        group = (*naturals, *jokers[:wild])
        if not _playable(ctx, group):
            continue
        options = readings(group, ctx.ruleset)
        if options:
            yield options


_TYPED_JOKERS = tuple(Card.joker(n) for n in range(16))


def _as_typed(
    slots: Sequence[Slot], ambiguous: bool, table: Collection[Card] = ()
) -> tuple[tuple[Card, ...], Reading | None]:
    """Cards and reading as a person types them: faces without copy numbers (``apply``
    finds the copies that make the play legal), jokers numbered in order but never as one
    already in the meld (so the cards stay distinct), and the reading only when the cards
    have more than one (then each joker says what it stands for).

    Text names a reading only through its jokers and high aces; a reading with neither is
    the one with every ace low, which is the first (and the default)."""
    jokers = iter([j for j in _TYPED_JOKERS if j not in table] if table else _TYPED_JOKERS)
    typed: list[Slot] = []
    said = False
    for slot in slots:
        card = slot.card
        if card.suit is None:
            card, said = next(jokers), True
        elif card.copy:
            card = Card(card.rank, card.suit, 0)
        said = said or slot.rank == HIGH_ACE
        typed.append(Slot(card, slot.rank, slot.suit))
    cards = tuple(s.card for s in typed)
    if not (ambiguous and said):
        return cards, None
    return cards, Reading(reading_kind(typed), tuple(typed))


def as_typed(card: Card) -> Card:
    """The card a person means by its face: the first copy (``apply`` resolves twins)."""
    return card if card.copy == 0 else Card(card.rank, card.suit, 0)


# --- lay-offs ----------------------------------------------------------------------------


def layoff_options(ctx: TurnContext) -> list[LayOff]:
    found: list[LayOff] = []
    for meld, group, options in _layoff_readings(ctx):
        on_table = {p.card for p in meld.cards}
        for reading in options:
            new = [s for s in reading.slots if s.card in group]
            cards, named = _as_typed(new, len(options) > 1, on_table)
            found.append(LayOff(cards, meld.id, named))
    return found


def _layoff_readings(
    ctx: TurnContext,
) -> Iterator[tuple[TableMeld, tuple[Card, ...], list[Reading]]]:
    """Each meld, playable group that fits on it and the readings of the grown meld, one
    group at a time (so :func:`can_use` stops at the first)."""
    if layoff_refusal(ctx, 1) is not None:
        return
    reps, jokers = _representatives(ctx)
    most = 1 if ctx.ruleset.limit_layoffs else len(ctx.hand)
    for meld in ctx.melds:
        if not _may_hold(meld, ctx.must_use):
            continue
        for naturals, wild in _layoff_groups(ctx.ruleset, meld, reps, len(jokers), most):
            group = (*naturals, *jokers[:wild])
            if not _playable(ctx, group):
                continue
            options = layoff_readings(meld, group, ctx.ruleset)
            if options:
                yield meld, group, options


def _may_hold(meld: TableMeld, card: Card | None) -> bool:
    """Whether ``card`` (a card that must be used, if any) could go on ``meld``: a natural
    only on a set of its rank or a run of its suit."""
    if card is None or card.is_joker:
        return True
    if meld.kind is MeldKind.SET:
        return card.rank == meld.rank
    return card.suit == meld.suit


def _layoff_groups(
    ruleset: Ruleset,
    meld: TableMeld,
    reps: dict[tuple[int, Suit], Card],
    jokers: int,
    most: int,
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Groups that might go on ``meld``: cards of its rank (a set), or of its suit beyond
    either end of it (a run), with jokers."""
    if meld.kind is MeldKind.SET:
        room = range(1, min(4 - len(meld.cards), most) + 1)
        present = {p.suit for p in meld.cards}
        fits = {f: c for f, c in reps.items() if f[0] == meld.rank and f[1] not in present}
        for naturals, wild in _set_groups(fits, jokers, room):
            if len(naturals) >= 1:
                yield naturals, wild
        yield from _joker_groups(jokers, room)
        return
    suit = meld.suit
    if suit is None:
        return
    ranks = [p.rank for p in meld.cards]
    low, high = min(ranks), max(ranks)
    outside = [
        c
        for (rank, s), c in reps.items()
        if s == suit and (rank < low or rank > high or (rank == ACE and ruleset.ace_high))
    ]
    yield from _run_layoff_groups(outside, low, high, jokers, most, ruleset.ace_high)


def _run_layoff_groups(
    outside: list[Card], low: int, high: int, jokers: int, most: int, ace_high: bool
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Cards below ``low`` and above ``high`` that, with jokers filling what is between
    them and the meld, extend it at one end or both."""
    below = sorted((c for c in outside if c.rank < low), key=lambda c: -c.rank)
    above = sorted((c for c in outside if c.rank > high), key=lambda c: c.rank)
    if ace_high and high < HIGH_ACE:
        above += [c for c in outside if c.rank == ACE]

    def position(card: Card, upward: bool) -> int:
        return HIGH_ACE if upward and card.rank == ACE else card.rank

    def reaches(side: list[Card], upward: bool) -> Iterator[tuple[tuple[Card, ...], int]]:
        """Subsets of one side with the jokers they need to touch the meld."""
        yield (), 0
        edge = high if upward else low
        for n in range(1, len(side) + 1):
            for combo in combinations(side, n):
                far = max(abs(position(c, upward) - edge) for c in combo)
                yield combo, far - n

    seen: set[tuple[frozenset[Card], int]] = set()
    for down, need_down in reaches(below, False):
        if need_down > jokers:
            continue
        for up, need_up in reaches(above, True):
            need = need_down + need_up
            naturals = (*down, *up)
            if need > jokers or len(set(naturals)) != len(naturals):
                continue
            for wild in range(need, jokers + 1):
                if 0 < len(naturals) + wild <= most:
                    key = (frozenset(naturals), wild)
                    if key not in seen:
                        seen.add(key)
                        yield naturals, wild


# --- swaps and discards ------------------------------------------------------------------


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
            position = swap_position(meld, card)
            if position is not None and not swap_dead_end(ctx, meld.cards[position].card):
                found.append(SwapJoker(meld.id, as_typed(card)))
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
        found.append(Discard(as_typed(card)))
    return found


def play_options(ctx: TurnContext) -> list[Meld | LayOff | SwapJoker | Discard]:
    return [*meld_options(ctx), *layoff_options(ctx), *swap_options(ctx), *discard_options(ctx)]


def can_use(ctx: TurnContext, card: Card) -> bool:
    """Whether some meld or lay-off containing ``card`` is legal in ``ctx``."""
    if not _has_partners(ctx, card):
        return False
    probe = replace(ctx, must_use=card)
    return any(True for _ in _meld_readings(probe)) or any(True for _ in _layoff_readings(probe))


def _has_partners(ctx: TurnContext, card: Card) -> bool:
    """What any play of ``card`` needs, cheap to tell (most cards deep in a Rummy 500 pile
    have none of it): a meld on the table of its rank or suit, or two cards in hand, jokers
    or naturals, that could stand beside it in a set (its rank, another suit) or in a run
    of three (its suit, at most two places away)."""
    if card.is_joker or any(_may_hold(meld, card) for meld in ctx.melds):
        return True
    jokers = sum(1 for c in ctx.hand if c.is_joker)
    suits = {c.suit for c in ctx.hand if c.rank == card.rank and c.suit != card.suit}
    if jokers + len(suits) >= 2:
        return True
    places = _places(card, ctx.ruleset.ace_high)
    near = {
        c.rank
        for c in ctx.hand
        if c.suit == card.suit
        and c.rank != card.rank
        and any(0 < abs(p - q) <= 2 for p in _places(c, ctx.ruleset.ace_high) for q in places)
    }
    return jokers + len(near) >= 2


def _places(card: Card, ace_high: bool) -> tuple[int, ...]:
    """Where a natural may stand in a run: its rank, and an ace also above the king."""
    return (ACE, HIGH_ACE) if card.rank == ACE and ace_high else (card.rank,)
