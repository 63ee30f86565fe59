"""The game's messages in its channel: the lobby message, the table message (edited in
place once a turn, posted anew below the round summary after each deal, so that it stays the
newest message of the game), and the round summaries and final standings.

A game in a thread of its own has its lobby message in the channel the thread started from
(open, then one line saying where the game is played, then its result) and everything else
in the thread, which is archived once everything is shown."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

import discord

from bot import sessions as s
from bot.i18n import t
from bot.rummy import GameView, RoundResult
from bot.sessions.messages import MessageKind
from bot.sessions.session import takeable
from cogs.display import recent
from cogs.display.game_messages import GameMessages
from cogs.display.keeping import MessageKeeper
from cogs.display.pacing import Pacer
from cogs.display.parts import LOBBY, TABLE, THREAD
from cogs.display.pings import NO_MENTIONS
from cogs.display.seat_changes import played_by_computer
from cogs.ui import components, present, threads
from cogs.ui.picture_words import picture_words
from rendering import render_round_summary, render_score_chart, render_table

ARCHIVED = 50083
"""Discord's code for a change refused because the thread is archived."""


class ThreadLocked(Exception):
    """The game's thread is archived and the bot may not reopen it: what was refused is
    shown in the lobby's channel instead, at the next pass (see ``ChannelPosts.reopen``)."""


def follow_thread(messages: GameMessages, event: s.Committed) -> None:
    """Keep up with where the game lives (a restart, a move into its thread); a game that
    ended in its thread shows its result on the lobby message, then its thread is archived."""
    if event.lobby_channel_id is not None or messages.lobby_channel_id is None:
        # (an event committed before the move, heard after it, changes nothing)
        messages.channel_id = event.channel_id
        messages.lobby_channel_id = event.lobby_channel_id
    if messages.thread_id is not None and event.status not in (
        s.SessionStatus.LOBBY,
        s.SessionStatus.ACTIVE,
    ):
        messages.dirty.update({LOBBY, THREAD})
    _follow_host(messages, event)


def _follow_host(messages: GameMessages, event: s.Committed) -> None:
    """The thread is named for its host: a new host, or a host who asked to be forgotten,
    gives it a new name (with the lobby message's next edit, or with its archiving)."""
    host = next((x.display_name for x in event.seats if x.user_id == event.host_id), None)
    if host is None or messages.thread_id is None:
        return
    if messages.host_name is not None and host != messages.host_name:
        messages.thread_name = threads.thread_name(event.ruleset, host, messages.locale)
        messages.dirty.add(LOBBY)
    messages.host_name = host


