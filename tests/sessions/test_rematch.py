"""Play again, the queue for the next game and lobbies that close themselves, at the session
layer on a real SQLite file: what is stored, what a second request finds, what a restart
finds."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.sessions import (
    ChannelBusy,
    Committed,
    EventKind,
    LobbyError,
    NotSeated,
    Session,
    SessionManager,
    SessionStatus,
)
from bot.sessions.rematch import rematch_seats
from bot.storage import GameChanged, GameRecord, GameStatus
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, SeatKind, assign_seats
from tests.sessions.conftest import ANN, BOB, CAT, CHANNEL, GUILD, play, start_game, store_of
from tests.waiting import eventually

DAN, EVE = 444_444_444_444_444_444, 555_555_555_555_555_555


async def finished(manager: SessionManager) -> Session:
    """A classic game of Ann and Bob to 1 point, with a 3-minute timer, played to its end
    by random legal moves."""
    session = await start_game(manager, turn_timer=3, target=1)
    rng = random.Random(5)
    while not session.closed:
        await play(session, 1, rng)
    assert session.status is SessionStatus.FINISHED
    return session


async def test_play_again_seats_the_same_table_once(manager: SessionManager) -> None:
    old = await finished(manager)
    with pytest.raises(NotSeated):
        await manager.play_again(old.game_id, CAT)
    busy = await manager.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=CAT, host_name="Cat", ruleset=preset("500")
    )
    with pytest.raises(ChannelBusy):
        await manager.play_again(old.game_id, BOB)
    await busy.cancel(CAT, moderator=False)

    new, plan = await manager.play_again(old.game_id, BOB)
    assert new.channel_id == CHANNEL
    assert new.status is SessionStatus.LOBBY
    assert new.host_id == BOB
    assert [(s.kind, s.user_id, s.display_name) for s in new.seats] == [
        (SeatKind.HUMAN, ANN, "Ann"),
        (SeatKind.HUMAN, BOB, "Bob"),
    ]
    assert new.ruleset == old.ruleset
    assert new.turn_timer == 3
    assert plan.from_queue == ()
    assert plan.left_out == ()
    # A second click, even once the new table is gone, opens nothing more.
    await new.cancel(BOB, moderator=False)
    with pytest.raises(LobbyError) as refused:
        await manager.play_again(old.game_id, ANN)
    assert refused.value.key == "refusal.again.done"
    stored = await manager.stored_game(old.game_id)
    assert stored is not None
    assert stored.rematch_id == new.game_id


async def test_the_queue_is_kept_and_seated_by_play_again(manager: SessionManager) -> None:
    session = await start_game(manager, target=1)
    assert await session.queue_next(CAT, "Cat")
    assert not await session.queue_next(CAT, "Cat")
    with pytest.raises(LobbyError):
        await session.queue_next(ANN, "Ann")  # seated already
    assert await session.leave_queue(CAT)
    assert not await session.leave_queue(CAT)
    for user, name in ((CAT, "Cat"), (DAN, "Dan"), (EVE, "Eve")):
        assert await session.queue_next(user, name)
    rng = random.Random(3)
    while not session.closed:
        await play(session, 1, rng)
    new, plan = await manager.play_again(session.game_id, ANN)
    # Classic seats four: Cat and Dan came first; Eve is told there was no seat.
    assert [s.user_id for s in new.seats] == [ANN, BOB, CAT, DAN]
    assert plan.from_queue == (CAT, DAN)
    assert plan.left_out == ("Eve",)


def test_rematch_seats_keep_computers_give_a_stand_in_seat_back_and_skip_erased_people() -> None:
    ann, bob, cpu, cat = assign_seats(
        [
            NewSeat.human(ANN, "Ann"),
            NewSeat.human(BOB, "Bob"),
            NewSeat.computer("Computer 1", "easy"),
            NewSeat.human(CAT, "Cat"),
        ]
    )
    seats = (
        ann,
        dataclasses.replace(bob, stand_in="normal", missed=3),
        cpu,
        dataclasses.replace(cat, user_id=None),
    )
    record = GameRecord(
        id=1,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        ruleset={},
        seed=1,
        status=GameStatus.FINISHED,
        created_at=utc_now(),
        finished_at=utc_now(),
        season=1,
        action_count=0,
        seats=seats,
        snapshot=None,
    )
    plan = rematch_seats(record, [(BOB, "Bob"), (DAN, "Dan"), (EVE, "Eve")], 4)
    assert [(s.kind, s.user_id, s.level) for s in plan.seats] == [
        (SeatKind.HUMAN, ANN, None),
        (SeatKind.HUMAN, BOB, None),
        (SeatKind.COMPUTER, None, "easy"),
        (SeatKind.HUMAN, DAN, None),
    ]
    assert plan.from_queue == (DAN,)
    assert plan.left_out == ("Eve",)


async def test_an_idle_lobby_closes_itself_and_activity_postpones_it(
    manager: SessionManager,
) -> None:
    heard: list[Committed] = []

    async def listener(event: Committed) -> None:
        heard.append(event)

    manager.add_listener(listener)
    manager.timing.minute = 60.0  # a real minute: nothing closes while the test looks
    manager.timing.lobby_idle = 1
    lobby = await manager.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANN, host_name="Ann", ruleset=preset("classic")
    )
    opened = lobby.idle_since
    assert opened is not None
    await lobby.join(BOB, "Bob")  # the idle time starts again
    joined = lobby.idle_since
    assert joined is not None
    assert joined > opened
    assert not lobby.closed
    # With a short minute, the lobby closes a minute after its last activity.
    manager.timing.minute = 0.3
    await lobby.leave(BOB)
    # Listeners hear an event a moment after its commit, when the lobby may be closed already.
    await eventually(lambda: any(e.kind is EventKind.CANCELLED for e in heard))
    assert manager.get(CHANNEL) is None  # closed and gone
    closing = heard[-1]
    assert closing.kind is EventKind.CANCELLED
    assert closing.expired_after == 1
    stored = await manager.stored_game(lobby.game_id)
    assert stored is not None
    assert stored.status is GameStatus.CANCELLED


async def test_a_lobby_that_went_idle_while_the_bot_was_away_closes_at_start(
    db_path: Path | str, manager: SessionManager
) -> None:
    lobby = await manager.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANN, host_name="Ann", ruleset=preset("classic")
    )
    await lobby.join(BOB, "Bob")
    async with store_of(manager).unit() as repo:
        await repo.touch_lobby(lobby.game_id, utc_now() - timedelta(minutes=31))
    await manager.close()
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 1
        await eventually(lambda: again.get(CHANNEL) is None)
        stored = await again.stored_game(lobby.game_id)
        assert stored is not None
        assert stored.status is GameStatus.CANCELLED
    finally:
        await again.close()


async def test_the_queue_and_the_rematch_claim_in_storage(manager: SessionManager) -> None:
    session = await start_game(manager)
    assert await session.queue_next(CAT, "Cat")
    async with store_of(manager).unit() as repo:
        with pytest.raises(GameChanged):  # not finished
            await repo.claim_rematch(session.game_id, 99)
    await manager.forget_user(CAT)
    async with store_of(manager).unit() as repo:
        assert await repo.queued(session.game_id) == []
