"""Computer players take their turns by themselves, off the event loop, and pick up again
after a restart; a game with one counts in the league but moves no rating."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import NoReturn

from bot.rummy import preset
from bot.rummy.computer import safe_action
from bot.sessions import Brains, Session, SessionManager, SessionStatus
from tests.sessions.conftest import ANN, CHANNEL, GUILD
from tests.waiting import eventually


def _mine_or_over(session: Session) -> bool:
    if session.status is not SessionStatus.ACTIVE:
        return True
    return session.view(None).current == str(ANN)


async def _table(manager: SessionManager, levels: list[str], target: int = 30) -> Session:
    session = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic", target=target),
        seed=7,
    )
    for level in levels:
        await session.add_computer(ANN, level, moderator=False)
    await session.start(ANN, moderator=False)
    return session


async def _play_my_turn(session: Session) -> None:
    me = str(ANN)
    while session.status is SessionStatus.ACTIVE and session.view(None).current == me:
        legal = session.legal_actions(me)
        await session.apply(me, safe_action(session.view(me), legal))


async def test_three_computers_and_a_person_play_to_the_end(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await _table(manager, ["easy", "normal", "normal"])
        computer_moves = 0
        while session.status is SessionStatus.ACTIVE:
            before = session.seq
            await eventually(lambda: _mine_or_over(session))
            computer_moves += session.seq - before
            await _play_my_turn(session)
        assert session.status is SessionStatus.FINISHED
        assert computer_moves > 0
        card = await manager.services.league.player_card(GUILD, ANN)
        assert card is not None
        assert card.games == 1
        assert card.rated_games == 0  # beating programs moves no rating
        history = await manager.services.league.history(GUILD, ANN)
        assert [g.id for g in history] == [session.game_id]
    finally:
        await manager.close()


async def test_a_hard_players_pool_starts_with_the_game_not_on_its_first_move(
    db_path: Path | str,
) -> None:
    brains = Brains(delay=3600, hard_budget=0.2)  # the computer never gets to move here
    manager = await SessionManager.open(db_path, brains=brains)
    try:
        await _table(manager, ["hard"])
        await eventually(lambda: brains.warmed)
        assert not brains.hard_times
    finally:
        await manager.close()


async def test_a_hard_player_thinks_in_the_pool_while_the_loop_runs_on(db_path: Path | str) -> None:
    """The pool's process is stopped while the hard player is to move: its move waits for
    that process, and the loop runs on meanwhile (a search on the loop would have moved,
    well within its budget, while the loop ticked)."""
    brains = Brains(delay=0, hard_budget=0.2)
    manager = await SessionManager.open(db_path, brains=brains)
    try:
        session = await _table(manager, ["hard"])
        await eventually(lambda: brains.warmed)
        workers = multiprocessing.active_children()
        assert workers
        for worker in workers:
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGSTOP)
        try:
            await _play_my_turn(session)
            seq = session.seq
            for _ in range(50):  # at least half a second of the loop's own time
                await asyncio.sleep(0.01)
            assert session.seq == seq
            assert not brains.hard_times
        finally:
            for worker in workers:
                assert worker.pid is not None
                os.kill(worker.pid, signal.SIGCONT)
        await eventually(lambda: _mine_or_over(session))
        assert session.seq > seq
        assert brains.hard_times
    finally:
        await manager.close()


async def test_a_computer_to_move_moves_after_a_restart(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=3600))
    try:
        session = await _table(manager, ["normal"])
        await _play_my_turn(session)
        assert session.view(None).current == "cpu-1"
        seq = session.seq
        await asyncio.sleep(0.05)
        assert session.seq == seq  # still thinking about it (a long pause)
    finally:
        await manager.close()
    again = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        assert await again.load_active() == 1
        loaded = again.get(CHANNEL)
        assert loaded is not None
        await eventually(lambda: _mine_or_over(loaded))
        assert loaded.seq > seq
    finally:
        await again.close()


class _BrokenPool(Brains):
    """A pool whose worker died: every choice fails."""

    async def choose(self, *args: object, **kwargs: object) -> NoReturn:
        raise BrokenProcessPool("the worker died")


async def test_a_computer_whose_thinking_fails_still_moves_safely(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=_BrokenPool(delay=0))
    try:
        session = await _table(manager, ["hard"])
        await _play_my_turn(session)
        seq = session.seq
        await eventually(lambda: _mine_or_over(session))
        assert session.seq >= seq + 2  # a draw and a discard, the timer's safe way
    finally:
        await manager.close()
