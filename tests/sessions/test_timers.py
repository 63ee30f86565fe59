"""Turn timers: a reminder at half time, a safe move when the time is up, the seat handed to
a computer player after three missed turns in a row and taken back with join; deadlines are
stored, so one that passed while the bot was down fires at start-up, and as the time left,
so a process whose clock is off keeps the turn's time."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.rummy.computer import safe_action
from bot.sessions import (
    Brains,
    Committed,
    EventKind,
    Seat,
    SeatHeld,
    Session,
    SessionManager,
    SessionStatus,
)
from bot.values.clock import set_offset, utc_now
from tests.sessions.conftest import ANN, BOB, CHANNEL, GUILD, run_out_while_down
from tests.waiting import eventually


async def _open(manager: SessionManager, *, computer: bool) -> Session:
    session = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic"),
        seed=3,
        turn_timer=1,
    )
    if computer:
        await session.add_computer(ANN, "easy", moderator=False)
    else:
        await session.join(BOB, "Bob")
    await session.start(ANN, moderator=False)
    return session


async def test_three_missed_turns_hand_the_seat_to_a_computer_until_the_person_is_back(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    manager.timing.minute = 0.3
    events: list[Committed] = []

    async def record(event: Committed) -> None:
        events.append(event)

    manager.add_listener(record)
    me = str(ANN)
    try:
        session = await _open(manager, computer=True)
        assert session.turn_timer == 1

        def seat() -> Seat:
            return next(s for s in session.seats if s.player_id == me)

        # Listeners hear of a commit after it is done: wait for the event, not the seat.
        await eventually(lambda: any(e.kind is EventKind.SEAT and e.actor == me for e in events))
        assert seat().stand_in == "normal"
        mine = [e for e in events if e.actor == me]
        handed = next(i for i, e in enumerate(mine) if e.kind is EventKind.SEAT)
        before = mine[:handed]  # the computer may already be playing the seat
        reminders = [e for e in before if e.kind is EventKind.REMINDER]
        timed = [e for e in before if e.kind is EventKind.ACTION and e.timed]
        assert len(reminders) == 3
        assert len(timed) >= 6  # a draw and a discard each time
        assert not any(e.kind is EventKind.ACTION and not e.timed for e in before)
        assert not any(e.timed for e in mine[handed:])
        # The computer plays the seat now; the person may not act for it meanwhile.
        seq = session.seq
        await eventually(lambda: session.seq >= seq + 4)
        assert session.deadline is None or session.view(None).current != me
        if session.view(None).current == me:
            legal = session.legal_actions(me)
            try:
                await session.apply(me, legal[0])
                raise AssertionError("a person acted for the computer holding their seat")
            except SeatHeld:
                pass
        manager.timing.minute = 10.0  # from now on time enough for the person's own move
        back = await session.join(ANN, "Ann")
        assert back.kind is EventKind.SEAT
        assert seat().stand_in is None
        assert seat().missed == 0
        # Their own turns are theirs again, with a timer.
        # (the deadline is stored just after the commit that makes it their turn)
        await eventually(lambda: session.view(None).current == me and session.deadline is not None)
        legal = session.legal_actions(me)
        await session.apply(me, safe_action(session.view(me), legal))
        assert seat().stand_in is None
    finally:
        await manager.close()
    again = await SessionManager.open(db_path)
    try:
        await again.load_active()
        loaded = again.get(CHANNEL)
        assert loaded is not None
        stored = next(s for s in loaded.seats if s.player_id == me)
        assert (stored.missed, stored.stand_in) == (0, None)
    finally:
        await again.close()


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_at_start_up(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await _open(manager, computer=False)  # a real minute: it runs on
        absent = session.view(None).current
        seq = session.seq
        deadline = session.deadline
        assert deadline is not None
    finally:
        await manager.close()
    assert session.seq == seq  # the turn was still on when the bot stopped
    await run_out_while_down(db_path, deadline)
    again = await SessionManager.open(db_path)  # timers of real minutes from now on
    try:
        assert await again.load_active() == 1
        loaded = again.get(CHANNEL)
        assert loaded is not None

        def seat() -> Seat:
            return next(s for s in loaded.seats if s.player_id == absent)

        await eventually(lambda: seat().missed == 1)
        assert loaded.seq >= seq + 2
        assert loaded.status is SessionStatus.ACTIVE
        assert loaded.view(None).current != absent
        # The next player's timer runs in real minutes.
        assert loaded.deadline is not None
        assert loaded.deadline > deadline
    finally:
        await again.close()


@pytest.mark.parametrize("offset", [600, -600])
async def test_a_process_whose_clock_is_off_gives_a_loaded_turn_the_time_it_had_left(
    db_path: Path | str, offset: int
) -> None:
    """The game is taken up by a process whose clock is ten minutes ahead (or behind) of
    the one that stored its deadline: the turn is neither played at once nor given ten
    minutes more, it keeps what it had left."""
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await _open(manager, computer=False)  # a real minute: it runs on
        seq = session.seq
        assert session.deadline is not None
        left = session.deadline - utc_now()
    finally:
        await manager.close()
    before = set_offset(timedelta(seconds=offset))
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 1
        loaded = again.get(CHANNEL)
        assert loaded is not None
        assert loaded.deadline is not None
        kept = loaded.deadline - utc_now()
        assert left - timedelta(seconds=30) < kept <= left
        assert loaded.seq == seq
    finally:
        await again.close()
        set_offset(before)
