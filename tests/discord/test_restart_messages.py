"""After a restart the bot edits the messages it showed before (table, hands, turn notice)
instead of posting new ones: their ids are stored with the game."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.sessions import SessionManager
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord, Message, User
from tests.discord.helpers import (
    Table,
    cog_problems,
    dm_exists,
    eventually,
    hand_of,
    start_bot,
)

__all__ = ["cog_problems"]


def _tables(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.channel)
        if any(a.filename == "table.png" for a in m.attachments)
    ]


def _hand_size(table: Table, user: User) -> int:
    dm = table.hand_dm(user)
    return -1 if dm is None else len(hand_of(dm.content))


async def test_after_a_restart_the_same_table_and_hand_messages_are_edited(
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
    bot = await start_bot(fake, bot_factory, sessions, guild)
    table = Table(fake, bot, sessions, guild, channel, [ann, bob])
    await table.answer(ann, "rummy new", variant="classic")
    await table.text(bob, "rummy join")
    await table.text(ann, "rummy start")
    await eventually(lambda: table.table_message() is not None)
    await eventually(dm_exists(table, ann))
    await eventually(dm_exists(table, bob))
    view = table.session().view(None)
    mover, other = (ann, bob) if view.current == str(ann.id) else (bob, ann)
    dealt = len(table.session().view(view.current).hand)
    await eventually(lambda: _hand_size(table, mover) == dealt)
    assert "drew" in await table.text(mover, "draw", source="stock")
    await eventually(lambda: _hand_size(table, mover) == dealt + 1)
    await eventually(lambda: "drew" in getattr(table.table_message(), "content", ""))
    before_table = table.table_message()
    mover_dm, other_dm = table.hand_dm(mover), table.hand_dm(other)
    assert before_table is not None
    assert mover_dm is not None
    assert other_dm is not None
    tables, table_edits = len(_tables(table)), before_table.edits
    mover_dms, mover_edits = len(fake.dms(mover)), mover_dm.edits
    await bot.close()
    await sessions.close()

    sessions = await SessionManager.open(path)
    try:
        assert await sessions.load_active() == 1
        bot = await start_bot(fake, bot_factory, sessions, guild)
        table = Table(fake, bot, sessions, guild, channel, [ann, bob])
        choices = await fake.autocomplete(mover, channel, "discard", focused="card", card="")
        assert "discarded" in await table.text(mover, "discard", card=choices[0]["value"])
        await eventually(lambda: "discarded" in before_table.content)
        # The same table message was edited; no new one was posted.
        assert before_table.edits > table_edits
        assert len(_tables(table)) == tables
        assert table.table_message() is before_table
        # The mover's hand DM was edited in place, not sent again.
        await eventually(lambda: _hand_size(table, mover) == dealt)
        assert table.hand_dm(mover) is mover_dm
        assert mover_dm.edits > mover_edits
        assert len(fake.dms(mover)) == mover_dms
        # The next player is told with a fresh DM, and the old one does not stay behind.
        await eventually(lambda: table.hand_dm(other) is not other_dm)
        assert other_dm.deleted
        await bot.close()
    finally:
        await sessions.close()


async def test_unloading_the_extensions_removes_their_session_listeners(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path
) -> None:
    guild = fake.add_guild("Cards")
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3")
    try:
        bot = await start_bot(fake, bot_factory, sessions, guild)
        loaded = list(sessions._listeners)
        assert loaded
        for name in list(bot.extensions):
            await bot.unload_extension(name)
        assert sessions._listeners == []
        await bot.close()
    finally:
        await sessions.close()
