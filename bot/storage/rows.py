"""What every part of the SQLite repository shares: the connection of the open unit of
work, and the few helpers its queries use.

The repository is one class (:class:`~bot.storage.sqlite.SqliteRepository`) assembled from
one part per subject (lobbies, games, the league, messages, personal data), each part
holding its own SQL. They all run on the connection of a transaction opened by
:meth:`bot.storage.database.Database.unit`, so one action, the rounds it ended and the
league update of a finished game commit together or not at all. Every query is a fixed
text: the only values that vary are bound parameters.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import aiosqlite

from bot.storage.errors import GameChanged
from bot.storage.models import from_db_time


def dump_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def required_time(text: str) -> datetime:
    moment = from_db_time(text)
    assert moment is not None
    return moment


class Rows:
    """The base of every part: the connection, inside the caller's transaction."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

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
