"""The storage seam: what the sessions and the league ask of a database, as an interface.

Callers open a unit of work (``async with store.unit() as repo``) and call the repository's
methods; everything in one unit commits together or not at all. No caller ever holds a
connection or sees a driver's exception: failures the application reacts to are
:class:`~bot.storage.errors.DuplicateLiveGame` and :class:`~bot.storage.errors.GameChanged`.
A PostgreSQL backend is another implementation of :class:`Store` and :class:`Repository`;
the SQLite one is :class:`~bot.storage.sqlite.SqliteRepository`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol

from bot.league import SeatResult
from bot.rummy.views import RoundResult
from bot.seats import Deadline, Seat
from bot.storage.models import (
    ForgetReport,
    GameRecord,
    GameStatus,
    GameSummary,
    LeagueEntry,
    MessageRef,
    Season,
    StandingsPage,
)


class Repository(Protocol):
    """Every read and write of games, lobbies, the league and personal data."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int | None,
        ruleset: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        snapshot: str | None,
        at: datetime,
        status: GameStatus = GameStatus.ACTIVE,
        turn_timer: int = 0,
    ) -> GameRecord: ...
    async def update_lobby(
        self, game_id: int, host_id: int | None, seats: Sequence[Seat]
    ) -> None: ...
    async def start_game(self, game_id: int, seed: int, snapshot: str) -> None: ...
    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], snapshot: str, at: datetime
    ) -> None: ...
    async def record_round(
        self, game_id: int, result: RoundResult, players: Sequence[str]
    ) -> None: ...
    async def finish_game(
        self, game_id: int, results: Sequence[SeatResult], at: datetime
    ) -> int: ...
    async def abandon_game(self, game_id: int, at: datetime) -> GameStatus: ...
    async def load_game(self, game_id: int) -> GameRecord | None: ...
    async def live_games(self, guild_ids: Collection[int] | None = None) -> list[GameRecord]: ...
    async def live_game_in_channel(self, channel_id: int) -> GameRecord | None: ...
    async def game_logs(self, game_ids: Collection[int]) -> dict[int, list[dict[str, Any]]]: ...
    async def recent_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]: ...
    async def current_season(self, guild_id: int) -> Season | None: ...
    async def start_season(self, guild_id: int, at: datetime) -> Season: ...
    async def standings(
        self, guild_id: int, page: int = 1, page_size: int = 10, season: int | None = None
    ) -> StandingsPage: ...
    async def player_card(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> LeagueEntry | None: ...
    async def save_message(
        self, game_id: int, kind: str, player: str, channel_id: int, message_id: int
    ) -> None: ...
    async def forget_message(self, game_id: int, kind: str, player: str) -> None: ...
    async def set_deadline(self, game_id: int, deadline: Deadline | None) -> None: ...
    async def set_stand_in(
        self, game_id: int, player_id: str, missed: int, stand_in: str | None
    ) -> None: ...
    async def game_messages(self, game_ids: Collection[int]) -> dict[int, list[MessageRef]]: ...
    async def forget_user(self, user_id: int, at: datetime) -> ForgetReport: ...
    async def forget_guild(self, guild_id: int) -> int: ...
    async def note_departure(self, guild_id: int, at: datetime) -> None: ...
    async def cancel_departure(self, guild_id: int) -> bool: ...
    async def departures(self) -> dict[int, datetime]: ...


class Store(Protocol):
    """A database: units of work, and the clean-up a deletion needs."""

    def unit(self) -> AbstractAsyncContextManager[Repository]: ...
    async def purge(self) -> None: ...
    async def close(self) -> None: ...
