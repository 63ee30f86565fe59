"""Helpers for session tests: tables dealt through a manager on a real SQLite file (the
``db_path``, ``db`` and ``manager`` fixtures are shared with the storage tests, in
``tests/conftest.py``)."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from bot.rummy import Game, preset
from bot.rummy.players import random_action
from bot.sessions import Session, SessionManager
from bot.storage import Database, PostgresStore, open_store
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, SeatKind
from tests.conftest import AnyStore

GUILD = 1000
CHANNEL = 2000
ANN, BOB, CAT = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333


@contextlib.asynccontextmanager
async def reloaded(db_path: Path | str) -> AsyncIterator[tuple[SessionManager, Session]]:
    """A new manager on the file, as after a restart, and the game in ``CHANNEL`` that it
    must load as the only one still going."""
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 1
        loaded = again.get(CHANNEL)
        assert loaded is not None
        yield again, loaded
    finally:
        await again.close()


async def run_out_while_down(db_path: Path | str, deadline: datetime) -> None:
    """The stored turn deadline of the one game going on, ``deadline``, passes while no bot
    runs: it is moved a second into the past, as the clock would have moved it, however long
    the test took."""
    store = await open_store(db_path)
    try:
        async with store.unit() as repo:
            (record,) = await repo.live_games()
            assert record.deadline is not None
            # (Stored as the time it had left: read back a moment later, by this clock.)
            assert abs(record.deadline.at - deadline) < timedelta(seconds=30)
            passed = dataclasses.replace(record.deadline, at=utc_now() - timedelta(seconds=1))
            await repo.set_deadline(record.id, passed)
    finally:
        await store.close()


def two_humans() -> list[NewSeat]:
    return [NewSeat.human(ANN, "Ann"), NewSeat.human(BOB, "Bob")]


def store_of(manager: SessionManager) -> AnyStore:
    """The manager's database, for tests that look at what was stored."""
    store = manager._store
    assert isinstance(store, (Database, PostgresStore))
    return store


def engine_game(session: Session) -> Game:
    """The committed game behind a session, for tests that drive or compare it."""
    game = session.game
    assert game is not None
    return game


async def start_game(
    manager: SessionManager,
    channel: int = CHANNEL,
    seats: Sequence[NewSeat] | None = None,
    seed: int = 7,
    guild: int = GUILD,
    turn_timer: int = 0,
    open_seats: bool = False,
    **options: object,
) -> Session:
    """A dealt game: the first seat opens the lobby, the others join, the host deals."""
    seats = list(seats or two_humans())
    host = seats[0]
    assert host.user_id is not None
    session = await manager.create_lobby(
        guild_id=guild,
        channel_id=channel,
        host_id=host.user_id,
        host_name=host.display_name,
        ruleset=preset("classic", **options),
        seed=seed,
        turn_timer=turn_timer,
        open_seats=open_seats,
    )
    for seat in seats[1:]:
        if seat.kind is SeatKind.COMPUTER:
            await session.add_computer(host.user_id, seat.level or "normal", moderator=False)
        else:
            assert seat.user_id is not None
            await session.join(seat.user_id, seat.display_name)
    await session.start(host.user_id, moderator=False)
    return session


async def play(session: Session, actions: int, rng: random.Random) -> None:
    """Apply up to ``actions`` random legal actions through the session."""
    for _ in range(actions):
        if session.closed:
            return
        game = engine_game(session)
        player = game.current_player
        assert player is not None
        await session.apply(player, random_action(game, rng), turn=session.turn)
