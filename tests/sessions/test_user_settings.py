"""A person's own settings: kept across a restart, and gone when they ask to be forgotten."""

from __future__ import annotations

from pathlib import Path

from bot.sessions import SessionManager
from tests.sessions.conftest import ANN, BOB


async def test_notify_when_away_is_kept_per_person_and_forgotten(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    try:
        assert await manager.notified_when_away() == set()
        await manager.set_notify_when_away(ANN, True)
        await manager.set_notify_when_away(BOB, True)
        await manager.set_notify_when_away(BOB, True)
        await manager.set_notify_when_away(BOB, False)
    finally:
        await manager.close()
    again = await SessionManager.open(db_path)
    try:
        assert await again.notified_when_away() == {ANN}
        await again.forget_user(ANN)
        assert await again.notified_when_away() == set()
    finally:
        await again.close()