class ChannelPosts:
    def __init__(
        self,
        client: discord.Client,
        pace: Pacer,
        keeper: MessageKeeper,
        pending_channels: set[int],
        *,
        web_on: bool = False,
    ) -> None:
        self.client = client
        self.pace = pace
        self.keeper = keeper
        self.pending_channels = pending_channels
        """Channels where a lobby is being created; its message is the command's answer."""
        self.web_on = web_on
        """The table message offers Open table: the bot serves the web table."""

    async def show_lobby(self, messages: GameMessages) -> None:
        event = messages.latest
        if event is None:
            return
        where = messages.lobby_channel_id or messages.channel_id
        channel = self.client.get_partial_messageable(where, guild_id=messages.guild_id)
        text, view = components.lobby_message(event, messages.locale, messages.thread_id)
        if event.status in (s.SessionStatus.LOBBY, s.SessionStatus.ACTIVE):
            await self._rename_thread(messages)  # (a game over: with its archiving)
        if messages.lobby_message is not None:
            message = channel.get_partial_message(messages.lobby_message)
            try:
                await self.pace()
                await message.edit(content=text, view=view, allowed_mentions=NO_MENTIONS)
                return
            except discord.NotFound:
                self.keeper.keep(messages, MessageKind.LOBBY, None)
        if event.kind is s.EventKind.LOBBY and where not in self.pending_channels:
            await self.pace()
            sent = await channel.send(
                text, view=view or discord.utils.MISSING, allowed_mentions=NO_MENTIONS
            )
            self.keeper.keep(messages, MessageKind.LOBBY, sent.id)

    async def show_table(self, messages: GameMessages, channel: discord.PartialMessageable) -> None:
        await self._show_table(messages, channel)
        if not messages.thread_locked:
            await self._drop_stray_tables(messages)

    async def _drop_stray_tables(self, messages: GameMessages) -> None:
        """The copies of the table shown in the lobby's channel while the thread was locked
        go, once the table is shown in the thread again."""
        where = messages.lobby_channel_id
        while messages.stray_tables and where is not None:
            stray = messages.stray_tables[0]
            channel = self.client.get_partial_messageable(where, guild_id=messages.guild_id)
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await self.pace()
                await channel.get_partial_message(stray).delete()
            messages.stray_tables.pop(0)

    async def _show_table(
        self, messages: GameMessages, channel: discord.PartialMessageable
    ) -> None:
        event = messages.latest
        view = event.views.get(None) if event is not None else None
        if view is None or event is None:
            return
        # A seat a computer plays shows its marked name, as the order of play does.
        computers = {x.player_id for x in event.seats if played_by_computer(x)}
        live = event.status is s.SessionStatus.ACTIVE
        # Whose turn it is, by mention, only while it is anyone's: a game over or cancelled
        # (by an erasure, say) names its seats as the order does.
        mentions = (
            {p: f"<@{uid}>" for p, uid in messages.users.items() if p not in computers}
            if live
            else {}
        )
        text = present.table_text(
            view,
            messages.names,
            messages.locale,
            recent=recent.for_table(messages, view.current, messages.locale),
            recent_brief=recent.for_table(messages, view.current, messages.locale, brief=True),
            mentions=mentions,
        )
        if event.kind is s.EventKind.CANCELLED:
            text = present.fit([t("table.cancelled", messages.locale), text])
        if messages.thread_locked and messages.thread_id is not None:
            note = t("thread.locked_here", messages.locale, thread=f"<#{messages.thread_id}>")
            text = present.fit([note, text])
        deadline = event.deadline
        if deadline is not None and event.status is s.SessionStatus.ACTIVE:
            when = f"<t:{int(deadline.timestamp())}:R>"
            text = present.fit([text, "⏰ " + t("timer.ends", messages.locale, when=when)])
        words = picture_words(messages.locale)
        picture = await asyncio.to_thread(render_table, view, names=messages.names, words=words)
        free = any(takeable(seat, event.open_seats) for seat in event.seats)
        buttons = (
            components.table_view(
                messages.game_id, messages.locale, seat_free=free, web=self.web_on
            )
            if live
            else None
        )
        if not live:
            await self.drop_ping(messages, channel)
            await self.drop_notice_buttons(messages, channel)
        file = discord.File(io.BytesIO(picture), filename="table.png")
        old = messages.table_message
        # A round's summaries go above the table. One that came while this table was drawn
        # waits its turn in this lane: the table is edited where it is now, and reposted
        # below the summaries on the next pass (the flag stays up until then).
        repost = messages.repost_table and not messages.announcements
        if old is not None and repost:
            await self.pace()
            sent = await channel.send(
                text, file=file, view=buttons or discord.utils.MISSING, allowed_mentions=NO_MENTIONS
            )
            self.keeper.keep(messages, MessageKind.TABLE, sent.id)
            messages.repost_table = False
            with contextlib.suppress(discord.HTTPException):
                await self.pace()
                await channel.get_partial_message(old).delete()
            return
        if messages.table_message is not None:
            message = channel.get_partial_message(messages.table_message)
            try:
                await self._edit(
                    messages,
                    message,
                    content=text,
                    attachments=[file],
                    view=buttons,
                    allowed_mentions=NO_MENTIONS,
                )
                return
            except discord.NotFound:
                self.keeper.keep(messages, MessageKind.TABLE, None)
            file = discord.File(io.BytesIO(picture), filename="table.png")
        await self.pace()
        sent = await channel.send(
            text, file=file, view=buttons or discord.utils.MISSING, allowed_mentions=NO_MENTIONS
        )
        self.keeper.keep(messages, MessageKind.TABLE, sent.id)
        if not messages.announcements:
            messages.repost_table = False

    async def _edit(
        self, messages: GameMessages, message: discord.PartialMessage, **fields: Any
    ) -> None:
        """Edit a message of the game's channel. In an archived thread (a moderator, or
        Discord's quiet timer) nothing can be edited: the bot reopens the thread, as its
        creator may unless it is locked, and edits again (see ``reopen`` for a locked one)."""
        await self.pace()
        try:
            await message.edit(**fields)
            return
        except discord.HTTPException as error:
            if error.code != ARCHIVED or messages.thread_id is None:
                raise
        for file in fields.get("attachments", ()):
            file.reset()
        await self.reopen(messages)
        await self.pace()
        await message.edit(**fields)

    async def reopen(self, messages: GameMessages) -> None:
        """Reopen the game's archived thread, which Discord refused a post or an edit in.
        When the bot may not (a moderator locked it, and the bot lacks Manage Threads), the
        game is shown in the lobby's channel until the thread is reopened: its table is
        posted there anew with a note, and its summaries and mentions go there too
        (:class:`ThreadLocked` tells the worker to try again there)."""
        thread = messages.thread_id
        assert thread is not None
        await self.pace()
        try:
            await threads.reopen(self.client, thread)
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                raise
            if not messages.thread_locked:
                messages.thread_locked = True
                messages.thread_table = messages.table_message
                self.keeper.keep(messages, MessageKind.TABLE, None)
                messages.dirty.add(TABLE)
            raise ThreadLocked(thread) from error

    def thread_reopened(self, messages: GameMessages) -> None:
        """The thread is open again: the game is shown there again, on its table message of
        before (the copy in the lobby's channel goes at the next table pass)."""
        if not messages.thread_locked:
            return
        messages.thread_locked = False
        if messages.table_message is not None:
            messages.stray_tables.append(messages.table_message)
        self.keeper.keep(messages, MessageKind.TABLE, messages.thread_table)
        messages.thread_table = None

    async def drop_ping(self, messages: GameMessages, channel: discord.PartialMessageable) -> None:
        """The game is over or cancelled: the last turn notice (its mention and its Show my
        hand button would look live) goes, once a game."""
        old = messages.ping_message
        if old is None:
            return
        self.keeper.keep(messages, MessageKind.PING, None)
        with contextlib.suppress(discord.NotFound):
            await self.pace()
            await channel.get_partial_message(old).delete()

    async def drop_notice_buttons(
        self, messages: GameMessages, channel: discord.PartialMessageable
    ) -> None:
        """The game is over or cancelled: the closed-DM notices lose their Show my hand
        button, once a game."""
        while messages.closed_notices:
            notice = messages.closed_notices[0]
            with contextlib.suppress(discord.NotFound):
                await self.pace()
                await channel.get_partial_message(notice).edit(view=None)
            messages.closed_notices.pop(0)

    async def _rename_thread(self, messages: GameMessages) -> None:
        thread, name = messages.thread_id, messages.thread_name
        if thread is None or name is None or messages.thread_locked:
            return
        await self.pace()
        await threads.rename(self.client, thread, name)
        messages.thread_name = None

    async def archive(self, messages: GameMessages) -> None:
        """Archive the game's thread (it is over and everything of it is shown), renamed
        in the same call when its host's name changed; a locked one is archived already."""
        thread = messages.thread_id
        if thread is None or messages.thread_locked:
            return
        await self.pace()
        await threads.archive(self.client, thread, messages.thread_name)
        messages.thread_name = None

    async def announce(
        self, messages: GameMessages, channel: discord.PartialMessageable, event: s.Committed
    ) -> None:
        view = event.views.get(None)
        if view is None:
            return
        players = tuple(seat.player_id for seat in sorted(event.seats, key=lambda x: x.seat))
        for result in event.rounds:
            await self._round_summary(messages, channel, view, result, players)
        if event.status is s.SessionStatus.FINISHED:
            text = present.final_text(view, messages.names, messages.locale, messages.game_id)
            words = picture_words(messages.locale)
            chart = await asyncio.to_thread(
                render_score_chart, view, names=messages.names, words=words
            )
            again = components.again_view(messages.game_id, messages.locale)
            await self._post_picture(channel, text, chart, "scores.png", again)

    async def _round_summary(
        self,
        messages: GameMessages,
        channel: discord.PartialMessageable,
        view: GameView,
        result: RoundResult,
        players: tuple[str, ...],
    ) -> None:
        text = present.round_text(result, players, messages.names, messages.locale)
        words = picture_words(messages.locale)
        picture = await asyncio.to_thread(
            render_round_summary, view, result, names=messages.names, words=words
        )
        await self._post_picture(channel, text, picture, "round.png")

    async def _post_picture(
        self,
        channel: discord.PartialMessageable,
        text: str,
        picture: bytes,
        filename: str,
        view: discord.ui.View | None = None,
    ) -> None:
        """A new channel message with a picture, paced like every call under the global
        rate limit, mentioning nobody (names in the text are not pings)."""
        await self.pace()
        await channel.send(
            text,
            file=discord.File(io.BytesIO(picture), filename=filename),
            view=view or discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
        )
