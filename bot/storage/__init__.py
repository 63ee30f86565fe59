"""Everything the bot keeps, in SQLite or PostgreSQL: the only package that writes SQL
or names a driver.

Open a store with :func:`open_store` (it migrates the schema), then work inside
``async with store.unit() as repo``: the :class:`~bot.storage.repository.Repository`
methods of one unit commit together.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.backup import copy_database
from bot.storage.database import Database
from bot.storage.errors import (
    DuplicateLiveGame,
    GameChanged,
    LeaseLost,
    StorageError,
    StorageFailure,
)
from bot.storage.migrations import MigrationError
from bot.storage.models import (
    DELETED_NAME,
    ForgetReport,
    GameRecord,
    GameStatus,
    GameSummary,
    HistorySeat,
    LeagueEntry,
    MessageRef,
    Season,
    ShardSet,
    StandingsPage,
)
from bot.storage.postgres import PostgresStore, is_postgres_url
from bot.storage.repository import Repository, Store


async def open_store(target: Path | str) -> Store:
    """The bot's database, created and migrated as needed: PostgreSQL for a
    ``postgresql://`` (or ``postgres://``) URL, else the SQLite file at that path."""
    if is_postgres_url(target):
        return await PostgresStore.open(str(target))
    return await Database.open(target)


__all__ = [
    "DELETED_NAME",
    "Database",
    "DuplicateLiveGame",
    "ForgetReport",
    "GameChanged",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "HistorySeat",
    "LeagueEntry",
    "LeaseLost",
    "MessageRef",
    "MigrationError",
    "PostgresStore",
    "Repository",
    "Season",
    "ShardSet",
    "StandingsPage",
    "StorageError",
    "StorageFailure",
    "Store",
    "copy_database",
    "open_store",
]
