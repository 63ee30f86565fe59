"""Each player's hand in their DMs: sent, edited in place (through the player's last
interaction while it lives, free of the global rate limit), replaced when their turn begins,
and the channel told once when their DMs are closed."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Mapping, Sequence

import discord
from discord.ext import commands

from bot.i18n import t
from bot.rummy import Action, GameView
from bot.sessions.messages import MessageKind
from cogs import components, present
from cogs.display.game_messages import GameMessages
from cogs.display.keeping import MessageKeeper
from cogs.display.pacing import Pacer
from cogs.display.pings import Pings
from rendering import render_hand

DM_CLOSED = 50007

Hand = tuple[str | None, discord.File | None, discord.ui.View | None]
"""A hand message: content, picture and move components (all None: no hand to show)."""


async def hand_message(
    game_id: int,
    view: GameView | None,
    legal: Sequence[Action],
    names: Mapping[str, str],
    loc: str,
) -> Hand:
    """The hand ``view`` shows, with the moves of ``legal`` (taken with the view, so the menus
    match the custom ids' turn)."""
    if view is None:
        return None, None, None
    content = present.hand_text(view, names, loc)
    buttons = components.hand_view(game_id, view, legal, loc)
    picture = await asyncio.to_thread(render_hand, view)
    return content, discord.File(io.BytesIO(picture), filename="hand.png"), buttons


class Hands:
    """Shows hands in DMs; the people's DM channels and languages are kept across games."""

    def __init__(self, bot: commands.Bot, pace: Pacer, keeper: MessageKeeper, pings: Pings) -> None:
        self.bot = bot
        self.pace = pace
        self.keeper = keeper
        self.pings = pings
        self.user_locales: dict[int, str] = {}
        self.dm_channels: dict[int, int] = {}

    def user_locale(self, user_id: int | None, messages: GameMessages) -> str:
        if user_id is None:
            return messages.locale
        return self.user_locales.get(user_id, messages.locale)

    async def show(
        self, messages: GameMessages, channel: discord.PartialMessageable, player: str, notify: bool
    ) -> None:
        user_id = messages.users.get(player)
        if user_id is None:
            return
        loc = self.user_locale(user_id, messages)
        if player in messages.dm_closed:
            if notify:
                await self.pings.ping(messages, channel, player, user_id)
            return
        event = messages.latest
        view = event.views.get(player) if event is not None else None
        legal = event.legal.get(player, ()) if event is not None else ()
        content, file, buttons = await hand_message(
            messages.game_id, view, legal, messages.names, loc
        )
        if content is None:
            return
        old = messages.hand_messages.get(player)
        try:
            if old is not None and not notify:
                hook = messages.hook(player, old[1])
                try:
                    if hook is not None:
                        try:
                            await hook.edit_original_response(
                                content=content, attachments=_files(file), view=buttons
                            )
                            return
                        except discord.HTTPException:
                            messages.hooks.pop(player, None)
                            file = _again(file)
                    dm = self.bot.get_partial_messageable(old[0])
                    await self.pace()
                    await dm.get_partial_message(old[1]).edit(
                        content=content, attachments=_files(file), view=buttons
                    )
                    return
                except discord.NotFound:
                    self.keeper.keep(messages, MessageKind.HAND, None, player)
                    file = _again(file)
            dm_channel = await self._dm_channel(user_id)
            await self.pace()
            sent = await dm_channel.send(
                content, file=file or discord.utils.MISSING, view=buttons or discord.utils.MISSING
            )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED and error.status != 403:
                raise
            await self._dm_closed(messages, channel, player, user_id, notify)
            return
        self.keeper.keep_hand(messages, player, (sent.channel.id, sent.id))
        if old is not None and notify:
            await self._delete_old_hand(messages, player, old)

    async def _delete_old_hand(
        self, messages: GameMessages, player: str, old: tuple[int, int]
    ) -> None:
        """The previous hand message goes once a fresh one notified its owner."""
        hook = messages.hook(player, old[1])
        messages.hooks.pop(player, None)
        if hook is not None:
            try:
                await hook.delete_original_response()
                return
            except discord.HTTPException:
                pass
        with contextlib.suppress(discord.HTTPException):
            await self.pace()
            await self.bot.get_partial_messageable(old[0]).get_partial_message(old[1]).delete()

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The person's DM channel, opened once (discord.py keeps only the last 128)."""
        known = self.dm_channels.get(user_id)
        if known is None:
            await self.pace()
            opened = await self.bot.create_dm(discord.Object(id=user_id))
            known = self.dm_channels[user_id] = opened.id
        return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)

    async def _dm_closed(
        self,
        messages: GameMessages,
        channel: discord.PartialMessageable,
        player: str,
        user_id: int,
        notify: bool,
    ) -> None:
        messages.dm_closed.add(player)
        if player in messages.hand_messages:
            self.keeper.keep(messages, MessageKind.HAND, None, player)
        if player not in messages.told_closed:
            messages.told_closed.add(player)
            await self.pace()
            await channel.send(
                t("dm.closed", messages.locale, mention=f"<@{user_id}>"),
                view=components.table_view(messages.game_id, messages.locale),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]),
            )
        if notify:
            await self.pings.ping(messages, channel, player, user_id)


def _files(file: discord.File | None) -> list[discord.File]:
    return [file] if file is not None else []


def _again(file: discord.File | None) -> discord.File | None:
    if file is None:
        return None
    file.reset()
    return file
