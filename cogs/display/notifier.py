"""The after-commit listener: it notes what each commit changed and wakes the game's worker,
so it runs after the commit and never delays an answer. The flows reach it (through the
bot's services) to share what an interaction showed itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
from discord.ext import commands

from bot import sessions as s
from bot.app import RummyBot
from bot.i18n import catalog_locale, t
from bot.infrastructure.background import stop_tasks, wait_at_most
from bot.rummy import Ruleset
from bot.sessions.messages import MessageKind
from cogs.display import changes
from cogs.display.channel import ChannelPosts, follow_thread
from cogs.display.game_messages import GameMessages, Hook
from cogs.display.hands import Hands
from cogs.display.keeping import MessageKeeper
from cogs.display.pacing import PACE, Pacer
from cogs.display.parts import TABLE, Part
from cogs.display.pings import Pings
from cogs.display.worker import Worker
from cogs.ui import present

log = logging.getLogger(__name__)


class Notifier(commands.Cog):
    """The after-commit listener and its per-game workers."""

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self.games: dict[int, GameMessages] = {}
        self.pace = Pacer(PACE, ownership=bot.sessions.ownership)
        """Every request of the workers that counts against Discord's global rate limit
        waits its turn here, so a burst of games is slowed, not answered with 429s; at this
        process's share of the bot's pace (its shards among all)."""
        self.pending_channels: set[int] = set()
        """Channels where a lobby is being created; its message is the command's answer."""
        self.gone: set[int] = set()
        """Games whose channel or server is gone: nothing more is shown of them."""
        self.keeper = MessageKeeper(bot.sessions, bot.services.messages)
        self.closing: set[asyncio.Task[None]] = set()
        """Last edits of games whose thread is gone (kept until done)."""
        self.quiet_users: set[int] = set()
        """People who chose to be notified of their turn only when away."""
        pings = Pings(self.pace, self.keeper)
        self.hands = Hands(
            bot, self.pace, self.keeper, pings, self.quiet_users, bot.services.personal_settings
        )
        self.worker = Worker(
            self._channel,
            ChannelPosts(
                bot, self.pace, self.keeper, self.pending_channels, web_on=bot.web is not None
            ),
            pings,
            self.hands,
            self.games,
        )

    @property
    def manager(self) -> s.SessionManager:
        return self.bot.sessions

    async def cog_load(self) -> None:
        self.quiet_users.update(await self.manager.notified_when_away())
        self.manager.add_listener(self.on_commit)
        self.bot.provide(Notifier, self)

    async def cog_unload(self) -> None:
        # The launcher unloads the extensions before a login retry: a listener left behind
        # would show every commit twice once the cog is loaded again.
        self.bot.withdraw(Notifier)
        with contextlib.suppress(ValueError):
            self.manager.remove_listener(self.on_commit)
        # Every worker ends before the bot closes its connection (discord.py closes it
        # right after unloading the extensions): an edit under way would fail then.
        await self.worker.stop()
        try:
            await stop_tasks(*self.closing)
        except Exception:
            log.exception("a game's last lobby edit failed while the bot was closing")
        await self.keeper.close()

    def _channel(self, messages: GameMessages) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(messages.shown_in, guild_id=messages.guild_id)

    # --- state the flows share ------------------------------------------------------------

    def messages_of(self, game_id: int, guild_id: int, channel_id: int) -> GameMessages:
        messages = self.games.get(game_id)
        if messages is None:
            messages = GameMessages(
                game_id, guild_id, channel_id, locale=self.guild_locale(guild_id)
            )
            self.games[game_id] = messages
            self.keeper.restore(messages)
        return messages

    def keep(
        self, messages: GameMessages, kind: MessageKind, message_id: int | None, player: str = ""
    ) -> None:
        self.keeper.keep(messages, kind, message_id, player)

    def guild_locale(self, guild_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        return catalog_locale(guild.preferred_locale if guild is not None else None)

    def remember_locale(self, user_id: int, locale: str) -> None:
        self.hands.user_locales[user_id] = locale

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every command or click says the person's Discord language: the DMs the workers
        send them later (their hand, their turn) use the last one seen (bot.i18n's rule)."""
        self.remember_locale(interaction.user.id, catalog_locale(interaction.locale))

    def claim(self, game_id: int, guild_id: int, channel_id: int, key: Part) -> None:
        """An interaction is about to show ``key`` (the lobby or a hand) itself, by
        editing the message it came from; the worker leaves it alone meanwhile."""
        self.messages_of(game_id, guild_id, channel_id).claims.add(key)

    async def caught_up(self, game_id: int, seq: int, timeout: float = 1.0) -> GameMessages | None:
        """The game's messages once the listener has noted the commit ``seq`` (it runs on its
        own, a moment after the commit), so that an interaction words what happened up to
        its own move; after ``timeout`` seconds, as they are."""
        messages = self.games.get(game_id)
        if messages is None:
            return None
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        while (messages.latest is None or messages.latest.seq < seq) and loop.time() < until:
            messages.noted.clear()
            await wait_at_most(messages.noted, until - loop.time())
        return messages

    def release(
        self,
        game_id: int,
        key: Part,
        *,
        shown: bool,
        dm: tuple[int, int] | None = None,
        seq: int | None = None,
        tidied: bool = False,
    ) -> None:
        """The interaction that claimed ``key`` is done; ``shown`` says whether it showed
        the state of commit ``seq`` (else, or when a later commit came, the worker shows the
        newest). ``dm`` is the hand message it edited, ``tidied`` whether to its line."""
        messages = self.games.get(game_id)
        if messages is None:
            return
        messages.claims.discard(key)
        newer = seq is not None and messages.latest is not None and messages.latest.seq > seq
        if shown:
            player = key.player
            if dm is not None:
                self.keeper.keep_hand(messages, player, dm)
                messages.dm_closed.discard(player)
                if tidied:
                    messages.collapsed.add(player)
                else:
                    messages.collapsed.discard(player)
            # A turn that begins with the player's own move still gets its new message.
            if not newer and messages.notify != player and player not in messages.ending:
                messages.dirty.discard(key)
                messages.news.discard(player)
        if messages.dirty or messages.announcements:
            self.worker.wake(messages)

    def touch(self, game_id: int, guild_id: int, channel_id: int, player: str) -> None:
        """``player`` is at the keyboard (for those notified only when away)."""
        self.messages_of(game_id, guild_id, channel_id).active[player] = time.monotonic()

    def remember_hook(
        self, game_id: int, player: str, interaction: discord.Interaction[Any], message_id: int
    ) -> None:
        messages = self.games.get(game_id)
        if messages is not None:
            messages.hooks[player] = Hook(interaction, message_id)

    def set_lobby_message(self, game_id: int, guild_id: int, channel_id: int, message: int) -> None:
        messages = self.messages_of(game_id, guild_id, channel_id)
        self.keeper.keep(messages, MessageKind.LOBBY, message)
        self.pending_channels.discard(channel_id)

    def moved(self, game_id: int, thread_id: int, lobby_channel_id: int) -> None:
        """The game now lives in its thread; its lobby message stays in the channel."""
        messages = self.games.get(game_id)
        if messages is not None:
            messages.channel_id = thread_id
            messages.lobby_channel_id = lobby_channel_id

    def abandon(self, game_id: int, gone_channel: int | None = None) -> None:
        """The game's channel or server is gone: stop showing it at once, its pending
        posts and DMs included, and ignore what its last commits still tell. When only its
        thread went (``gone_channel``), its lobby message in the channel says so and loses
        its buttons, which would look live."""
        self.gone.add(game_id)
        messages = self.games.pop(game_id, None)
        if messages is None:
            return
        for task in (messages.task, messages.channel_task):
            if task is not None:
                task.cancel()
        if gone_channel is not None and messages.lobby_channel_id not in (None, gone_channel):
            task = asyncio.create_task(self._thread_gone(messages), name=f"gone-{game_id}")
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    async def _thread_gone(self, messages: GameMessages) -> None:
        where = messages.lobby_channel_id
        record = await self.manager.stored_game(messages.game_id)
        if record is None or where is None or messages.lobby_message is None:
            return
        loc = messages.locale
        players = present.seat_names(record.seats, loc)
        host = next((x.display_name for x in record.seats if x.user_id == record.host_id), None)
        ruleset = Ruleset.from_json(record.ruleset)
        text = present.fit(
            [
                present.lobby_text(ruleset, players, host, loc, state="cancelled"),
                t("lobby.thread_gone", loc),
            ]
        )
        channel = self.bot.get_partial_messageable(where, guild_id=messages.guild_id)
        try:
            await self.pace()
            await channel.get_partial_message(messages.lobby_message).edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            log.info("game %s: its lobby message stays as it was: %s", messages.game_id, error)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread was reopened (a moderator, or a message): the table shows the
        game as it is now, whatever it could not show while the thread was archived, back
        in the thread when it was shown in the lobby's channel meanwhile."""
        if payload.data.get("thread_metadata", {}).get("archived", True):
            return
        for messages in self.games.values():
            if messages.thread_id == payload.thread_id and not messages.done:
                self.worker.posts.thread_reopened(messages)
                messages.dirty.add(TABLE)
                messages.retry_at.pop(TABLE, None)
                self.worker.wake(messages)

    # --- the listener ---------------------------------------------------------------------

    async def on_commit(self, event: s.Committed) -> None:
        """Note what changed and wake the game's worker; never waits for Discord."""
        if event.game_id in self.gone:
            return
        messages = self.messages_of(event.game_id, event.guild_id, event.channel_id)
        changes.note(messages, event)
        follow_thread(messages, event)
        messages.noted.set()
        self.worker.wake(messages)
