"""What the lobby commands and buttons do: open, show, join, leave, start and cancel a lobby.

Every flow answers (or defers) first, then asks the session, then presents the result; it
never decides a rule.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot import sessions as s
from bot.i18n import locale_of, t
from bot.rummy import Ruleset
from bot.sessions.messages import MessageKind
from cogs.display.parts import LOBBY
from cogs.flows.resolve import (
    cached_permissions,
    channel_session,
    game_session,
    is_moderator,
    manager,
    missing_permissions,
    notifier,
    remember,
    services,
)
from cogs.ui import components, present, threads
from cogs.ui.client import Interaction
from cogs.ui.queue import queue_answer
from cogs.ui.replies import Refused, after_commit, guarded, send

log = logging.getLogger(__name__)


# --- the lobby ----------------------------------------------------------------------------


def lobby_text_of(session: s.Session, loc: str, state: str = "open") -> str:
    players = present.seat_names(session.seats, loc)
    host = next((x.display_name for x in session.seats if x.user_id == session.host_id), None)
    return present.lobby_text(
        session.ruleset, players, host, loc, state=state, timer=session.turn_timer
    )


async def create_lobby(
    interaction: Interaction, ruleset: Ruleset, turn_timer: int = 0, *, open_seats: bool = False
) -> None:
    """``open_seats``: people not seated may take over the computer players the host adds."""
    loc = locale_of(interaction, public=True)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refused("error.guild_only")
    missing = missing_permissions(interaction)
    if missing:
        names = ", ".join(t(key, locale_of(interaction)) for key in missing)
        await send(
            interaction,
            t("error.bot_missing_permissions", locale_of(interaction), permissions=names),
        )
        return
    if manager(interaction).get(interaction.channel_id) is not None:
        # Said before the (public) answer starts, so the refusal stays the person's own.
        raise s.ChannelBusy("refusal.table.taken")
    # Answer first: a slow database must not let the interaction expire with a lobby
    # stored and no message showing it.
    await interaction.response.defer(thinking=True)
    remember(interaction)
    display = notifier(interaction)
    try:
        threaded = await threads.wanted(interaction, services(interaction).server_settings)
        display.pending_channels.add(interaction.channel_id)
        try:
            session = await manager(interaction).create_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                ruleset=ruleset,
                turn_timer=turn_timer,
                placing=threaded,
                open_seats=open_seats,
            )
        except BaseException:
            display.pending_channels.discard(interaction.channel_id)
            raise
    except Exception:
        # Nothing was stored: the public "thinking" answer goes, the refusal or the
        # apology that follows is the person's own.
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        raise
    try:
        await show_lobby(interaction, session, loc, threaded)
    except Exception:
        if (
            display.messages_of(session.game_id, session.guild_id, session.channel_id).lobby_message
            is None
        ):
            await undo_lobby(interaction, session)
        raise
    finally:
        session.placed()


async def undo_lobby(interaction: Interaction, session: s.Session) -> None:
    """A lobby nobody can see is called off, so the channel is free for the next
    ``/rummy new``; if even that fails the lobby stays, and ``/rummy cancel`` clears it."""
    try:
        await session.cancel(interaction.user.id, moderator=True)
    except Exception:
        log.exception("game %s: could not call off the lobby nobody saw", session.game_id)
    else:
        log.warning("game %s: its lobby could not be shown; it was called off", session.game_id)


async def show_lobby(
    interaction: Interaction, session: s.Session, loc: str, threaded: bool
) -> None:
    """Post the new lobby as the command's answer, then, ``threaded``, move it into a
    thread started from it."""
    display = notifier(interaction)
    messages = display.messages_of(session.game_id, session.guild_id, session.channel_id)
    messages.locale = loc
    try:
        message = await send(
            interaction,
            lobby_text_of(session, loc),
            ephemeral=False,
            view=components.lobby_view(session.game_id, loc),
        )
    finally:
        display.pending_channels.discard(session.channel_id)
    if message is None:
        message = await interaction.original_response()
    display.set_lobby_message(session.game_id, session.guild_id, session.channel_id, message.id)
    if threaded:
        await into_thread(interaction, session, message.id, loc)


async def into_thread(
    interaction: Interaction, session: s.Session, lobby_message: int, loc: str
) -> None:
    """Start the game's thread from its lobby message and move the game into it; when that
    cannot be, the game stays in the channel and the channel is told so, once."""
    have = interaction.app_permissions
    if have.value == 0:
        have = cached_permissions(interaction) or have
    missing = threads.missing_permissions(have)
    if missing:
        names = ", ".join(t(key, loc) for key in missing)
        notice = t("thread.failed_permissions", loc, permissions=names)
    else:
        host = next((x.display_name for x in session.seats if x.user_id == session.host_id), "")
        try:
            await notifier(interaction).pace()  # it counts against the global rate limit
            thread = await threads.start(
                interaction, lobby_message, threads.thread_name(session.ruleset, host, loc)
            )
        except discord.HTTPException as error:
            log.info("game %s: no thread (%s); it plays in the channel", session.game_id, error)
            notice = t("thread.failed", loc)
        else:
            lobby_channel = session.channel_id
            try:
                await manager(interaction).move_to_thread(session, thread.id)
            except s.SessionError:
                # Dealt or called off before Discord made the thread: the game stays where
                # its messages are, and the empty thread leaves the list.
                with contextlib.suppress(discord.HTTPException):
                    await threads.archive(interaction.client, thread.id)
                return
            notifier(interaction).moved(session.game_id, thread.id, lobby_channel)
            return
    await interaction.followup.send(
        notice, ephemeral=False, allowed_mentions=discord.AllowedMentions.none()
    )


async def lobby_op(
    interaction: Interaction, verb: str, session: s.Session, level: str = "normal"
) -> s.Committed:
    user = interaction.user
    moderator = is_moderator(interaction)
    if verb == "join":
        return await session.join(user.id, user.display_name)
    if verb == "leave":
        return await session.leave(user.id)
    if verb == "start":
        return await session.start(user.id, moderator=moderator)
    if verb == "cancel":
        return await session.cancel(user.id, moderator=moderator)
    if verb == "addbot":
        loc = locale_of(interaction, public=True)
        return await session.add_computer(
            user.id, level, moderator=moderator, naming=lambda n: t("seat.computer", loc, number=n)
        )
    raise Refused("error.lobby_action", verb=verb)


_LOBBY_DONE = {
    "join": "lobby.you_joined",
    "leave": "lobby.you_left",
    "start": "lobby.started",
    "cancel": "lobby.cancelled",
    "addbot": "lobby.bot_added",
}


async def lobby_command(interaction: Interaction, verb: str, level: str = "normal") -> None:
    """/rummy join|leave|start|cancel: the lobby message is updated by the worker."""

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        remember(interaction)
        try:
            session = channel_session(interaction)
        except s.NoGameHere:
            if verb != "cancel":
                raise
            cleared = await manager(interaction).clear_broken(
                interaction.channel_id or 0,
                by_user=interaction.user.id,
                moderator=is_moderator(interaction),
            )
            if not cleared:
                raise
            await send(interaction, t("lobby.cleared", locale_of(interaction)))
            return
        event = await lobby_op(interaction, verb, session, level)
        with after_commit("error.after_commit.lobby"):
            done = "timer.you_are_back" if event.kind is s.EventKind.SEAT else _LOBBY_DONE[verb]
            await send(interaction, t(done, locale_of(interaction)))

    await guarded(interaction, work)


async def lobby_button(interaction: Interaction, verb: str, game_id: int) -> None:
    """A lobby button: the answer edits the lobby message itself (free of rate limits)."""

    async def work() -> None:
        await interaction.response.defer()
        remember(interaction)
        session = game_session(interaction, game_id, in_dm=False)
        display = notifier(interaction)
        display.claim(game_id, session.guild_id, session.channel_id, LOBBY)
        shown = False
        try:
            event = await lobby_op(interaction, verb, session)
            with after_commit("error.after_commit.lobby"):
                messages = display.messages_of(game_id, session.guild_id, session.channel_id)
                text, view = components.lobby_message(event, messages.locale, messages.thread_id)
                await interaction.edit_original_response(
                    content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
                )
                message = interaction.message
                if message is not None and messages.lobby_message != message.id:
                    display.keep(messages, MessageKind.LOBBY, message.id)
                shown = True
        finally:
            display.release(game_id, LOBBY, shown=shown)

    await guarded(interaction, work)


async def join_running_without_seat(interaction: Interaction, session: s.Session) -> None:
    """Someone not seated wants in while people hold every seat of the running game: they
    join the queue for the next game here (Play again seats them)."""
    answer = await queue_answer(session, interaction.user, "join", locale_of(interaction))
    if answer is None:  # seated after all, or the game ended meanwhile
        raise s.NoFreeSeat("refusal.seat.no_free")
    await send(interaction, answer)
