"""Turn timers through Discord: a reminder ping at half time, turns played for an absent
person and announced, the seat handed to a computer player after three, and taken back
with /rummy join. A test-only pace makes a timer minute last a second."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from bot.sessions import Brains, SessionManager, SessionStatus
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Table, cog_problems, eventually, start_bot

__all__ = ["cog_problems"]


async def test_an_absent_player_is_replaced_after_three_turns_and_takes_the_seat_back(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann")
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3", brains=Brains(delay=0))
    sessions.timing.minute = 1.0
    try:
        bot = await start_bot(fake, bot_factory, sessions, guild)
        table = Table(fake, bot, sessions, guild, channel, [ann])
        opened = await table.answer(ann, "rummy new", variant="classic", timer=1)
        assert "Turn timer: 1 min" in opened.content
        await table.text(ann, "rummy addbot", level="easy")
        await table.text(ann, "rummy start")
        session = table.session()
        me = str(ann.id)

        def said(text: str) -> bool:
            return any(text in m.content for m in fake.messages(channel))

        await eventually(lambda: said("missed three turns in a row"), 20)
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
        await bot.close()
    finally:
        await sessions.close()


async def test_a_turn_that_ran_out_while_the_bot_was_down_is_played_at_start_up(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    path = tmp_path / "rummy.sqlite3"
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    sessions = await SessionManager.open(path)
    sessions.timing.minute = 1.0
    bot = await start_bot(fake, bot_factory, sessions, guild)
    table = Table(fake, bot, sessions, guild, channel, [ann, bob])
    await table.answer(ann, "rummy new", variant="classic", timer=1)
    await table.text(bob, "rummy join")
    await table.text(ann, "rummy start")
    await eventually(lambda: table.table_message() is not None)
    shown = table.table_message()
    assert shown is not None
    seq = table.session().seq
    await bot.close()
    await sessions.close()
    assert seq == 0
    await asyncio.sleep(1.1)  # the turn runs out while the bot is down

    sessions = await SessionManager.open(path)  # real minutes from now on
    try:
        assert await sessions.load_active() == 1
        bot = await start_bot(fake, bot_factory, sessions, guild)
        session = sessions.get(channel.id)
        assert session is not None
        await eventually(lambda: session.seq >= 2)
        # Announced on the same table message as before the restart.
        await eventually(lambda: "time ran out" in shown.content)
        assert table.table_message() is shown
        await bot.close()
    finally:
        await sessions.close()
