"""Who the league rates and who gets a forfeit when seats changed hands during a game:
ratings move only when every seat was played by its own person from the deal to the end."""

from __future__ import annotations

from bot.values.league import Credit, FinalSeat, Leaver, credits, forfeits, is_rated
from bot.values.seats import SeatKind


def human(user_id: int, place: int, *, assisted: bool = False) -> FinalSeat:
    return FinalSeat(SeatKind.HUMAN, user_id, f"p{user_id}", place, 10 * place, 0, assisted)


def test_a_game_played_to_the_end_by_its_own_people_is_rated() -> None:
    assert is_rated([human(1, 1), human(2, 2)])


def test_a_seat_a_stand_in_moved_for_moves_no_rating() -> None:
    assert not is_rated([human(1, 1), human(2, 2, assisted=True)])


def test_a_game_someone_left_moves_no_rating_even_when_the_seat_was_taken_over() -> None:
    # Ann left; Cat took her seat over (assisted) and finished it.
    seats = [human(3, 1, assisted=True), human(2, 2)]
    assert not is_rated(seats, [Leaver(1, "Ann")])
    # Even a leaver's seat played out by a computer: a computer sat there at the end.
    cpu = FinalSeat(SeatKind.COMPUTER, None, "Ann", 1, 30, 1, assisted=True)
    assert not is_rated([cpu, human(2, 2)], [Leaver(1, "Ann")])


def test_standings_still_count_every_person_seated_at_the_end() -> None:
    seats = [human(3, 1, assisted=True), human(2, 2)]
    assert [c.user_id for c in credits(seats)] == [3, 2]
    assert credits(seats)[0].wins == 1


def test_a_leaver_gets_a_lost_game_placed_after_every_seat() -> None:
    cpu = FinalSeat(SeatKind.COMPUTER, None, "Ann", 1, 30, 1, assisted=True)
    seats = [cpu, human(2, 2), human(3, 3)]
    assert forfeits(seats, [Leaver(1, "Ann")]) == (
        Credit(
            1, "Ann", wins=0, rounds_won=0, points_for=0, points_against=0, place=4, forfeit=True
        ),
    )
    assert forfeits(seats, []) == ()
