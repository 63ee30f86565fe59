"""Finishing places and round winners, the league's reading of a game's results."""

from __future__ import annotations

from bot.league import SeatResult, final_results, places, round_winners
from bot.rummy import RoundEnd, RoundResult, preset

PLAYERS = ("a", "b", "c")


def result(reason: RoundEnd, ender: str | None, hand_values: tuple[int, ...]) -> RoundResult:
    zeros = (0,) * len(hand_values)
    return RoundResult(1, reason, ender, ((),) * len(hand_values), hand_values, zeros, zeros, zeros)


def test_places_share_ties_and_skip_after_them() -> None:
    assert places([50, 80, 50, 10]) == (2, 1, 2, 4)
    assert places([50, 80, 50, 10], lower_is_better=True) == (2, 4, 2, 1)
    assert places([7, 7]) == (1, 1)


def test_round_winners() -> None:
    assert round_winners(result(RoundEnd.WENT_OUT, "b", (12, 0, 30)), PLAYERS) == (1,)
    assert round_winners(result(RoundEnd.ENDED, "a", (12, 5, 30)), PLAYERS) == (1,)
    assert round_winners(result(RoundEnd.BLOCKED, None, (4, 9, 4)), PLAYERS) == (0, 2)


def test_negative_scoring_ranks_the_lowest_total_first() -> None:
    rounds = [
        result(RoundEnd.WENT_OUT, "a", (0, 10, 20)),
        result(RoundEnd.WENT_OUT, "c", (3, 10, 0)),
    ]
    negative = preset("classic", negative_scoring=True)
    assert final_results(negative, PLAYERS, [3, 20, 20], rounds) == (
        SeatResult(0, 3, 1, 1),
        SeatResult(1, 20, 2, 0),
        SeatResult(2, 20, 2, 1),
    )
    positive = preset("classic")
    assert [r.place for r in final_results(positive, PLAYERS, [3, 20, 20], rounds)] == [3, 1, 1]
