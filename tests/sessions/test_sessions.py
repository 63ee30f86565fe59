"""Sessions apply one action at a time per game, commit before anyone sees it, and keep one
game's trouble to itself."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.rummy import (
    Action,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    NotYourTurn,
    PlayerError,
    action_from_json,
    action_to_json,
)
from bot.rummy.players import random_action
from bot.sessions import (
    ChannelBusy,
    Committed,
    EventKind,
    LobbyError,
    NotAllowed,
    NotSeated,
    Session,
    SessionClosed,
    SessionManager,
    SessionStatus,
    StaleAction,
)
from bot.storage import GameStatus, StorageFailure
from bot.storage.sql_repository import SqlRepository
from tests.sessions.conftest import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    engine_game,
    play,
    reloaded,
    start_game,
    store_of,
)
from tests.waiting import eventually

WAIT = 10  # seconds: anything that takes this long has deadlocked


async def stored_log(manager: SessionManager, game_id: int) -> list[Action]:
    async with store_of(manager).transaction() as conn:
        return [action_from_json(a) for a in await SqlRepository(conn).game_actions(game_id)]


def views_of(session: Session) -> dict[str | None, object]:
    players: list[str | None] = [s.player_id for s in session.seats]
    return {p: session.view(p) for p in [*players, None]}


async def drain(manager: SessionManager, *closed: Session) -> None:
    """Wait until the listeners have heard every event of the manager's sessions (and of
    the ``closed`` ones it no longer holds)."""
    sessions = {*manager.sessions.values(), *closed}
    await asyncio.wait_for(asyncio.gather(*(s.told() for s in sessions)), WAIT)


async def test_a_saved_game_loads_equal_to_the_original(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    await play(session, 40, random.Random(1))
    original = engine_game(session).copy()
    seats = session.seats
    game_id = session.game_id
    await manager.close()

    async with reloaded(db_path) as (again, loaded):
        assert loaded is again.by_game(game_id)
        assert engine_game(loaded) == original
        assert loaded.seats == seats
        assert loaded.status is SessionStatus.ACTIVE
        replayed = Game.replay(
            original.ruleset, original.players, original.seed, await stored_log(again, game_id)
        )
        assert replayed == original


async def test_a_refused_action_writes_nothing(manager: SessionManager) -> None:
    session = await start_game(manager)
    card = session.view(str(ANN)).hand[0]
    with pytest.raises(IllegalAction):
        await session.apply(str(ANN), Discard(card))  # must draw first
    with pytest.raises(NotYourTurn):
        await session.apply(str(BOB), DrawStock())
    with pytest.raises(NotSeated):
        await session.apply("999", DrawStock())
    assert await stored_log(manager, session.game_id) == []
    await session.apply(str(ANN), DrawStock())
    assert await stored_log(manager, session.game_id) == [DrawStock()]


async def test_every_refusal_is_a_player_error(manager: SessionManager) -> None:
    for error in (ChannelBusy, NotAllowed, NotSeated, StaleAction, SessionClosed, LobbyError):
        assert issubclass(error, PlayerError)


async def test_two_actions_at_once_apply_one_after_the_other(manager: SessionManager) -> None:
    session = await start_game(manager)
    heard: list[int] = []

    async def listener(event: Committed) -> None:
        if event.kind is EventKind.ACTION:
            heard.append(event.seq)

    manager.add_listener(listener)
    ann = str(ANN)
    card = session.view(ann).hand[0]
    # The discard is legal only after the draw: it succeeds only if it sees the draw's result.
    await asyncio.gather(session.apply(ann, DrawStock()), session.apply(ann, Discard(card)))
    assert await stored_log(manager, session.game_id) == [DrawStock(), Discard(card)]
    await drain(manager)
    assert heard == [1, 2]

    bob = str(BOB)
    results = await asyncio.gather(
        session.apply(bob, DrawStock()), session.apply(bob, DrawStock()), return_exceptions=True
    )
    assert isinstance(results[0], Committed)
    assert isinstance(results[1], IllegalAction)  # the second draw saw the first one


async def test_stale_turns_are_refused_under_concurrency(manager: SessionManager) -> None:
    session = await start_game(manager)
    ann = str(ANN)
    await session.apply(ann, DrawStock(), turn=session.turn)
    turn = session.turn
    first, second = session.view(ann).hand[:2]
    # Two discard buttons built for the same turn, clicked at once: one acts, one is stale.
    results = await asyncio.gather(
        session.apply(ann, Discard(first), turn=turn),
        session.apply(ann, Discard(second), turn=turn),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Committed) for r in results) == 1
    assert sum(isinstance(r, StaleAction) for r in results) == 1
    assert session.turn == turn + 1
    assert len(await stored_log(manager, session.game_id)) == 2
    with pytest.raises(StaleAction):
        await session.apply(str(BOB), DrawStock(), turn=turn)
    event = await session.apply(str(BOB), DrawStock(), turn=turn + 1)
    assert event.turn == turn + 1


async def test_committed_carries_frozen_views_of_its_own_commit(manager: SessionManager) -> None:
    session = await start_game(manager)
    ann, bob = str(ANN), str(BOB)
    dealt = len(session.view(ann).hand)
    drawn = await session.apply(ann, DrawStock())
    assert set(drawn.views) == {ann, bob, None}
    assert drawn.views[ann] == session.view(ann)
    assert drawn.views[None].hand == ()
    assert drawn.view("someone else") == drawn.views[None]
    hand_then = drawn.views[ann].hand
    assert len(hand_then) == dealt + 1
    discarded = await session.apply(ann, Discard(hand_then[0]))
    # The earlier event still shows the table as it was at its own commit.
    assert drawn.views[ann].hand == hand_then
    assert len(discarded.views[ann].hand) == dealt
    assert (drawn.seq, discarded.seq) == (1, 2)
    assert discarded.turn == drawn.turn + 1 == session.turn
    assert discarded.kind is EventKind.ACTION
    assert discarded.actor == ann
    assert discarded.seats == session.seats


async def test_games_in_different_channels_do_not_wait_for_each_other(
    manager: SessionManager,
) -> None:
    first = await start_game(manager, channel=1)
    second = await start_game(manager, channel=2)
    async with first._lock:  # an operation of the first game is in progress
        waiting = asyncio.create_task(first.apply(str(ANN), DrawStock()))
        event = await asyncio.wait_for(second.apply(str(ANN), DrawStock()), timeout=WAIT)
        assert event.seq == 1
        assert not waiting.done()
    assert (await waiting).seq == 1


async def test_a_listener_may_apply_without_a_deadlock(manager: SessionManager) -> None:
    """The computer-player shape: a listener answers one person's move with the next one."""
    session = await start_game(manager)
    ann, bob = str(ANN), str(BOB)
    answered = asyncio.Event()

    async def bob_plays_after_ann(event: Committed) -> None:
        view = event.views.get(bob)
        if event.kind is EventKind.ACTION and view is not None and view.current == bob:
            await session.apply(bob, DrawStock(), turn=event.turn)
            answered.set()

    manager.add_listener(bob_plays_after_ann)
    await session.apply(ann, DrawStock())
    card = session.view(ann).hand[0]
    await session.apply(ann, Discard(card))
    await asyncio.wait_for(answered.wait(), timeout=WAIT)
    assert await stored_log(manager, session.game_id) == [DrawStock(), Discard(card), DrawStock()]


