"""A bot that closes: its display stops before its connection to Discord does.

A game's listeners are told of a commit one after another, from a list taken when the
telling began; a commit told to the display after it was unloaded (the bot closing meanwhile)
must not start a worker, whose edit would meet the closed connection."""

from __future__ import annotations

import asyncio
import logging

from bot.sessions import Committed
from cogs.display.notifier import Notifier
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, bots, cog_problems, deal

__all__ = ["bots", "cog_problems"]


def _display_tasks() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("display-")]


async def test_a_commit_told_late_to_a_closed_display_shows_nothing(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    heard: list[Committed] = []

    async def hear(event: Committed) -> None:
        heard.append(event)

    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(hear)
        await deal(table)
        notifier = table.bot.service(Notifier)
        await table.session().told()
        assert heard
        await table.bot.close()
        assert _display_tasks() == []
        since = len(fake.requests)
        await notifier.on_commit(heard[-1])
        assert _display_tasks() == []
        await asyncio.sleep(0.2)
        assert fake.requests[since:] == []
