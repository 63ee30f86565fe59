"""The league's rules: finishing places and round winners read from a game's results,
whom a finished game counts for and what it adds, and which games move ratings."""

from __future__ import annotations

import pytest

from bot.rummy import RoundEnd, RoundResult, preset
from bot.values.league import (
    NEWCOMER,
    Credit,
    FinalSeat,
    Rating,
    SeatResult,
    credits,
    final_results,
    is_rated,
    places,
    rate,
    round_winners,
)
from bot.values.seats import SeatKind

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


def human(user_id: int, place: int, score: int) -> FinalSeat:
    return FinalSeat(SeatKind.HUMAN, user_id, f"p{user_id}", place, score, rounds_won=place % 2)


def test_a_game_counts_for_its_humans_against_every_seat() -> None:
    cpu = FinalSeat(SeatKind.COMPUTER, None, "Cpu", 1, 90, 2)
    gone = FinalSeat(SeatKind.HUMAN, None, "deleted player", 3, 5, 0)
    seats = [human(1, 2, 40), cpu, gone, human(2, 4, -10)]
    assert credits(seats) == (
        Credit(1, "p1", wins=0, rounds_won=0, points_for=40, points_against=85, place=2),
        Credit(2, "p2", wins=0, rounds_won=0, points_for=-10, points_against=135, place=4),
    )
    assert credits([human(1, 1, 9), human(2, 1, 9)])[1].wins == 1  # tied firsts all win


def test_only_games_between_humans_alone_are_rated() -> None:
    assert is_rated([human(1, 1, 50), human(2, 2, 10)])
    assert not is_rated([human(1, 1, 50)])
    assert not is_rated([human(1, 1, 50), FinalSeat(SeatKind.COMPUTER, None, "Cpu", 2, 0, 0)])


def test_a_rating_moves_towards_the_result_and_a_tie_moves_nobody_apart() -> None:
    winner, loser = rate([NEWCOMER, NEWCOMER], [1, 2])
    assert winner.mu > NEWCOMER.mu > loser.mu
    assert max(winner.sigma, loser.sigma) < NEWCOMER.sigma
    first, second = rate([NEWCOMER, NEWCOMER], [1, 1])
    assert first == second
    assert first.mu == pytest.approx(NEWCOMER.mu)
    assert rate([Rating(30.0, 2.0), NEWCOMER], [2, 1])[0].mu < 30.0
