"""PostgreSQL behind the small part of aiosqlite's connection API the repository uses, so
every statement of the repository is written once for both back ends.

- Placeholders: ``?`` becomes ``%s`` and ``:name`` becomes ``%(name)s`` (a literal ``%``
  becomes ``%%``); each text is converted once and cached (the texts are fixed).
- Rows answer by column name and by index, like ``sqlite3.Row``, and unpack like tuples.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg.rows import RowMaker

from bot.storage.rows import Dialect, Params


def _pg_clash(error: Exception) -> bool:
    return (
        isinstance(error, pg_errors.UniqueViolation)
        and error.diag.constraint_name == "games_live_per_channel"
    )


POOL_WAIT = 5.0
"""Seconds a unit of work waits for a connection before it fails (and the move is refused):
while the server is down, a move is told so within this time, not after the pool's 30 s.
Also how long a pool (the store's, the shard leases') keeps trying to reconnect one slot
before it gives the slot up; the next unit (or lease round) then opens a connection at once,
so play resumes as soon as the server is back (rather than after a reconnection backoff
that had doubled to half a minute meanwhile)."""

POSTGRES = Dialect(
    name="postgresql",
    ids="SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(? AS JSON))",
    live_game_clash=_pg_clash,
    # One lock per server, in a key space of the league's own (a hash of its name and id).
    league_lock="SELECT pg_advisory_xact_lock(hashtextextended('rummy.league', ?))",
    clock="CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)",
)


@functools.lru_cache(maxsize=1024)
def pg_sql(sql: str) -> str:
    """``sql`` with SQLite's placeholders in psycopg's style; quoted text and ``::`` casts are
    left as they are."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch == "'":
            end = sql.index("'", i + 1)
            while end + 1 < n and sql[end + 1] == "'":  # '' inside a literal
                end = sql.index("'", end + 2)
            out.append(sql[i : end + 1].replace("%", "%%"))
            i = end + 1
        elif ch == "?":
            out.append("%s")
            i += 1
        elif ch == "%":
            out.append("%%")
            i += 1
        elif ch == ":" and i + 1 < n and sql[i + 1] == ":":
            out.append("::")
            i += 2
        elif ch == ":" and i + 1 < n and (sql[i + 1].isalpha() or sql[i + 1] == "_"):
            j = i + 1
            while j < n and (sql[j].isalnum() or sql[j] == "_"):
                j += 1
            out.append(f"%({sql[i + 1 : j]})s")
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class Row(tuple[Any, ...]):
    """One result row: ``row["name"]`` or ``row[0]``."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@functools.lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


def row_factory(cursor: psycopg.AsyncCursor[Any]) -> RowMaker[Row]:
    """psycopg's row factory for :class:`Row` (one class per column list, cached)."""
    names = tuple(column.name for column in cursor.description or ())
    cls = _row_class(names)
    return cls


def _params(parameters: Params | None) -> Sequence[Any] | dict[str, Any]:
    # Never None: psycopg reads ``%%`` as ``%`` only when parameters are given.
    if parameters is None:
        return ()
    if isinstance(parameters, dict):
        return parameters
    if isinstance(parameters, Sequence):
        return tuple(parameters)
    return dict(parameters)


class PgConnection:
    """One pooled connection inside the unit's transaction, spoken to like aiosqlite's."""

    __slots__ = ("raw",)
    dialect = POSTGRES

    def __init__(self, raw: psycopg.AsyncConnection[Any]) -> None:
        self.raw = raw

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    async def execute(
        self, sql: str, parameters: Params | None = None, /
    ) -> psycopg.AsyncCursor[Row]:
        cursor = self.raw.cursor(row_factory=row_factory)
        await cursor.execute(pg_sql(sql), _params(parameters))
        return cursor

    async def execute_fetchall(self, sql: str, parameters: Params | None = None, /) -> list[Row]:
        async with self.raw.cursor(row_factory=row_factory) as cursor:
            await cursor.execute(pg_sql(sql), _params(parameters))
            return await cursor.fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Params], /) -> None:
        batch = [_params(p) for p in parameters]
        if not batch:
            return
        async with self.raw.cursor() as cursor:
            await cursor.executemany(pg_sql(sql), batch)