async def test_a_timer_task_may_apply_without_a_deadlock(manager: SessionManager) -> None:
    """The turn-timer shape: a background task of the session acts for a slow player,
    while that player's own click arrives at the same moment."""
    session = await start_game(manager)
    ann = str(ANN)

    async def timer() -> Committed:
        await asyncio.sleep(0)
        return await session.apply(ann, DrawStock(), turn=session.turn)

    task = session.start_task(timer(), name="turn-timer")
    click = session.apply(ann, DrawStock(), turn=session.turn)
    results = await asyncio.wait_for(
        asyncio.gather(task, click, return_exceptions=True), timeout=WAIT
    )
    assert sum(isinstance(r, Committed) for r in results) == 1
    assert sum(isinstance(r, IllegalAction) for r in results) == 1  # already drawn
    assert await stored_log(manager, session.game_id) == [DrawStock()]


async def test_a_listener_may_cancel_and_open_a_lobby(manager: SessionManager) -> None:
    session = await start_game(manager)
    reopened: list[Session] = []

    async def listener(event: Committed) -> None:
        if event.kind is EventKind.ACTION:
            await session.cancel(ANN, moderator=False)
        elif event.kind is EventKind.CANCELLED:
            reopened.append(
                await manager.create_lobby(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    host_id=BOB,
                    host_name="Bob",
                    ruleset=session.ruleset,
                )
            )

    manager.add_listener(listener)
    await session.apply(str(ANN), DrawStock())
    for _ in range(WAIT * 100):
        if reopened:
            break
        await asyncio.sleep(0.01)
    assert session.closed
    assert manager.get(CHANNEL) is reopened[0]
    assert reopened[0].status is SessionStatus.LOBBY


