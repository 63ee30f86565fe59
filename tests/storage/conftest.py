"""Fixtures for storage and session tests: a real SQLite file in the test's own folder."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.rummy import Game, preset
from bot.rummy.players import random_action
from bot.sessions import Session, SessionManager
from bot.storage import Database, NewSeat

GUILD = 1000
CHANNEL = 2000
ANN, BOB, CAT = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333


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


def two_humans() -> list[NewSeat]:
    return [NewSeat.human(ANN, "Ann"), NewSeat.human(BOB, "Bob")]


async def start_game(
    manager: SessionManager,
    channel: int = CHANNEL,
    seats: list[NewSeat] | None = None,
    seed: int = 7,
    **options: object,
) -> Session:
    return await manager.start(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ANN,
        ruleset=preset("classic", **options),
        seats=seats or two_humans(),
        seed=seed,
    )


async def play(session: Session, actions: int, rng: random.Random) -> None:
    """Apply up to ``actions`` random legal actions through the session."""
    for _ in range(actions):
        if session.closed:
            return
        game: Game = session.game
        await session.apply(game.current_player, random_action(game, rng))
