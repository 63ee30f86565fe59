"""Everything the bot keeps in SQLite; the only package that writes SQL or names a driver.

Open a store with :func:`open_store` (it migrates the schema), then work inside
``async with store.unit() as repo``: the :class:`~bot.storage.repository.Repository`
methods of one unit commit together.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.database import Database
from bot.storage.errors import DuplicateLiveGame, GameChanged, StorageError, StorageFailure
from bot.storage.hygiene import ForgetReport
from bot.storage.migrations import MigrationError
from bot.storage.models import (
    DELETED_NAME,
    Deadline,
    GameRecord,
    GameStatus,
    GameSummary,
    HistorySeat,
    LeagueEntry,
    MessageRef,
    NewSeat,
    Season,
    Seat,
    SeatKind,
    SeatResult,
    StandingsPage,
    assign_seats,
    utc_now,
)
from bot.storage.repository import Repository, Store


async def open_store(path: Path | str) -> Store:
    """The bot's database at ``path``, created and migrated as needed."""
    return await Database.open(path)


__all__ = [
    "DELETED_NAME",
    "Database",
    "Deadline",
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
    "NewSeat",
    "Repository",
    "Season",
    "Seat",
    "SeatKind",
    "SeatResult",
    "StandingsPage",
    "StorageError",
    "StorageFailure",
    "Store",
    "assign_seats",
    "open_store",
    "utc_now",
]