async def test_apply_answers_while_a_slow_listener_runs(manager: SessionManager) -> None:
    session = await start_game(manager)
    ann = str(ANN)
    heard: list[int] = []

    edited = asyncio.Event()  # a Discord message edit on a bad day, until the test says

    async def slow(event: Committed) -> None:
        if event.kind is EventKind.ACTION:
            await edited.wait()
            heard.append(event.seq)

    await drain(manager)  # the deal has been told
    manager.add_listener(slow)
    # Two commits answered while the listener is still held: apply never waits for it.
    await asyncio.wait_for(session.apply(ann, DrawStock()), WAIT)
    await asyncio.wait_for(session.apply(ann, Discard(session.view(ann).hand[0])), WAIT)
    assert heard == []
    # Shutting down gives the listener its time: both commits are told, in order.
    closing = asyncio.create_task(manager.close())
    await eventually(lambda: session.closed)  # the edit ends while the manager shuts down
    edited.set()
    await asyncio.wait_for(closing, WAIT)
    assert heard == [1, 2]
    assert session.notifier.done()


async def test_listeners_run_after_the_commit_and_their_failure_stays_theirs(
    manager: SessionManager, caplog: pytest.LogCaptureFixture
) -> None:
    session = await start_game(manager)
    seen: list[int] = []

    async def broken(event: Committed) -> None:
        raise RuntimeError("the table message could not be edited")

    async def reads_the_database(event: Committed) -> None:
        if event.kind is EventKind.ACTION:
            seen.append(len(await stored_log(manager, event.game_id)))

    manager.add_listener(broken)
    manager.add_listener(reads_the_database)
    with caplog.at_level(logging.ERROR, logger="bot.sessions"):
        event = await session.apply(str(ANN), DrawStock())
        await drain(manager)
    assert event.seq == 1
    assert seen == [1]
    assert "listener" in caplog.text
    await session.apply(str(ANN), Discard(session.view(str(ANN)).hand[0]))
    await drain(manager)
    assert seen == [1, 2]


@pytest.mark.sqlite_only  # the failing disk is played by a SQLite trigger
async def test_a_failed_commit_changes_nothing_anyone_can_see(manager: SessionManager) -> None:
    """A real fault inside SQLite (a trigger that aborts the insert of the action)."""
    session = await start_game(manager, channel=1)
    other = await start_game(manager, channel=2)
    ann = str(ANN)
    await session.apply(ann, DrawStock())
    before = views_of(session)
    legal_before = session.legal_actions(ann)
    turn = session.turn
    heard: list[Committed] = []

    async def listener(event: Committed) -> None:
        heard.append(event)

    await drain(manager)
    manager.add_listener(listener)
    async with store_of(manager).transaction() as conn:
        await conn.execute(
            "CREATE TRIGGER no_more_actions BEFORE INSERT ON actions"
            f" WHEN NEW.game_id = {session.game_id}"
            " BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
        )
    card = session.view(ann).hand[0]
    with pytest.raises(StorageFailure, match="disk trouble") as caught:
        await session.apply(ann, Discard(card), turn=turn)

    assert isinstance(caught.value.__cause__, sqlite3.IntegrityError)
    assert views_of(session) == before
    assert session.legal_actions(ann) == legal_before
    assert session.turn == turn
    async with store_of(manager).transaction() as conn:
        record = await SqlRepository(conn).load_game(session.game_id)
        assert record is not None
        assert record.action_count == 1
        assert await SqlRepository(conn).game_actions(session.game_id) == [
            action_to_json(DrawStock())
        ]
        await conn.execute("DROP TRIGGER no_more_actions")
    await other.apply(ann, DrawStock())  # the other game never noticed
    await drain(manager)
    assert [e.game_id for e in heard] == [other.game_id]

    event = await session.apply(ann, Discard(card), turn=turn)
    assert event.seq == 2
    assert await stored_log(manager, session.game_id) == [DrawStock(), Discard(card)]


