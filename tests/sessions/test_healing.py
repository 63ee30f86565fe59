"""Supervision: a fault in the background work of a game never freezes it.

Each test runs the real manager on a real SQLite file and injects one fault of the
environment: a write the database refuses (once, or for three seconds) at the storage seam,
an answer lost after a commit, or a worker process of the hard players' pool killed. Each
time the game moves on by itself, and the log says once what happened and what comes next.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.rummy.computer import safe_action
from bot.sessions import Brains, Committed, EventKind, Session, SessionManager, SessionStatus
from bot.storage import Database, PostgresStore, StorageFailure, open_store
from bot.values.seats import NewSeat
from tests.sessions.conftest import ANN, engine_game, start_game, two_humans
from tests.sessions.faults import FaultyStore
from tests.waiting import PATIENCE, eventually


@asynccontextmanager
async def faulty_manager(
    db_path: Path | str, brains: Brains
) -> AsyncIterator[tuple[SessionManager, FaultyStore]]:
    inner = await open_store(db_path)
    assert isinstance(inner, (Database, PostgresStore))
    store = FaultyStore(inner)
    manager = SessionManager(store, brains)
    try:
        yield manager, store
    finally:
        await manager.close()


async def _table(manager: SessionManager, level: str) -> Session:
    ann = two_humans()[0]
    return await start_game(manager, seats=[ann, NewSeat.computer("Computer 1", level)], seed=7)


async def _play_my_turn(session: Session) -> None:
    me = str(ANN)
    while session.status is SessionStatus.ACTIVE and session.view(None).current == me:
        await session.apply(me, safe_action(session.view(me), session.legal_actions(me)))


def _mine_or_over(session: Session) -> Callable[[], bool]:
    def check() -> bool:
        return session.status is not SessionStatus.ACTIVE or session.view(None).current == str(ANN)

    return check


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_computer_move_refused_once_is_played_again(
    db_path: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.sessions")
    async with faulty_manager(db_path, Brains(delay=0.05)) as (manager, store):
        session = await _table(manager, "easy")
        await _play_my_turn(session)
        seq = session.seq
        store.refuse_times = 1
        await eventually(_mine_or_over(session))
        assert store.refused == 1
        assert session.seq >= seq + 2  # the computer drew and discarded after all
    (warning,) = _warnings(caplog)
    assert "game-1-cpu stopped (StorageFailure: " in warning.getMessage()
    assert "picking up in 0.5 s" in warning.getMessage()
    assert warning.exc_info is None  # a storage fault: one line, no traceback


async def test_a_computer_moves_once_the_database_answers_again(
    db_path: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.sessions")
    async with faulty_manager(db_path, Brains(delay=0.05)) as (manager, store):
        session = await _table(manager, "easy")
        await _play_my_turn(session)
        seq = session.seq
        store.refuse_until = time.monotonic() + 3600.0  # refused until the test says
        await eventually(lambda: store.refused >= 2)  # it tries again while refused
        assert session.seq == seq
        store.refuse_until = 0.0  # the database answers again
        await eventually(_mine_or_over(session))
        assert session.seq >= seq + 2
    (warning,) = _warnings(caplog)  # one warning for the fault, not one per try
    assert "stopped" in warning.getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert any("play goes on" in r.getMessage() for r in caplog.records)


async def test_a_commit_whose_answer_was_lost_is_read_back_and_told(db_path: Path | str) -> None:
    events: list[Committed] = []

    async def record(event: Committed) -> None:
        events.append(event)

    async with faulty_manager(db_path, Brains(delay=0.05)) as (manager, store):
        manager.add_listener(record)
        session = await _table(manager, "easy")
        await _play_my_turn(session)
        seq = session.seq
        store.lose_answers = 1  # the computer's draw is stored, its answer lost
        await eventually(_mine_or_over(session))
        assert store.lost == 1
        await eventually(lambda: bool(events) and events[-1].seq == session.seq)
    caught_up = [e for e in events if e.kind is EventKind.ACTION and e.actor is None]
    assert [e.seq for e in caught_up] == [seq + 1]  # the stored draw, told once read back
    seqs = [e.seq for e in events if e.kind is EventKind.ACTION]
    assert seqs == sorted(set(seqs))  # nothing told twice, nothing skipped
    assert seqs[-1] == session.seq


async def test_a_persons_move_whose_answer_was_lost_lets_the_computer_play_on(
    db_path: Path | str,
) -> None:
    async with faulty_manager(db_path, Brains(delay=0.05)) as (manager, store):
        session = await _table(manager, "easy")
        me = str(ANN)
        await session.apply(me, safe_action(session.view(me), session.legal_actions(me)))
        discard = safe_action(session.view(me), session.legal_actions(me))
        drawn = session.seq
        store.lose_answers = 1
        with pytest.raises(StorageFailure):
            await session.apply(me, discard)  # stored, but nobody knows it yet
        await eventually(lambda: session.seq > drawn + 1 and _mine_or_over(session)())
        assert engine_game(session).log[drawn] == discard  # the discard counted, once
        assert session.seq >= drawn + 3  # and the computer drew and discarded


async def test_a_timers_safe_move_refused_once_is_played_again(db_path: Path | str) -> None:
    events: list[Committed] = []

    async def record(event: Committed) -> None:
        events.append(event)

    async with faulty_manager(db_path, Brains(delay=0)) as (manager, store):
        manager.timing.minute = 0.3
        manager.add_listener(record)
        session = await start_game(manager, seed=3, turn_timer=1)
        first = session.view(None).current
        store.targets = frozenset({"append_action"})  # the timer's move, not its reminder
        store.refuse_times = 1
        await eventually(lambda: any(_passed_on(e, first) for e in events))
        assert store.refused == 1
        assert any(e.kind is EventKind.REMINDER for e in events)


def _passed_on(event: Committed, player: str | None) -> bool:
    """The timer played ``player``'s turn to its end: the next player's turn began."""
    view = event.view(None)
    return event.timed and event.actor == player and view is not None and view.current != player


def _pool_workers() -> list[int]:
    return [p.pid for p in multiprocessing.active_children() if p.pid is not None]


async def test_a_dead_worker_process_is_replaced_and_plans_the_move_again(
    db_path: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.sessions")
    brains = Brains(delay=0, hard_budget=0.2)
    async with faulty_manager(db_path, brains) as (manager, _):
        session = await _table(manager, "hard")
        await eventually(lambda: brains.warmed)
        (worker,) = _pool_workers()
        os.kill(worker, signal.SIGKILL)
        await _play_my_turn(session)
        await eventually(_mine_or_over(session))
        assert brains.hard_times  # planned by the pool, after the kill
        assert worker not in _pool_workers()
        # Now a worker dies while it plans a move (the search takes its 0.2 s budget).
        (worker,) = _pool_workers()
        planned = len(brains.hard_times)
        await _play_my_turn(session)
        await asyncio.sleep(0.1)
        os.kill(worker, signal.SIGKILL)
        await eventually(_mine_or_over(session))
        # (Had the move been planned before the kill, the next one finds the pool broken.)
        await _play_my_turn(session)
        await eventually(_mine_or_over(session))
        assert len(brains.hard_times) >= planned + 2  # the new pool plans the moves again
    warnings = _warnings(caplog)
    assert len(warnings) == 2  # one per death
    assert all("worker process died" in w.getMessage() for w in warnings)
    assert not any("safe move" in r.getMessage() for r in caplog.records)


async def test_ctrl_c_is_left_to_the_bot_by_the_hard_players_workers() -> None:
    """Ctrl-C reaches the whole process group: a worker ignores it (the bot's own process
    stops the pool), rather than dying with a KeyboardInterrupt traceback."""
    brains = Brains(workers=1)
    try:
        brains.warm()
        await eventually(lambda: brains.warmed)
        (worker,) = _pool_workers()
        os.kill(worker, signal.SIGINT)
        answered = asyncio.wrap_future(brains._executor().submit(os.getpid))
        assert await asyncio.wait_for(answered, PATIENCE) == worker
        assert _pool_workers() == [worker]
    finally:
        await brains.close()
