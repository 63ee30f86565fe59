"""Play again: the seats of the next game of a finished one.

The same people and computer players sit down again in the same order ("seated people
confirm by being there": whoever does not want to play leaves the lobby as usual), and the
people queued for the next game take the seats that remain, first come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.sessions.names import clean_name
from bot.storage import GameRecord
from bot.values.seats import NewSeat, SeatKind


@dataclass(frozen=True, slots=True)
class RematchSeats:
    """Who sits at the new table, and who of the queue did not find a seat."""

    seats: tuple[NewSeat, ...]
    from_queue: tuple[int, ...]
    """The queued people seated (user ids)."""
    left_out: tuple[str, ...]
    """The names of the queued people no seat remained for."""


def rematch_seats(record: GameRecord, queued: Sequence[tuple[int, str]], most: int) -> RematchSeats:
    """The seats of the game after ``record`` for at most ``most`` players: its own seats
    (a person a computer stood in for is a person again; a person whose data was erased is
    gone), then the queued people (``(user id, name)``, first come first)."""
    seats: list[NewSeat] = []
    for seat in sorted(record.seats, key=lambda x: x.seat):
        if seat.kind is SeatKind.COMPUTER:
            seats.append(NewSeat.computer(seat.display_name, seat.level))
        elif seat.user_id is not None:
            seats.append(NewSeat.human(seat.user_id, seat.display_name))
    seated = {s.user_id for s in seats if s.user_id is not None}
    taken: list[int] = []
    left: list[str] = []
    for user_id, name in queued:
        if user_id in seated:
            continue
        if len(seats) < most:
            seats.append(NewSeat.human(user_id, clean_name(name)))
            seated.add(user_id)
            taken.append(user_id)
        else:
            left.append(clean_name(name))
    return RematchSeats(tuple(seats), tuple(taken), tuple(left))
