"""Small things where features meet: what a table, a DM or an answer says once two of them
have acted on the same game."""

from __future__ import annotations

import logging

from bot.sessions import Brains
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def _table_text(table: Table) -> str:
    shown = table.table_message()
    return "" if shown is None else shown.content


async def test_during_a_stand_in_turn_the_table_names_the_computer_not_the_person(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", brains=Brains(delay=60)) as table:
        await deal(table)
        session = table.session()
        current = session.view(None).current
        assert current is not None
        user = next(u for u in table.players if str(u.id) == current)
        await session.miss_turn(current, limit=1, stand_in="normal")
        await eventually(lambda: f"Turn: 🤖 {user.name}" in _table_text(table))
        assert f"<@{user.id}>" not in _table_text(table)
