"""How a finished game turns into standings: places from scores, and who won each round.

These are league rules, not game rules, so they live with the league's storage; they read
the engine's results and never change them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rummy.rules import Ruleset, Scoring
from bot.rummy.views import RoundEnd, RoundResult
from bot.storage.models import SeatResult


def places(scores: Sequence[int], lower_is_better: bool = False) -> tuple[int, ...]:
    """Finishing place per seat; equal scores share a place and the next one is skipped.

    >>> places([40, 100, 40, 7])
    (2, 1, 2, 4)
    >>> places([40, 100, 40, 7], lower_is_better=True)
    (2, 4, 2, 1)
    """
    sign = 1 if lower_is_better else -1
    return tuple(1 + sum(1 for other in scores if sign * other < sign * s) for s in scores)


def round_winners(result: RoundResult, players: Sequence[str]) -> tuple[int, ...]:
    """The seats that won a round: whoever went out, else the lowest hand value (ties share).

    The same reading for every scoring style: the rules pay a round that ended without
    anyone going out to the lowest hand, and going out means a hand worth nothing.
    """
    if result.reason is RoundEnd.WENT_OUT and result.ender is not None:
        return (players.index(result.ender),)
    best = min(result.hand_values)
    return tuple(seat for seat, value in enumerate(result.hand_values) if value == best)


def final_results(
    ruleset: Ruleset,
    players: Sequence[str],
    scores: Sequence[int],
    rounds: Sequence[RoundResult],
) -> tuple[SeatResult, ...]:
    """The final standings of a finished game, in seat order."""
    finishing = places(scores, lower_is_better=ruleset.scoring is Scoring.NEGATIVE)
    won = [0] * len(players)
    for result in rounds:
        for seat in round_winners(result, players):
            won[seat] += 1
    return tuple(
        SeatResult(seat, score, place, rounds_won)
        for seat, (score, place, rounds_won) in enumerate(zip(scores, finishing, won, strict=True))
    )
