"""The typed values the repositories return; nothing outside bot/storage sees a row.

Seats and deadlines are the application's values (:mod:`bot.values.seats`), and a finished game's
standings the league's (:mod:`bot.values.league`): storage records them, it does not define them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from bot.values.seats import Deadline, Seat, SeatKind

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
    lobby_channel_id: int | None = None
    """The text channel holding the lobby message when the game lives in a thread started
    from it (``channel_id`` is then the thread); None when it plays where its lobby is."""
    leavers: tuple[int, ...] = ()
    """The people who left this game while it ran (they may not sit down in it again)."""
    touched_at: datetime | None = None
    """A lobby's last join, leave or added computer (None: none since ``created_at``)."""
    rematch_id: int | None = None
    """The lobby Play again opened from this finished game, once it did."""
    open_seats: bool = False
    """Whether people not seated may take over the computer players the host added (a seat
    a computer plays for a person who left is takeable anyway)."""

    @property
    def last_activity(self) -> datetime:
        """When a lobby last saw someone come or go (its idle time counts from there)."""
        return self.touched_at or self.created_at

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player_id for s in self.seats)

    @property
    def has_computer(self) -> bool:
        return any(s.kind is SeatKind.COMPUTER for s in self.seats)


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
    forfeits: int = 0
    """Games left before their end (counted in ``games``, lost, placed last)."""

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


def from_db_time(value: str | datetime | None) -> datetime | None:
    """A stored time: ISO text from SQLite, a ``datetime`` already from PostgreSQL."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


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


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards a process holds, of ``count``: the live games of other shards' servers
    belong to other processes (an erasure leaves them to their holders)."""

    count: int
    ids: frozenset[int]


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What forgetting a person changed: the live games it ended, the seats it renamed
    and the league rows it dropped."""

    abandoned_games: tuple[int, ...]
    anonymized_seats: int
    league_rows: int
    elsewhere: tuple[tuple[int, int, GameStatus], ...] = ()
    """The live games with the person that were left to the processes holding their
    servers' shards: (game id, shard, status)."""

    @property
    def shards_elsewhere(self) -> frozenset[int]:
        """The shards whose holders still have to end the person's live games."""
        return frozenset(shard for _, shard, _ in self.elsewhere)
