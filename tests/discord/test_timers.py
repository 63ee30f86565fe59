"""Turn timers through Discord: a reminder ping at half time, turns played for an absent
person and announced, the seat handed to a computer player after three, and taken back
with /rummy join. A test-only pace makes a timer minute last a second."""

from __future__ import annotations

import logging

from bot.sessions import Brains, SessionStatus
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, bots, cog_problems, deal
from tests.sessions.conftest import run_out_while_down
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def test_an_absent_player_is_replaced_after_three_turns_and_takes_the_seat_back(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=0)) as table:
        table.sessions.timing.minute = 1.0
        (ann,) = table.players
        opened = await table.answer(ann, "rummy new", variant="classic", timer=1)
        assert "Turn timer: 1 min" in opened.content
        await table.text(ann, "rummy addbot", level="easy")
        await table.text(ann, "rummy start")
        session = table.session()
        channel = table.here
        me = str(ann.id)

        def said(text: str) -> bool:
            return any(text in m.content for m in fake.messages(channel))

        await eventually(lambda: said("missed three turns in a row"))
        assert any(
            m.pinged(ann) and "half of your turn" in m.content
            for m in fake.messages(channel, deleted=True)
        )
        tables = [
            m
            for m in fake.messages(channel)
            if any(a.filename == "table.png" for a in m.attachments)
        ]
        assert any("time ran out" in text for m in tables for text in [m.content, *m.versions])
        seat = next(x for x in session.seats if x.player_id == me)
        assert seat.stand_in == "normal"
        # Meanwhile the seat is the computer's: a move of the person is refused.
        refused = await table.text(ann, "draw", source="stock")
        assert "/rummy join" in refused
        assert "took your seat back" in await table.text(ann, "rummy join")
        await eventually(lambda: said("is back"))
        seat = next(x for x in session.seats if x.player_id == me)
        assert seat.stand_in is None
        assert session.status is SessionStatus.ACTIVE


async def test_a_turn_that_ran_out_while_the_bot_was_down_is_played_at_start_up(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:  # a real minute: the turn goes on
        await deal(table, timer=1)
        shown = table.table_message()
        assert shown is not None
        # The restarted bot edits the message this one noted; the note follows the send,
        # so stopping before it would leave the restarted bot to post a new one.
        session, shown_id = table.session(), shown.id
        await eventually(
            lambda: any(
                ref.kind == "table" and ref.message_id == shown_id
                for ref in table.sessions.services.messages.shown(session.game_id).values()
            )
        )
        seq, deadline = session.seq, session.deadline
    assert seq == 0
    assert deadline is not None
    await run_out_while_down(bots.path, deadline)

    async with bots.restart(table) as table:  # real minutes from now on
        session = table.session()
        await eventually(lambda: session.seq >= 2)
        # Announced on the same table message as before the restart.
        await eventually(lambda: "time ran out" in shown.content)
        assert table.table_message() is shown
