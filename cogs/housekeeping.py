"""The extension that makes games follow their channel, their server and their members.

A game whose channel or thread is deleted, or whose server the bot left, ends with no
league effect and sends nothing more (:meth:`SessionManager.channel_gone`,
:meth:`~SessionManager.guild_gone`); a member banned from the server, or who left it (heard
only with ``MEMBERS_INTENT``), loses their seat to a computer player
(:meth:`~SessionManager.member_gone`). The decisions live in the session manager; this cog
only hears Discord.

While the bot was offline nobody told it: at every READY the games whose server or channel
is gone are ended the same way.

A server the bot was removed from has its data erased once ``bot.server_grace`` has passed
(the departure is stored, so a restart still does it); the bot added back before keeps it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.app import RummyBot
from bot.infrastructure.background import stop_tasks, wait_at_most
from bot.infrastructure.logs import describe
from cogs.display.notifier import Notifier

log = logging.getLogger(__name__)


ERASE_CHECK_SECONDS = 3600.0
"""How often, at most, the bot looks for servers whose grace period is over."""


class Housekeeping(commands.Cog):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self._eraser: asyncio.Task[None] | None = None
        self._departed = asyncio.Event()

    async def cog_load(self) -> None:
        self._eraser = asyncio.create_task(self._erase_loop(), name="erase-departed-servers")

    async def cog_unload(self) -> None:
        await stop_tasks(self._eraser)

    async def _erase_loop(self) -> None:
        """Erase the servers whose grace period is over, now and then (and soon after a
        departure, for a short grace)."""
        await self.bot.wait_until_ready()
        while True:
            grace = self.bot.server_grace
            try:
                present = [guild.id for guild in self.bot.guilds]
                await self.bot.sessions.erase_departed(grace, present)
            except Exception:
                log.exception("could not erase the servers the bot left; trying again later")
            pause = min(ERASE_CHECK_SECONDS, max(grace.total_seconds() / 4, 0.05))
            await wait_at_most(self._departed, pause)
            self._departed.clear()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.abc.Snowflake) -> None:
        # Its games stop showing before their end is stored: a worker still showing the
        # last move would otherwise reach the players after the game is gone.
        for session in list(self.bot.sessions.sessions.values()):
            if session.guild_id == guild.id:
                self._stop_showing(session.game_id)
        for game_id in await self.bot.sessions.guild_left(guild.id):
            self._stop_showing(game_id)
        self._departed.set()

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await self.bot.sessions.guild_back(guild.id):
            log.info("server %s: the bot is back; its data is kept", guild.id)

    @commands.Cog.listener()
    async def on_member_ban(
        self, guild: discord.Guild, user: discord.User | discord.Member
    ) -> None:
        await self.bot.sessions.member_gone(guild.id, user.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        await self.bot.sessions.member_gone(payload.guild_id, payload.user.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.sweep()

    async def sweep(self) -> None:
        """End the live games whose server the bot is no longer in, or whose channel no
        longer exists. A channel missing from the cache is asked of Discord (threads that
        are archived are not cached), and only a clear "Unknown Channel" ends its game."""
        for channel_id, session in self.bot.sessions.sessions.items():
            guild = self.bot.get_guild(session.guild_id)
            if guild is None:
                await self.on_guild_remove(discord.Object(session.guild_id))
                continue
            if guild.unavailable or guild.get_channel_or_thread(channel_id) is not None:
                continue
            try:
                await self.bot.fetch_channel(channel_id)
            except discord.NotFound:
                await self._channel_gone(channel_id)
            except discord.HTTPException as error:
                log.info("channel %s of game %s: %s", channel_id, session.game_id, describe(error))

    async def _channel_gone(self, channel_id: int) -> None:
        # Stopped first, as for a server (see on_guild_remove): the game living there and
        # those in threads started from it, which Discord deletes with it.
        for session in list(self.bot.sessions.sessions.values()):
            if channel_id in (session.channel_id, session.lobby_channel_id):
                self._stop_showing(session.game_id, channel_id)
        for game_id in await self.bot.sessions.channel_gone(channel_id):
            self._stop_showing(game_id, channel_id)

    def _stop_showing(self, game_id: int, gone_channel: int | None = None) -> None:
        with contextlib.suppress(RuntimeError):  # no display loaded: nothing to stop
            self.bot.service(Notifier).abandon(game_id, gone_channel)


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(Housekeeping(bot))
