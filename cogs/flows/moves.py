"""What a move does, from a slash command or a hand's button: the hand shown, the move run,
the hint given. The interaction is resolved first (:mod:`cogs.flows.resolve`); the session
decides, and the notifier shows the commit.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot import sessions as s
from bot.i18n import locale_of
from bot.rummy import Action, GameView
from bot.rummy.errors import PlayerError
from bot.services.personal_settings import UNCHOSEN, PersonalSettings
from bot.sessions.messages import MessageKind
from cogs.display.game_messages import GameMessages, Hook
from cogs.display.hands import Hand, dm_hand, hand_message
from cogs.display.parts import hand_of
from cogs.flows.resolve import (
    channel_session,
    game_session,
    look_of,
    mark_active,
    names_of,
    notifier,
    remember,
    seated,
)
from cogs.ui import hints, present
from cogs.ui.client import Interaction
from cogs.ui.replies import Refused, after_commit, guarded, send

log = logging.getLogger(__name__)


# --- hands --------------------------------------------------------------------------------


async def show_hand(interaction: Interaction, session: s.Session) -> None:
    """The hand as an ephemeral answer with its move buttons (works with DMs closed)."""
    player = seated(session, interaction)
    loc = locale_of(interaction)
    if session.status is s.SessionStatus.LOBBY:
        raise Refused("hand.not_dealt")
    messages = notifier(interaction).messages_of(
        session.game_id, session.guild_id, session.channel_id
    )
    look = await look_of(interaction)
    content, file, view = await live_hand(session, messages, player, loc, look)
    if content is None:
        raise s.SessionClosed("refusal.hand.none")
    sent = await send(interaction, content, ephemeral=True, file=file, view=view)
    if sent is not None and view is not None:
        messages.keep_private_hand(player, Hook(interaction, sent.id, followup=True))


async def show_hand_button(interaction: Interaction, game_id: int) -> None:
    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        remember(interaction)
        session = game_session(interaction, game_id)
        messages = notifier(interaction).messages_of(
            session.game_id, session.guild_id, session.channel_id
        )
        message = interaction.message
        if (
            messages.table_message is None
            and message is not None
            and any(a.filename == "table.png" for a in message.attachments)
        ):
            # After a restart: the table this button sits on is the one to keep editing.
            notifier(interaction).keep(messages, MessageKind.TABLE, message.id)
        await show_hand(interaction, session)

    await guarded(interaction, work)


async def hand_command(interaction: Interaction) -> None:
    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        remember(interaction)
        await show_hand(interaction, channel_session(interaction))

    await guarded(interaction, work)


# --- moves --------------------------------------------------------------------------------


async def move_command(interaction: Interaction, build: Any) -> None:
    """A slash-command move: ``build(session, player)`` makes the action from the options.

    The answer says what happened and shows the hand as text; the DM hand and the table are
    updated by the worker.
    """
    session_ref: list[s.Session] = []

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        remember(interaction)
        session = channel_session(interaction)
        session_ref.append(session)
        player = seated(session, interaction)
        mark_active(interaction, session, player)
        action: Action = build(session, player)
        event = await session.apply(player, action)
        with after_commit("error.after_commit.move"):
            loc = locale_of(interaction)
            display = notifier(interaction)
            messages = display.messages_of(session.game_id, session.guild_id, session.channel_id)
            after = event.views.get(player)
            me = present.as_text(session.names.get(player) or interaction.user.display_name)
            said = present.move_text(me, event.action or action, after, loc)
            if player in messages.dm_closed:
                look = await look_of(interaction)
                content, file, view = await committed_hand(event, messages, player, loc, look)
                sent = await send(
                    interaction, present.fit([said, content or ""]), file=file, view=view
                )
                if sent is not None and view is not None:
                    messages.keep_private_hand(player, Hook(interaction, sent.id, followup=True))
                return
            lines = [said]
            if after is not None and not after.is_over:
                sort_by = (await look_of(interaction)).sort
                lines.append(present.hand_text(after, session.names, loc, sort_by=sort_by))
            await send(interaction, present.fit(lines))

    await guarded(interaction, work, lambda: names_of(session_ref[0] if session_ref else None))


async def hand_move(interaction: Interaction, game_id: int, turn: int, action: Action) -> None:
    """A move button or menu on a hand message (in a DM, or an ephemeral hand)."""
    session_ref: list[s.Session] = []

    async def work() -> None:
        await interaction.response.defer()
        remember(interaction)
        session = game_session(interaction, game_id)
        session_ref.append(session)
        player = seated(session, interaction)
        mark_active(interaction, session, player)
        display = notifier(interaction)
        in_dm = interaction.guild_id is None
        key = hand_of(player)
        if in_dm:
            display.claim(game_id, session.guild_id, session.channel_id, key)
        shown = tidied = False
        dm: tuple[int, int] | None = None
        seq: int | None = None
        try:
            try:
                event = await session.apply(player, action, turn=turn)
            except PlayerError:
                if in_dm:
                    seq = session.seq
                    brought = await _bring_up_to_date(interaction, session, player)
                    if brought is not None:
                        dm, tidied = brought
                        shown = True
                raise
            with after_commit("error.after_commit.move"):
                seq = event.seq
                messages = display.messages_of(game_id, session.guild_id, session.channel_id)
                loc = locale_of(interaction)
                if in_dm:
                    # The DM's hand says what happened since the last turn: the listener's notes.
                    await display.caught_up(game_id, event.seq)
                    (content, file, view), tidied = await dm_hand(
                        messages,
                        event.views.get(player),
                        event.legal.get(player, ()),
                        player,
                        loc,
                        ended=event.turn != turn,
                        look=await look_of(interaction),
                    )
                else:
                    look = await look_of(interaction)
                    content, file, view = await committed_hand(event, messages, player, loc, look)
                    if view is not None and interaction.message is not None:
                        hook = Hook(interaction, interaction.message.id)
                        messages.keep_private_hand(player, hook)
                await interaction.edit_original_response(
                    content=content,
                    attachments=[file] if file is not None else [],
                    view=view,
                )
                shown = in_dm
                if in_dm and interaction.message is not None and interaction.channel_id is not None:
                    dm = (interaction.channel_id, interaction.message.id)
                    display.remember_hook(game_id, player, interaction, interaction.message.id)
        finally:
            if in_dm:
                display.release(game_id, key, shown=shown, dm=dm, seq=seq, tidied=tidied)

    await guarded(interaction, work, lambda: names_of(session_ref[0] if session_ref else None))


async def _bring_up_to_date(
    interaction: Interaction, session: s.Session, player: str
) -> tuple[tuple[int, int], bool] | None:
    """A refused control of a DM hand was out of date (a typed move, a timer or another
    path moved on): its message shows what its owner may do now, through the click's own
    answer (free of the global rate limit). Returns the message so edited, if it was, and
    whether it is tidied to its line."""
    message = interaction.message
    if message is None or interaction.channel_id is None:
        return None
    display = notifier(interaction)
    messages = display.messages_of(session.game_id, session.guild_id, session.channel_id)
    if messages.hand_messages.get(player) != (interaction.channel_id, message.id):
        return None  # an older hand message: its turn's tidying is its own
    await display.caught_up(session.game_id, session.seq)
    live = session.status is s.SessionStatus.ACTIVE
    (content, file, view), tidied = await dm_hand(
        messages,
        session.view(player) if live else None,
        list(session.legal_actions(player)) if live else [],
        player,
        locale_of(interaction),
        look=await look_of(interaction),
    )
    if content is None:
        return None
    try:
        await interaction.edit_original_response(
            content=content, attachments=[file] if file is not None else [], view=view
        )
    except discord.HTTPException:
        return None
    display.remember_hook(session.game_id, player, interaction, message.id)
    return (interaction.channel_id, message.id), tidied


async def hand_pick(interaction: Interaction, game_id: int, turn: int, code: str) -> None:
    async def work() -> None:
        action = present.decode_action(code)
        await hand_move(interaction, game_id, turn, action)

    await guarded(interaction, work)


async def live_hand(
    session: s.Session,
    messages: GameMessages,
    player: str,
    loc: str,
    look: PersonalSettings = UNCHOSEN,
) -> Hand:
    """The hand of ``player`` read from the live session (view and legal actions taken
    together, so the menus match the custom ids' turn), or from the last commit once the
    game has ended."""
    view: GameView | None
    legal: list[Action] = []
    if session.status is s.SessionStatus.ACTIVE:
        view = session.view(player)
        legal = list(session.legal_actions(player))
    else:
        view = messages.latest.views.get(player) if messages.latest is not None else None
    return await hand_message(session.game_id, view, legal, messages.names, loc, look=look)


async def committed_hand(
    event: s.Committed,
    messages: GameMessages,
    player: str,
    loc: str,
    look: PersonalSettings = UNCHOSEN,
) -> Hand:
    """The hand of ``player`` as the move they just made left it."""
    view = event.views.get(player)
    legal = event.legal.get(player, ())
    return await hand_message(event.game_id, view, legal, messages.names, loc, look=look)


# --- hints --------------------------------------------------------------------------------


async def hint_command(interaction: Interaction) -> None:
    """/hint: the best arrangement of the asker's hand and the move the normal computer
    player would make, from the asker's own view only, in words (:mod:`cogs.ui.hints`)."""

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        session = channel_session(interaction)
        player = seated(session, interaction)
        loc = locale_of(interaction)
        legal = session.legal_actions(player)
        if not legal:
            raise Refused("hint.not_your_turn")
        view = session.view(player)
        text = await asyncio.to_thread(hints.hint_text, view, legal, loc)
        await send(interaction, text)

    await guarded(interaction, work)
