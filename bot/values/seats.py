"""Who sits at a table and until when the running turn may last.

These are the application's own values: the sessions make and read them, and storage only
writes them down and reads them back, so they live here rather than beside the SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class SeatKind(StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A place at a new table, before the game gives it a seat number and a player id."""

    kind: SeatKind
    display_name: str
    user_id: int | None = None
    level: str | None = None
    """A computer player's strength (None for people)."""

    @classmethod
    def human(cls, user_id: int, display_name: str) -> NewSeat:
        return cls(SeatKind.HUMAN, display_name, user_id)

    @classmethod
    def computer(cls, display_name: str, level: str | None = None) -> NewSeat:
        return cls(SeatKind.COMPUTER, display_name, None, level)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player_id: str
    """The id the engine knows the player by: ``str(user_id)`` or ``cpu-N``."""
    kind: SeatKind
    user_id: int | None
    display_name: str
    level: str | None = None
    """A computer player's strength (None for people)."""
    missed: int = 0
    """Turns in a row the turn timer played for this person."""
    stand_in: str | None = None
    """The level of the computer player holding this person's seat (None: they play)."""
    assisted: bool = False
    """Not played by one person from the deal to the end: a stand-in moved for it, its
    person left it, or someone took it over (the league rates no game with such a seat)."""

    def as_new(self) -> NewSeat:
        return NewSeat(self.kind, self.display_name, self.user_id, self.level)


def assign_seats(new_seats: Sequence[NewSeat]) -> tuple[Seat, ...]:
    """Seat numbers in the given order and the engine's player ids.

    Humans are known to the engine by their Discord user id as text, computer players as
    ``cpu-1`` … ``cpu-7`` in seat order, so a log or snapshot can be read without the seats.
    """
    seats: list[Seat] = []
    computers = 0
    for number, new in enumerate(new_seats):
        if new.kind is SeatKind.HUMAN:
            if new.user_id is None:
                raise ValueError("a human seat needs the player's user id")
            player_id = str(new.user_id)
        else:
            computers += 1
            player_id = f"cpu-{computers}"
        user_id = new.user_id if new.kind is SeatKind.HUMAN else None
        level = new.level if new.kind is SeatKind.COMPUTER else None
        seats.append(Seat(number, player_id, new.kind, user_id, new.display_name, level))
    if len({s.player_id for s in seats}) != len(seats):
        raise ValueError("a person can take only one seat at a table")
    return tuple(seats)


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the turn ``turn`` of ``player`` runs out."""

    turn: int
    player: str
    at: datetime
    reminded: bool = False
    """The half-time reminder went out."""
