"""The Bot: it receives its resources from the launcher and loads the cogs in setup_hook.

Keeping resource creation in the launcher (database, sessions) and out of the Bot means
tests can hand a bot a session manager of their own, and the Bot never outlives them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord.ext import commands

from bot.sessions import SessionManager
from cogs import EXTENSIONS

log = logging.getLogger(__name__)


class RummyBot(commands.Bot):
    def __init__(
        self,
        sessions: SessionManager,
        *,
        dev_guild_id: int | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        guild_ready_timeout: float = 2.0,
    ) -> None:
        # Slash commands and buttons need no privileged intents.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.sessions = sessions
        self.dev_guild_id = dev_guild_id
        self.extension_names = tuple(extensions)

    async def setup_hook(self) -> None:
        for name in self.extension_names:
            await self.load_extension(name)
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s; %d games live", self.user, len(self.sessions.sessions))
