"""Round scoring in the three modes of rules.md, and deciding when a game is won."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld, slot_value
from bot.rummy.rules import Ruleset, Scoring


def hand_value(cards: Sequence[Card], ruleset: Ruleset) -> int:
    """Cards left in a hand count loose, whatever melds they could have made."""
    return sum(ruleset.card_value(c) for c in cards)


def placed_values(
    players: Sequence[str], melds: Sequence[TableMeld], ruleset: Ruleset
) -> tuple[int, ...]:
    """The value of the cards each player put on the table, on anyone's meld."""
    seat = {p: i for i, p in enumerate(players)}
    totals = [0] * len(players)
    for meld in melds:
        for placed in meld.cards:
            totals[seat[placed.placed_by]] += slot_value(placed.slot, meld.kind, ruleset)
    return tuple(totals)


def round_points(
    ruleset: Ruleset,
    hand_values: Sequence[int],
    placed: Sequence[int],
    went_out: int | None,
) -> tuple[int, ...]:
    """Points each seat scores this round (penalty points under negative scoring)."""
    n = len(hand_values)
    if ruleset.scoring is Scoring.NEGATIVE:
        return tuple(hand_values)
    if ruleset.scoring is Scoring.HAND:
        return tuple(placed[i] - hand_values[i] for i in range(n))
    points = [0] * n
    if went_out is not None:
        points[went_out] = sum(v for i, v in enumerate(hand_values) if i != went_out)
        return tuple(points)
    low = min(hand_values)
    winners = [i for i, v in enumerate(hand_values) if v == low]
    pot = sum(v - low for v in hand_values)
    for i in winners:
        points[i] = pot // len(winners)
    return tuple(points)


def game_winners(ruleset: Ruleset, totals: Sequence[int]) -> tuple[int, ...]:
    """The winning seat once the target is reached by someone and the best total is not
    shared; empty while the game goes on."""
    if max(totals) < ruleset.target:
        return ()
    best = min(totals) if ruleset.scoring is Scoring.NEGATIVE else max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == best)
    return leaders if len(leaders) == 1 else ()
