"""After a restart the bot edits the messages it showed before (table, hands, turn notice)
instead of posting new ones: their ids are stored with the game."""

from __future__ import annotations

import logging

from tests.discord.fake import FakeDiscord, Message, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    deal,
    dm_exists,
    hand_of,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def _tables(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.here)
        if any(a.filename == "table.png" for a in m.attachments)
    ]


def _hand_size(table: Table, user: User) -> int:
    dm = table.hand_dm(user)
    return -1 if dm is None else len(hand_of(dm.content))


async def test_after_a_restart_the_same_table_and_hand_messages_are_edited(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        await deal(table)
        await eventually(dm_exists(table, ann))
        await eventually(dm_exists(table, bob))
        view = table.session().view(None)
        mover, other = (ann, bob) if view.current == str(ann.id) else (bob, ann)
        dealt = len(table.session().view(view.current).hand)
        await eventually(lambda: _hand_size(table, mover) == dealt)
        assert "drew" in await table.text(mover, "draw", source="stock")
        # The draw changes neither the table nor the DM: both are shown once the turn is over.
        before_table = table.table_message()
        mover_dm, other_dm = table.hand_dm(mover), table.hand_dm(other)
        assert before_table is not None
        assert mover_dm is not None
        assert other_dm is not None
        tables, table_edits = len(_tables(table)), before_table.edits
        mover_dms, mover_edits = len(fake.dms(mover)), mover_dm.edits

    async with bots.restart(table) as table:
        choices = await fake.autocomplete(mover, table.here, "discard", focused="card", card="")
        assert "discarded" in await table.text(mover, "discard", card=choices[0]["value"])
        await eventually(lambda: "discarded" in before_table.content)
        # The same table message was edited; no new one was posted.
        assert before_table.edits > table_edits
        assert len(_tables(table)) == tables
        assert table.table_message() is before_table
        # The mover's hand DM was tidied in place to its line, not sent again.
        await eventually(lambda: mover_dm.edits > mover_edits)
        assert mover_dm.content.count("\n") == 0
        assert _hand_size(table, mover) == dealt
        assert table.hand_dm(mover) is mover_dm
        assert len(fake.dms(mover)) == mover_dms
        # The next player is told with a fresh DM, and the old one does not stay behind.
        await eventually(lambda: table.hand_dm(other) is not other_dm)
        await eventually(lambda: other_dm.deleted)  # deleted just after the new one is sent


async def test_unloading_the_extensions_removes_their_session_listeners(bots: Bots) -> None:
    async with bots.table() as table:
        sessions, bot = table.sessions, table.bot
        loaded = list(sessions._listeners)
        assert loaded
        for name in list(bot.extensions):
            await bot.unload_extension(name)
        assert sessions._listeners == []
