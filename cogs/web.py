"""The extension that serves the web table (:mod:`web`) when the operator switched it on
(``WEB_PORT`` and ``WEB_URL``); without them it serves nothing and ``/rummy web`` says how
to switch it on."""

from __future__ import annotations

import logging

from discord.ext import commands

from bot.app import RummyBot
from web.server import WebTable
from web.tokens import secret_of

log = logging.getLogger(__name__)


class WebServer(commands.Cog):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self.table: WebTable | None = None

    async def cog_load(self) -> None:
        settings = self.bot.web
        if settings is None:
            return
        table = WebTable(self.bot.sessions, settings, secret_of(settings))
        try:
            await table.start()
        except OSError as error:
            # The games go on in Discord; /rummy web says the web table is off.
            log.error(
                "the web table cannot listen on %s:%s (%s): check WEB_HOST and WEB_PORT",
                settings.host,
                settings.port,
                error.strerror or error,
            )
            return
        self.table = table
        self.bot.provide(WebTable, table)

    async def cog_unload(self) -> None:
        self.bot.withdraw(WebTable)
        if self.table is not None:
            await self.table.stop()
            self.table = None


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(WebServer(bot))
