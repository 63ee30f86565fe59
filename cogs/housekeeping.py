"""The extension that makes games follow their channel, their server and their members.

A game whose channel or thread is deleted, or whose server the bot left, ends with no
league effect and sends nothing more (:meth:`SessionManager.channel_gone`,
:meth:`~SessionManager.guild_gone`); a member banned from the server, or who left it (heard
only with ``MEMBERS_INTENT``), loses their seat to a computer player
(:meth:`~SessionManager.member_gone`). The decisions live in the session manager; this cog
only hears Discord.

While the bot was offline nobody told it: at every READY the games whose server or channel
is gone are ended the same way.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord.ext import commands

from bot.app import RummyBot
from bot.logs import describe
from cogs.display.notifier import Notifier

log = logging.getLogger(__name__)


class Housekeeping(commands.Cog):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._guild_gone(guild.id)

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
                await self._guild_gone(session.guild_id)
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
        game_id = await self.bot.sessions.channel_gone(channel_id)
        if game_id is not None:
            self._stop_showing(game_id)

    async def _guild_gone(self, guild_id: int) -> None:
        for game_id in await self.bot.sessions.guild_gone(guild_id):
            self._stop_showing(game_id)

    def _stop_showing(self, game_id: int) -> None:
        with contextlib.suppress(RuntimeError):  # no display loaded: nothing to stop
            self.bot.service(Notifier).abandon(game_id)


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(Housekeeping(bot))
