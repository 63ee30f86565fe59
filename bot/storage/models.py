"""The typed values the repositories return; nothing outside bot/storage sees a row."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

DELETED_NAME = "deleted player"


class GameStatus(StrEnum):
    LOBBY = "lobby"
    """Seats are being taken; nothing is dealt yet."""
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    """Stopped after the deal: kept in the history, never counted in the league."""
    CANCELLED = "cancelled"
    """A lobby called off before the deal: in no history at all."""

    @property
    def is_live(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game: who plays where, under which rules, and its latest snapshot (None
    before the deal)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int | None
    ruleset: dict[str, Any]
    seed: int
    status: GameStatus
    created_at: datetime
    finished_at: datetime | None
    season: int | None
    action_count: int
    seats: tuple[Seat, ...]
    snapshot: str | None
    turn_timer: int = 0
    """Minutes a turn may take; 0 for no timer."""
    deadline: Deadline | None = None
    """The running turn's deadline, when the timer runs."""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player_id for s in self.seats)

    @property
    def has_computer(self) -> bool:
        return any(s.kind is SeatKind.COMPUTER for s in self.seats)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One line of a finished game's final standings."""

    seat: int
    score: int
    place: int
    """1 is best; tied scores share a place and the next place is skipped (1, 1, 3)."""
    rounds_won: int


@dataclass(frozen=True, slots=True)
class HistorySeat:
    seat: int
    kind: SeatKind
    user_id: int | None
    display_name: str
    place: int | None
    score: int | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished or abandoned game as history lists show it (abandoned: no places)."""

    id: int
    guild_id: int
    channel_id: int
    ruleset_name: str
    status: GameStatus
    created_at: datetime
    finished_at: datetime | None
    season: int | None
    seats: tuple[HistorySeat, ...]


@dataclass(frozen=True, slots=True)
class Season:
    guild_id: int
    number: int
    started_at: datetime


@dataclass(frozen=True, slots=True)
class LeagueEntry:
    """A player's figures in one season of one server, and their position in its table."""

    guild_id: int
    season: int
    user_id: int
    display_name: str
    rank: int
    games: int
    wins: int
    rounds_won: int
    points_for: int
    points_against: int
    place_sum: int
    rated_games: int
    mu: float
    sigma: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else math.nan

    @property
    def rating(self) -> float:
        """The conservative skill estimate shown to people (mu - 3 sigma, 0 for a newcomer)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class StandingsPage:
    season: int | None
    """None when the server has no season yet (no game has finished there)."""
    page: int
    """1-based, clamped into 1 … total_pages."""
    page_size: int
    total_pages: int
    total_players: int
    rows: tuple[LeagueEntry, ...]


def to_db_time(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("times must carry a time zone")
    return moment.astimezone(UTC).isoformat()


def from_db_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A Discord message that shows part of a game (the table, the lobby, the turn notice,
    or one player's hand in their DMs), so a restarted bot edits it rather than posting anew.
    """

    kind: str
    """``lobby``, ``table``, ``ping`` or ``hand``."""
    player: str
    """The engine's player id for a hand; empty otherwise."""
    channel_id: int
    message_id: int
