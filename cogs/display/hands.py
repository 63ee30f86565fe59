"""Each player's hand in their DMs.

One notification a turn: when a player's turn begins they get a new DM with their hand, its
controls and what happened since their last turn (or, with closed DMs, one mention in the
game's channel). Once the turn is over the message is tidied to the one line of their cards
(by the move's own interaction when it came from the DM, free of the global rate limit),
and a round's end adds what it meant for them. An edit never notifies, so nothing else
reaches them during a round but the turn timer's reminder. People who chose to be told only
when away get their turn as a quiet edit while they are at the keyboard.

Edits and deletions go through the player's last interaction on that message while it
lives (15 minutes): those calls do not count against Discord's global rate limit. A move
typed in the channel changes the DM's controls within the turn only through such an
interaction; without one they wait, and the first of them pressed brings its message up to
date through its own answer, so a typed turn costs no more calls than the table, the next
player's new message and the tidying.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections.abc import Mapping, Sequence

import discord
from discord.ext import commands

from bot import sessions as s
from bot.i18n import t
from bot.rummy import Action, GameView
from bot.services.personal_settings import UNCHOSEN, PersonalSettings, PersonalSettingsBook
from bot.sessions.messages import MessageKind
from cogs.display import recent
from cogs.display.game_messages import GameMessages, Hook
from cogs.display.keeping import MessageKeeper
from cogs.display.pacing import Pacer
from cogs.display.pings import NO_MENTIONS, Pings
from cogs.display.seat_changes import held_hand, held_seat
from cogs.ui import components, present
from cogs.ui.picture_words import picture_words
from rendering import render_hand

DM_CLOSED = 50007

AWAY_AFTER = 120.0
"""Seconds without a click or command in the game after which a person who asked to be
notified only when away is away."""

Hand = tuple[str | None, discord.File | None, discord.ui.View | None]
"""A hand message: content, picture and move components (all None: no hand to show)."""


async def hand_message(
    game_id: int,
    view: GameView | None,
    legal: Sequence[Action],
    names: Mapping[str, str],
    loc: str,
    *,
    recent_lines: Sequence[str] | None = None,
    look: PersonalSettings = UNCHOSEN,
) -> Hand:
    """The hand ``view`` shows, with the moves of ``legal`` (taken with the view, so the menus
    match the custom ids' turn); ``recent_lines`` for a hand in DMs (see ``hand_text``);
    ``look``: its owner's choices (deck colours, theme, order), for the picture and text."""
    if view is None:
        return None, None, None
    content = present.hand_text(view, names, loc, recent=recent_lines, sort_by=look.sort)
    buttons = components.hand_view(game_id, view, legal, loc)
    picture = await asyncio.to_thread(
        render_hand,
        view,
        sort_by=look.sort,
        theme=look.theme,
        four_colour=look.four_colour,
        words=picture_words(loc),
    )
    return content, discord.File(io.BytesIO(picture), filename="hand.png"), buttons


def tidied(
    messages: GameMessages, view: GameView, player: str, loc: str, sort_by: str = "suit"
) -> str:
    """A hand message once its turn is over: the rounds that ended since, and the cards."""
    lines = recent.round_lines(messages, player, loc)
    lines.append(present.hand_line(view, loc, sort_by))
    if view.is_over:
        lines.append(t("hand.over", loc))
        lines.append(t("hand.scores_in", loc, channel=f"<#{messages.channel_id}>"))
    return present.fit(lines)


async def dm_hand(
    messages: GameMessages,
    view: GameView | None,
    legal: Sequence[Action],
    player: str,
    loc: str,
    *,
    whole: bool = False,
    ended: bool = False,
    look: PersonalSettings = UNCHOSEN,
) -> tuple[Hand, bool]:
    """The hand message in ``player``'s DMs and whether it is the tidied one: whole (picture,
    controls, what happened since their last turn) during their turn, or when ``whole`` (a
    game over is always its lines);
    else tidied to its lines. ``ended``: the turn this message served is over, even if the
    next one is the same player's (it begins with a new message)."""
    if view is None:
        return (None, None, None), False
    if held_seat(messages.latest, player) and not view.is_over:
        content, take_back = held_hand(messages.game_id, loc)
        return (content, None, take_back), False
    if (whole and not view.is_over) or (
        view.current == player and legal and not view.is_over and not ended
    ):
        lines = recent.for_player(messages, player, loc)
        hand = await hand_message(
            messages.game_id, view, legal, messages.names, loc, recent_lines=lines, look=look
        )
        return hand, False
    return (tidied(messages, view, player, loc, look.sort), None, None), True


class Hands:
    """Shows hands in DMs; the people's DM channels and languages are kept across games."""

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        pace: Pacer,
        keeper: MessageKeeper,
        pings: Pings,
        quiet_users: set[int],
        looks: PersonalSettingsBook,
    ) -> None:
        self.bot = bot
        self.pace = pace
        self.keeper = keeper
        self.pings = pings
        self.quiet_users = quiet_users
        """People who chose to be notified only when away."""
        self.looks = looks
        """What each person chose for the pictures they see."""
        self.user_locales: dict[int, str] = {}
        self.dm_channels: dict[int, int] = {}

    def user_locale(self, user_id: int | None, messages: GameMessages) -> str:
        if user_id is None:
            return messages.locale
        return self.user_locales.get(user_id, messages.locale)

    def at_keyboard(self, messages: GameMessages, player: str, user_id: int) -> bool:
        """Whether a person who asked to be told only when away is here now."""
        if user_id not in self.quiet_users:
            return False
        seen = messages.active.get(player)
        return seen is not None and time.monotonic() - seen < AWAY_AFTER

    async def show(
        self, messages: GameMessages, channel: discord.PartialMessageable, player: str, notify: bool
    ) -> None:
        if player in messages.released:
            await self._released(messages, player)
        user_id = messages.users.get(player)
        event = messages.latest
        if user_id is None or event is None:
            return
        loc = self.user_locale(user_id, messages)
        if event.status not in (s.SessionStatus.LOBBY, s.SessionStatus.ACTIVE):
            await self._close_private_hand(messages, player, loc)
        if event.kind is s.EventKind.CANCELLED:
            await self._cancelled(messages, player, loc)
            return
        if player in messages.held_news:
            messages.held_news.discard(player)
            notify = held_seat(event, player)  # told by a new message that the seat is held
        quiet = notify and self.at_keyboard(messages, player, user_id)
        if player in messages.dm_closed:
            if notify and not quiet and player not in messages.ending:  # (the channel shows it)
                text = None
                if held_seat(event, player):
                    text = t("seat.held_ping", messages.locale, mention=f"<@{user_id}>")
                await self.pings.ping(messages, channel, player, user_id, text)
            return
        old = messages.hand_messages.get(player)
        if old is None or (notify and not quiet):
            await self._send(messages, channel, player, user_id, loc, notify)
            return
        if player in messages.collapsed and player not in messages.news and not notify:
            return  # already tidied, and nothing new to say
        if self._controls_wait(messages, player, old, notify):
            return
        (content, file, buttons), collapsed = await dm_hand(
            messages,
            event.views.get(player),
            event.legal.get(player, ()),
            player,
            loc,
            look=await self.looks.of(user_id),
        )
        if content is None:
            return
        try:
            await self._edit(messages, player, old, content, file, buttons)
        except discord.NotFound:
            self.keeper.keep(messages, MessageKind.HAND, None, player)
            await self._send(messages, channel, player, user_id, loc, notify)
            return
        messages.news.discard(player)
        if collapsed:
            messages.collapsed.add(player)
        else:
            messages.collapsed.discard(player)

    @staticmethod
    def _controls_wait(
        messages: GameMessages, player: str, old: tuple[int, int], notify: bool
    ) -> bool:
        """Whether the hand message keeps its controls as they are for now: the player's
        move came from elsewhere (a typed command, a private hand) and their turn goes on,
        so only its controls changed, and no live interaction of theirs on that message can
        change it for free. A turn costs at most the table, the turn's new message and the
        tidying once it is over; a control pressed there meanwhile brings its message up
        to date through the press's own answer (see ``cogs.flows.moves``)."""
        within = player in messages.within_turn
        messages.within_turn.discard(player)
        return (
            within
            and not notify
            and player not in messages.news
            and player not in messages.collapsed
            and player not in messages.ending
            and not held_seat(messages.latest, player)
            and messages.hook(player, old[1]) is None
        )

    async def _released(self, messages: GameMessages, player: str) -> None:
        """The last hand message of a person who left the seat says so, without controls."""
        user_id, where = messages.released.pop(player)
        if where is None:
            return
        text = t("seat.you_left", self.user_locale(user_id, messages))
        self.keeper.keep(messages, MessageKind.HAND, None, player)
        with contextlib.suppress(discord.NotFound):
            await self.pace()
            dm = self.bot.get_partial_messageable(where[0])
            await dm.get_partial_message(where[1]).edit(content=text, attachments=[], view=None)

    async def _close_private_hand(self, messages: GameMessages, player: str, loc: str) -> None:
        """The game is over or cancelled: the player's private hand answers with controls
        lose them, through their interactions while those live (free of the global rate
        limit); older ones can no longer be changed by anyone (a click there is refused)."""
        hooks = messages.private_hands.pop(player, [])
        event = messages.latest
        view = event.views.get(player) if event is not None else None
        if event is None or view is None:
            return
        order = await self._order(messages, player)
        if event.kind is s.EventKind.CANCELLED:
            text = present.fit([present.hand_line(view, loc, order), t("table.cancelled", loc)])
        else:
            text = tidied(messages, view, player, loc, order)
        for hook in hooks:
            if hook.alive:
                with contextlib.suppress(discord.HTTPException):
                    await hook.edit(content=text, attachments=[], view=None)

    async def _order(self, messages: GameMessages, player: str) -> str:
        """The order the player sees their cards in (their choice)."""
        user_id = messages.users.get(player)
        return "suit" if user_id is None else (await self.looks.of(user_id)).sort

    async def _cancelled(self, messages: GameMessages, player: str, loc: str) -> None:
        """The game was cancelled: the hand message keeps the line of its cards, loses its
        picture and controls, and says so (nothing is sent to whoever has none)."""
        old = messages.hand_messages.get(player)
        event = messages.latest
        if old is None or event is None:
            return
        view = event.views.get(player)
        lines = [t("table.cancelled", loc)]
        if view is not None:
            lines.insert(0, present.hand_line(view, loc, await self._order(messages, player)))
        with contextlib.suppress(discord.NotFound):
            await self._edit(messages, player, old, present.fit(lines), None, None)
        messages.collapsed.add(player)

    async def _send(
        self,
        messages: GameMessages,
        channel: discord.PartialMessageable,
        player: str,
        user_id: int,
        loc: str,
        notify: bool,
    ) -> None:
        """A new hand message (their turn begins, or their first hand); the previous one is
        deleted when that is free or it still shows a whole hand, else left as its line."""
        event = messages.latest
        assert event is not None
        (content, file, buttons), _ = await dm_hand(
            messages,
            event.views.get(player),
            event.legal.get(player, ()),
            player,
            loc,
            whole=True,
            look=await self.looks.of(user_id),
        )
        if content is None:
            return
        old = messages.hand_messages.get(player)
        hook = messages.hook(player)
        sent: discord.Message | discord.WebhookMessage | None = None
        if hook is not None:
            # A follow-up of their last click in the DM: a new message there, like any
            # other, but through the interaction's webhook (free of the global limit).
            with contextlib.suppress(discord.HTTPException):
                sent = await hook.interaction.followup.send(
                    content,
                    file=file or discord.utils.MISSING,
                    view=buttons or discord.utils.MISSING,
                    wait=True,
                    silent=not notify,
                )
        if sent is None:
            file = _again(file)
            try:
                dm_channel = await self._dm_channel(user_id)
                await self.pace()
                sent = await dm_channel.send(
                    content,
                    file=file or discord.utils.MISSING,
                    view=buttons or discord.utils.MISSING,
                    silent=not notify,  # a first hand while another plays: no alert
                )
            except discord.Forbidden as error:
                if error.code != DM_CLOSED and error.status != 403:
                    raise
                await self._dm_closed(messages, channel, player, user_id, notify)
                return
        was_tidied = player in messages.collapsed
        messages.collapsed.discard(player)
        messages.news.discard(player)
        self.keeper.keep_hand(messages, player, (sent.channel.id, sent.id))
        if old is not None:
            await self._delete_old_hand(messages, player, old, free_only=was_tidied)
        if hook is not None and isinstance(sent, discord.WebhookMessage):
            messages.hooks[player] = Hook(hook.interaction, sent.id, followup=True)

    async def _edit(
        self,
        messages: GameMessages,
        player: str,
        old: tuple[int, int],
        content: str,
        file: discord.File | None,
        buttons: discord.ui.View | None,
    ) -> None:
        """Edit the hand message in place: through the live interaction when there is one."""
        hook = messages.hook(player, old[1])
        if hook is not None:
            try:
                await hook.edit(content=content, attachments=_files(file), view=buttons)
                return
            except discord.HTTPException:
                messages.hooks.pop(player, None)
                file = _again(file)
        dm = self.bot.get_partial_messageable(old[0])
        await self.pace()
        await dm.get_partial_message(old[1]).edit(
            content=content, attachments=_files(file), view=buttons
        )

    async def _delete_old_hand(
        self, messages: GameMessages, player: str, old: tuple[int, int], *, free_only: bool
    ) -> None:
        """The previous hand message goes once a new one notified its owner; one already
        tidied to its line stays when deleting it would cost a rate-limited call."""
        hook = messages.hook(player, old[1])
        if hook is not None:
            messages.hooks.pop(player, None)
            try:
                await hook.delete()
                return
            except discord.HTTPException:
                pass
        if free_only:
            return
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
        """DMs closed: the channel is told once, and that message is the turn's mention
        when the turn begins with it."""
        messages.dm_closed.add(player)
        if player in messages.hand_messages:
            self.keeper.keep(messages, MessageKind.HAND, None, player)
        if player not in messages.told_closed:
            messages.told_closed.add(player)
            text = t("dm.closed", messages.locale, mention=f"<@{user_id}>")
            if notify:
                await self.pings.ping(messages, channel, player, user_id, text)
                return
            # Not their turn: named, not pinged (their turn's mention will come).
            await self.pace()
            sent = await channel.send(
                text,
                view=components.table_view(messages.game_id, messages.locale),
                allowed_mentions=NO_MENTIONS,
            )
            messages.closed_notices.append(sent.id)
            return
        if notify:
            await self.pings.ping(messages, channel, player, user_id)


def _files(file: discord.File | None) -> list[discord.File]:
    return [file] if file is not None else []


def _again(file: discord.File | None) -> discord.File | None:
    if file is None:
        return None
    file.reset()
    return file
