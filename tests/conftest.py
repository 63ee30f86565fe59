"""discord.py imports the deprecated ``audioop`` module; load it once with that warning silenced,
so ``-W error`` still catches every warning of our own code.

The storage and the session tests share a real SQLite file in the test's own folder.
"""

import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.storage import Database

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "rummy.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def manager(db_path: Path) -> AsyncIterator[SessionManager]:
    sessions = await SessionManager.open(db_path)
    try:
        yield sessions
    finally:
        await sessions.close()
