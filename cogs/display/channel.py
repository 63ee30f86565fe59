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
from cogs.display.parts import LOBBY, THREAD
from cogs.display.pings import NO_MENTIONS
from cogs.display.seat_changes import played_by_computer
from cogs.ui import components, present, threads
from cogs.ui.picture_words import picture_words
from rendering import render_round_summary, render_score_chart, render_table

ARCHIVED = 50083
"""Discord's code for a change refused because the thread is archived."""


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


class ChannelPosts:
    def __init__(
        self,
        client: discord.Client,
        pace: Pacer,
        keeper: MessageKeeper,
        pending_channels: set[int],
    ) -> None:
        self.client = client
        self.pace = pace
        self.keeper = keeper
        self.pending_channels = pending_channels
        """Channels where a lobby is being created; its message is the command's answer."""

    async def show_lobby(self, messages: GameMessages) -> None:
        event = messages.latest
        if event is None:
            return
        where = messages.lobby_channel_id or messages.channel_id
        channel = self.client.get_partial_messageable(where, guild_id=messages.guild_id)
        text, view = components.lobby_message(event, messages.locale, messages.thread_id)
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
        event = messages.latest
        view = event.views.get(None) if event is not None else None
        if view is None or event is None:
            return
        # A seat a computer plays shows its marked name, as the order of play does.
        computers = {x.player_id for x in event.seats if played_by_computer(x)}
        mentions = {p: f"<@{uid}>" for p, uid in messages.users.items() if p not in computers}
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
        deadline = event.deadline
        if deadline is not None and event.status is s.SessionStatus.ACTIVE:
            when = f"<t:{int(deadline.timestamp())}:R>"
            text = present.fit([text, "⏰ " + t("timer.ends", messages.locale, when=when)])
        words = picture_words(messages.locale)
        picture = await asyncio.to_thread(render_table, view, names=messages.names, words=words)
        live = event.status is s.SessionStatus.ACTIVE
        free = any(takeable(seat, event.open_seats) for seat in event.seats)
        buttons = (
            components.table_view(messages.game_id, messages.locale, seat_free=free)
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
        creator may unless it is locked, and edits again. A locked one refuses (the edit is
        shown once it is reopened: ``Notifier.on_thread_update``)."""
        await self.pace()
        try:
            await message.edit(**fields)
            return
        except discord.HTTPException as error:
            if error.code != ARCHIVED or messages.thread_id is None:
                raise
        for file in fields.get("attachments", ()):
            file.reset()
        await self.pace()
        await threads.reopen(self.client, messages.thread_id)
        await self.pace()
        await message.edit(**fields)

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

    async def archive(self, messages: GameMessages) -> None:
        """Archive the game's thread (it is over and everything of it is shown)."""
        thread = messages.thread_id
        if thread is None:
            return
        await self.pace()
        await threads.archive(self.client, thread)

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
