"""What every part of the repository shares: the connection of the open unit of work, the
dialect it speaks, and the few helpers its queries use.

The repository is one class (:class:`~bot.storage.sql_repository.SqlRepository`) assembled from
one part per subject (lobbies, games, the league, messages, personal data), each part
holding its own SQL, written once for both back ends. They all run on the connection of a
transaction opened by the store's ``unit()``, so one action, the rounds it ended and the
league update of a finished game commit together or not at all. Every query is a fixed
text: the only values that vary are bound parameters.

The connection is aiosqlite's, or on PostgreSQL :class:`~bot.storage.pg_connection.PgConnection`,
which offers the same small API (``?`` and ``:name`` placeholders, rows by name and by
index). The few fragments that cannot be written once stand side by side in
:class:`Dialect`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot.storage.errors import GameChanged
from bot.storage.models import from_db_time

Params = Sequence[Any] | Mapping[str, Any]


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...
    async def close(self) -> None: ...


class Connection(Protocol):
    """The part of aiosqlite's connection the repository uses (and PostgreSQL's adapter
    offers)."""

    def execute(self, sql: str, parameters: Params | None = None, /) -> Awaitable[Cursor]: ...
    async def execute_fetchall(
        self, sql: str, parameters: Params | None = None, /
    ) -> Iterable[Any]: ...
    async def executemany(self, sql: str, parameters: Iterable[Params], /) -> Any: ...


def dump_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def required_time(value: str | datetime) -> datetime:
    moment = from_db_time(value)
    assert moment is not None
    return moment


def _sqlite_clash(error: Exception) -> bool:
    return isinstance(error, sqlite3.IntegrityError) and "games.channel_id" in str(error)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the two back ends cannot say the same way."""

    name: str
    ids: str
    """A subquery of the ids in one JSON-array parameter (``IN (…)`` of a list)."""
    live_game_clash: Callable[[Exception], bool]
    """Whether a failed write broke the one-live-game-per-channel index."""
    league_lock: str | None
    """A statement (one parameter: the server) that serializes the server's league writes
    until the transaction ends; None where every write transaction is serialized anyway
    (SQLite's ``BEGIN IMMEDIATE``)."""
    clock: str
    """The database's own clock as Unix seconds (an expression): one clock for every process
    of the bot, whatever their machines' clocks say."""


SQLITE = Dialect(
    name="sqlite",
    ids="SELECT value FROM json_each(?)",
    live_game_clash=_sqlite_clash,
    league_lock=None,
    clock="((julianday('now') - 2440587.5) * 86400.0)",
)


class Rows:
    """The base of every part: the connection, inside the caller's transaction."""

    __slots__ = ("_conn", "_dialect")

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        # The connection knows its back end: PostgreSQL's adapter names its dialect.
        self._dialect: Dialect = getattr(conn, "dialect", SQLITE)

    async def _update_one(
        self, sql: str, params: tuple[Any, ...], game_id: int, expected: str
    ) -> None:
        """Run a conditional write that must change exactly one row, else the game is no
        longer ``expected`` (:class:`GameChanged`)."""
        cursor = await self._conn.execute(sql, params)
        updated = cursor.rowcount
        await cursor.close()
        if updated != 1:
            raise GameChanged(game_id, expected)
