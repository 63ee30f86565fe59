"""Everything the bot keeps in SQLite; the only package that writes SQL.

Open a :class:`Database` (it migrates the schema), then call the repository functions of
:mod:`~bot.storage.games`, :mod:`~bot.storage.league` and :mod:`~bot.storage.hygiene`
inside ``async with db.transaction() as conn``.
"""

from bot.storage.database import Database
from bot.storage.games import StorageError
from bot.storage.migrations import MigrationError
from bot.storage.models import (
    GameRecord,
    GameStatus,
    GameSummary,
    LeagueEntry,
    NewSeat,
    Seat,
    SeatKind,
    SeatResult,
    StandingsPage,
)

__all__ = [
    "Database",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "LeagueEntry",
    "MigrationError",
    "NewSeat",
    "Seat",
    "SeatKind",
    "SeatResult",
    "StandingsPage",
    "StorageError",
]