async def test_an_engine_crash_stays_in_its_session(
    manager: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await start_game(manager, channel=1)
    other = await start_game(manager, channel=2)
    before = views_of(session)
    real = Game.apply

    def crash_once(self: Game, action: Action, player: str | None = None) -> None:
        monkeypatch.setattr(Game, "apply", real)
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(Game, "apply", crash_once)
    with pytest.raises(ZeroDivisionError):
        await session.apply(str(ANN), DrawStock())
    assert views_of(session) == before
    await other.apply(str(ANN), DrawStock())
    await session.apply(str(ANN), DrawStock())
    assert await stored_log(manager, session.game_id) == [DrawStock()]
    assert await stored_log(manager, other.game_id) == [DrawStock()]


async def test_a_game_changed_elsewhere_is_reloaded_and_refused(manager: SessionManager) -> None:
    session = await start_game(manager, channel=1)
    ann = str(ANN)
    # Another writer (a second process) records the draw first.
    async with store_of(manager).transaction() as conn:
        record = await SqlRepository(conn).load_game(session.game_id)
        assert record is not None
        game = engine_game(session).copy()
        game.apply(DrawStock())
        await SqlRepository(conn).append_action(
            session.game_id,
            1,
            game.log_json[-1],
            game.to_json(include_log=False),
            record.created_at,
        )
    with pytest.raises(StaleAction):
        await session.apply(ann, DrawStock())
    assert session.view(ann) == game.view(ann)  # memory took the stored state
    await session.apply(ann, Discard(session.view(ann).hand[0]))

    # ... and then abandons it: the session closes and frees its channel.
    async with store_of(manager).transaction() as conn:
        await SqlRepository(conn).abandon_game(session.game_id, record.created_at)
    with pytest.raises(SessionClosed):
        await session.apply(str(BOB), DrawStock())
    assert session.closed
    assert manager.get(1) is None


async def test_a_finished_game_is_recorded_and_leaves_the_channel(
    manager: SessionManager,
) -> None:
    session = await start_game(manager, target=1)
    finished: list[Committed] = []

    async def listener(event: Committed) -> None:
        if event.status is SessionStatus.FINISHED:
            finished.append(event)

    manager.add_listener(listener)
    await play(session, 2000, random.Random(3))
    assert session.closed
    assert manager.get(CHANNEL) is None
    assert manager.by_game(session.game_id) is None
    await drain(manager, session)
    game = engine_game(session)
    assert len(finished) == 1
    assert finished[0].kind is EventKind.ACTION
    assert finished[0].rounds == tuple(game.rounds[-1:])
    assert session.legal_actions(str(ANN)) == []
    with pytest.raises(SessionClosed):
        await session.apply(str(ANN), DrawStock())
    async with store_of(manager).transaction() as conn:
        record = await SqlRepository(conn).load_game(session.game_id)
        history = await SqlRepository(conn).recent_games(GUILD)
        card = await SqlRepository(conn).player_card(GUILD, ANN)
        log = await SqlRepository(conn).game_actions(session.game_id)
    assert record is not None
    assert record.status is GameStatus.FINISHED
    assert record.season == 1
    assert record.snapshot is not None
    assert Game.from_json(record.snapshot, log_json=log) == game
    assert [g.id for g in history] == [session.game_id]
    places = {s.user_id: s.place for s in history[0].seats}
    assert card is not None
    assert card.games == 1
    assert card.wins == (places[ANN] == 1)
    assert card.rated_games == 1


async def test_cancel_needs_permission_and_frees_the_channel(manager: SessionManager) -> None:
    session = await start_game(manager)
    await session.apply(str(ANN), DrawStock())
    with pytest.raises(NotAllowed):
        await session.cancel(BOB, moderator=False)
    event = await session.cancel(ANN, moderator=False)
    assert (event.kind, event.status) == (EventKind.CANCELLED, SessionStatus.ABANDONED)
    assert session.status is SessionStatus.ABANDONED
    assert manager.get(CHANNEL) is None
    async with store_of(manager).transaction() as conn:
        record = await SqlRepository(conn).load_game(session.game_id)
        standings = await SqlRepository(conn).standings(GUILD)
    assert record is not None
    assert record.status is GameStatus.ABANDONED
    assert standings.season is None  # an abandoned game does not even open a season
    again = await start_game(manager)
    await again.cancel(CHANNEL, moderator=True)  # anyone a moderator


async def test_one_game_per_channel(manager: SessionManager) -> None:
    await start_game(manager)
    with pytest.raises(ChannelBusy):
        await start_game(manager)


async def test_a_broken_snapshot_is_rebuilt_from_the_log(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    await play(session, 25, random.Random(5))
    original = engine_game(session).copy()
    async with store_of(manager).transaction() as conn:
        await conn.execute("UPDATE games SET snapshot = '{broken' WHERE id = ?", (session.game_id,))
    await manager.close()

    again = await SessionManager.open(db_path)
    try:
        await again.load_active()
        loaded = again.get(CHANNEL)
        assert loaded is not None
        assert engine_game(loaded) == original
    finally:
        await again.close()


async def test_background_tasks_are_logged_and_end_with_the_game(
    manager: SessionManager, caplog: pytest.LogCaptureFixture
) -> None:
    session = await start_game(manager)

    async def fails() -> None:
        raise RuntimeError("timer broke")

    with caplog.at_level(logging.WARNING, logger="bot.sessions"):
        failing = session.start_task(fails())
        await asyncio.gather(failing, return_exceptions=True)
        await asyncio.sleep(0)
    (record,) = caplog.records
    assert "timer broke" in record.getMessage()
    assert "picking up" in record.getMessage()
    assert record.exc_info is not None  # not a storage fault: a bug, with its traceback
    sleeper = session.start_task(asyncio.sleep(3600))
    await session.cancel(ANN, moderator=False)
    with pytest.raises(asyncio.CancelledError):
        await sleeper


async def test_many_random_games_through_sessions(manager: SessionManager) -> None:
    """Random legal play across several tables at once: every commit matches the log."""
    sessions = [await start_game(manager, channel=10 + i, seed=i) for i in range(4)]
    rng = random.Random(9)

    async def run(session: Session) -> None:
        for _ in range(60):
            if session.closed:
                return
            game = engine_game(session)
            player = game.current_player
            assert player is not None
            await session.apply(player, random_action(game, rng), turn=session.turn)

    await asyncio.gather(*(run(s) for s in sessions))
    for session in sessions:
        assert await stored_log(manager, session.game_id) == list(engine_game(session).log)


async def test_close_does_not_wait_forever_for_a_stuck_listener(
    db_path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.sessions.manager.SHUTDOWN_GRACE", 0.2)
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    stuck = asyncio.Event()

    async def never_returns(event: Committed) -> None:
        stuck.set()
        await asyncio.Event().wait()

    manager.add_listener(never_returns)
    await session.apply(str(ANN), DrawStock())
    await asyncio.wait_for(stuck.wait(), timeout=WAIT)
    await asyncio.wait_for(manager.close(), timeout=WAIT)  # a hang fails here
    assert session.notifier.cancelled()
    assert session.closed
