"""Everything the bot keeps in SQLite; the only package that writes SQL or names a driver.

Open a store with :func:`open_store` (it migrates the schema), then work inside
``async with store.unit() as repo``: the :class:`~bot.storage.repository.Repository`
methods of one unit commit together.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.backup import copy_database
from bot.storage.database import Database
from bot.storage.errors import DuplicateLiveGame, GameChanged, StorageError, StorageFailure
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
    StandingsPage,
)
from bot.storage.repository import Repository, Store


async def open_store(path: Path | str) -> Store:
    """The bot's database at ``path``, created and migrated as needed."""
    return await Database.open(path)


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
    "MessageRef",
    "MigrationError",
    "Repository",
    "Season",
    "StandingsPage",
    "StorageError",
    "StorageFailure",
    "Store",
    "copy_database",
    "open_store",
]
