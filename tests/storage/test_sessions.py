"""Sessions apply one action at a time per game, commit before telling anyone, and keep
one game's trouble to itself."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from bot.rummy import (
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    NotYourTurn,
    Ruleset,
    action_from_json,
)
from bot.sessions import ChannelBusy, Committed, NotAllowed, SessionClosed, SessionManager
from bot.storage import GameStatus, games, league
from tests.storage.conftest import ANN, BOB, CHANNEL, GUILD, play, start_game


async def stored_log(manager: SessionManager, game_id: int) -> list[object]:
    async with manager.db.transaction() as conn:
        return [action_from_json(a) for a in await games.game_actions(conn, game_id)]


async def test_a_saved_game_loads_equal_to_the_original(db_path: Path) -> None:
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    await play(session, 40, random.Random(1))
    original = Game.from_json(session.game.to_json())
    record = session.record
    await manager.close()

    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 1
        loaded = again.get(CHANNEL)
        assert loaded is not None
        assert loaded.game == original
        assert loaded.record.seats == record.seats
        replayed = Game.replay(
            Ruleset.from_json(record.ruleset),
            record.players,
            record.seed,
            await stored_log(again, record.id),  # type: ignore[arg-type]
        )
        assert replayed == original
    finally:
        await again.close()


async def test_a_refused_action_writes_nothing(manager: SessionManager) -> None:
    session = await start_game(manager)
    card = session.game.hand(str(ANN))[0]
    with pytest.raises(IllegalAction):
        await session.apply(str(ANN), Discard(card))  # must draw first
    with pytest.raises(NotYourTurn):
        await session.apply(str(BOB), DrawStock())
    assert await stored_log(manager, session.game_id) == []
    await session.apply(str(ANN), DrawStock())
    assert await stored_log(manager, session.game_id) == [DrawStock()]


async def test_two_actions_at_once_apply_one_after_the_other(manager: SessionManager) -> None:
    session = await start_game(manager)
    heard: list[int] = []

    async def listener(event: Committed) -> None:
        heard.append(event.seq)

    manager.add_listener(listener)
    ann = str(ANN)
    card = session.game.hand(ann)[0]
    # The discard is legal only after the draw: it succeeds only if it sees the draw's result.
    await asyncio.gather(session.apply(ann, DrawStock()), session.apply(ann, Discard(card)))
    assert await stored_log(manager, session.game_id) == [DrawStock(), Discard(card)]
    assert heard == [1, 2]

    bob = str(BOB)
    results = await asyncio.gather(
        session.apply(bob, DrawStock()), session.apply(bob, DrawStock()), return_exceptions=True
    )
    assert isinstance(results[0], Committed)
    assert isinstance(results[1], IllegalAction)  # the second draw saw the first one


async def test_games_in_different_channels_do_not_wait_for_each_other(
    manager: SessionManager,
) -> None:
    first = await start_game(manager, channel=1)
    second = await start_game(manager, channel=2)
    async with first.lock:
        waiting = asyncio.create_task(first.apply(str(ANN), DrawStock()))
        event = await asyncio.wait_for(second.apply(str(ANN), DrawStock()), timeout=5)
        assert event.seq == 1
        assert not waiting.done()
    assert (await waiting).seq == 1


async def test_listeners_run_after_the_commit_and_their_failure_stays_theirs(
    manager: SessionManager, caplog: pytest.LogCaptureFixture
) -> None:
    session = await start_game(manager)
    seen: list[int] = []

    async def broken(event: Committed) -> None:
        raise RuntimeError("the table message could not be edited")

    async def reads_the_database(event: Committed) -> None:
        seen.append(len(await stored_log(manager, event.session.game_id)))

    manager.add_listener(broken)
    manager.add_listener(reads_the_database)
    with caplog.at_level(logging.ERROR, logger="bot.sessions"):
        event = await session.apply(str(ANN), DrawStock())
    assert event.seq == 1
    assert seen == [1]
    assert "listener" in caplog.text
    assert await stored_log(manager, session.game_id) == [DrawStock()]


async def test_a_failed_commit_leaves_memory_as_the_database(
    manager: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await start_game(manager, channel=1)
    other = await start_game(manager, channel=2)
    real = games.append_action

    async def fails_once(*args: object, **kwargs: object) -> None:
        monkeypatch.setattr(games, "append_action", real)
        raise OSError("disk full")

    monkeypatch.setattr(games, "append_action", fails_once)
    with pytest.raises(OSError, match="disk full"):
        await session.apply(str(ANN), DrawStock())
    await other.apply(str(ANN), DrawStock())
    # The draw was never committed, so it may be made again: memory followed the database.
    await session.apply(str(ANN), DrawStock())
    assert await stored_log(manager, session.game_id) == [DrawStock()]


async def test_an_engine_crash_stays_in_its_session(
    manager: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await start_game(manager, channel=1)
    other = await start_game(manager, channel=2)

    def crash(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(session.game, "apply", crash)
    with pytest.raises(ZeroDivisionError):
        await session.apply(str(ANN), DrawStock())
    await other.apply(str(ANN), DrawStock())
    await session.apply(str(ANN), DrawStock())  # reloaded from the database
    assert await stored_log(manager, session.game_id) == [DrawStock()]
    assert await stored_log(manager, other.game_id) == [DrawStock()]


async def test_a_finished_game_is_recorded_and_leaves_the_channel(
    manager: SessionManager,
) -> None:
    session = await start_game(manager, target=1)
    finished: list[Committed] = []

    async def listener(event: Committed) -> None:
        if event.status is GameStatus.FINISHED:
            finished.append(event)

    manager.add_listener(listener)
    await play(session, 2000, random.Random(3))
    assert session.closed
    assert manager.get(CHANNEL) is None
    assert len(finished) == 1
    assert finished[0].rounds == tuple(session.game.rounds[-1:])
    with pytest.raises(SessionClosed):
        await session.apply(str(ANN), DrawStock())
    async with manager.db.transaction() as conn:
        record = await games.load_game(conn, session.game_id)
        history = await games.recent_games(conn, GUILD)
        card = await league.player_card(conn, GUILD, ANN)
        stored_log = await games.game_actions(conn, session.game_id)
    assert record is not None
    assert record.status is GameStatus.FINISHED
    assert record.season == 1
    assert Game.from_json(record.snapshot, log_json=stored_log) == session.game
    assert [g.id for g in history] == [session.game_id]
    places = {s.user_id: s.place for s in history[0].seats}
    assert card is not None
    assert card.games == 1
    assert card.wins == (places[ANN] == 1)
    assert card.rated_games == 1


async def test_abandon_needs_permission_and_frees_the_channel(manager: SessionManager) -> None:
    session = await start_game(manager)
    await session.apply(str(ANN), DrawStock())
    with pytest.raises(NotAllowed):
        await manager.abandon(CHANNEL, allowed=False)
    event = await manager.abandon(CHANNEL, allowed=True)
    assert event.status is GameStatus.ABANDONED
    assert manager.get(CHANNEL) is None
    async with manager.db.transaction() as conn:
        record = await games.load_game(conn, session.game_id)
        standings = await league.standings(conn, GUILD)
    assert record is not None
    assert record.status is GameStatus.ABANDONED
    assert standings.season is None  # an abandoned game does not even open a season
    await start_game(manager)


async def test_one_game_per_channel(manager: SessionManager) -> None:
    await start_game(manager)
    with pytest.raises(ChannelBusy):
        await start_game(manager)


async def test_a_broken_snapshot_is_rebuilt_from_the_log(db_path: Path) -> None:
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    await play(session, 25, random.Random(5))
    original = Game.from_json(session.game.to_json())
    async with manager.db.transaction() as conn:
        await conn.execute("UPDATE games SET snapshot = '{broken' WHERE id = ?", (session.game_id,))
    await manager.close()

    again = await SessionManager.open(db_path)
    try:
        await again.load_active()
        loaded = again.get(CHANNEL)
        assert loaded is not None
        assert loaded.game == original
    finally:
        await again.close()


async def test_background_tasks_are_logged_and_end_with_the_game(
    manager: SessionManager, caplog: pytest.LogCaptureFixture
) -> None:
    session = await start_game(manager)

    async def fails() -> None:
        raise RuntimeError("timer broke")

    with caplog.at_level(logging.ERROR, logger="bot.sessions"):
        failing = session.start_task(fails())
        await asyncio.gather(failing, return_exceptions=True)
        await asyncio.sleep(0)
    assert "timer broke" in caplog.text
    sleeper = session.start_task(asyncio.sleep(3600))
    await manager.abandon(CHANNEL, allowed=True)
    with pytest.raises(asyncio.CancelledError):
        await sleeper
