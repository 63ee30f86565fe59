"""What a command or a component does, written once for both.

Every flow answers (or defers) first, then asks the session, then presents the result; it
never decides a rule. Interaction → session is resolved here only: slash commands by the
channel they were used in, components by the game id in their custom id (a button in a DM
has no channel of its game).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot import sessions as s
from bot.i18n import locale_of, t
from bot.personal_settings import UNCHOSEN, PersonalSettings
from bot.rummy import Action, GameView, PlayerError, Ruleset
from bot.sessions.messages import MessageKind
from cogs import components, hints, present, threads
from cogs.client import Interaction
from cogs.display.game_messages import GameMessages, Hook
from cogs.display.hands import Hand, dm_hand, hand_message
from cogs.display.notifier import Notifier
from cogs.items import Clicks
from cogs.queue import queue_answer
from cogs.replies import Refused, after_commit, guarded, send

log = logging.getLogger(__name__)


# --- resolving an interaction ---------------------------------------------------------------


def manager(interaction: Interaction) -> s.SessionManager:
    return interaction.client.sessions


def notifier(interaction: Interaction) -> Notifier:
    """The notify extension's listener; RuntimeError when it is not loaded."""
    return interaction.client.service(Notifier)


def session_here(interaction: Interaction) -> s.Session | None:
    """The game a slash command used here is about: the one living in this channel (or
    thread), else the only one whose lobby message is in this channel (its players may
    type in the channel where they saw it); None when there is none, or several."""
    channel_id = interaction.channel_id
    if channel_id is None:
        return None
    found = manager(interaction).get(channel_id)
    if found is not None:
        return found
    opened = manager(interaction).opened_in(channel_id)
    return opened[0] if len(opened) == 1 else None


def channel_session(interaction: Interaction) -> s.Session:
    """The session of the channel a slash command was used in (see :func:`session_here`)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refused("error.guild_only")
    session = session_here(interaction)
    if session is None:
        if manager(interaction).opened_in(interaction.channel_id):
            raise Refused("refusal.table.in_threads")
        raise s.NoGameHere("refusal.table.none")
    return session


def game_session(interaction: Interaction, game_id: int, *, in_dm: bool = True) -> s.Session:
    """The session a component belongs to, by the game id in its custom id, once the click
    is known to come from that game's place: in a server, its server and its channel (or
    thread) or the channel of its lobby message; in a DM (where ``in_dm`` allows), from a
    person seated at it. A custom id is only a claim: checked here, a click cannot reach a
    game of another server or channel, and the permissions read later are the game's
    server's (a DM click has none). A click on a game another process owns never gets here
    (it is handed to that process before dispatch: ``bot.cluster.forwarding``), so a game
    not in memory is over."""
    session = manager(interaction).by_game(game_id)
    if session is None:
        raise s.SessionClosed("refusal.table.ended")
    if interaction.guild_id is None:
        if not in_dm:
            raise Refused("refusal.button.elsewhere")
        seated(session, interaction)
    elif interaction.guild_id != session.guild_id or interaction.channel_id not in (
        session.channel_id,
        session.lobby_channel_id,
    ):
        raise Refused("refusal.button.elsewhere")
    return session


def seated(session: s.Session, interaction: Interaction) -> str:
    player = session.player_of(interaction.user.id)
    if player is None:
        raise s.NotSeated("refusal.seat.none")
    return player


def mark_active(interaction: Interaction, session: s.Session, player: str) -> None:
    with contextlib.suppress(RuntimeError):
        notifier(interaction).touch(session.game_id, session.guild_id, session.channel_id, player)


def set_quiet(interaction: Interaction, away: bool) -> None:
    """The person's choice reaches the display at once (it is stored already)."""
    with contextlib.suppress(RuntimeError):
        quiet = notifier(interaction).quiet_users
        if away:
            quiet.add(interaction.user.id)
        else:
            quiet.discard(interaction.user.id)


async def look_of(interaction: Interaction) -> PersonalSettings:
    """What the person chose for the pictures and hands they see."""
    return await manager(interaction).personal_settings.of(interaction.user.id)


def is_moderator(interaction: Interaction, permission: str = "manage_messages") -> bool:
    if interaction.guild_id is None:
        return False
    return bool(getattr(interaction.permissions, permission, False))


def names_of(session: s.Session | None) -> Mapping[str, str] | None:
    return dict(session.names) if session is not None else None


def remember(interaction: Interaction) -> None:
    """Keep the person's language for the DMs the worker sends them later."""
    with contextlib.suppress(RuntimeError):
        notifier(interaction).remember_locale(interaction.user.id, locale_of(interaction))


# --- the lobby ----------------------------------------------------------------------------


def lobby_text_of(session: s.Session, loc: str, state: str = "open") -> str:
    players = present.seat_names(session.seats, loc)
    host = next((x.display_name for x in session.seats if x.user_id == session.host_id), None)
    return present.lobby_text(
        session.ruleset, players, host, loc, state=state, timer=session.turn_timer
    )


REQUIRED_PERMISSIONS = (
    # What the bot's channel posts use: text, pictures as attachments, edits and deletes of
    # its own messages. No embed is ever sent, so Embed Links is not asked for.
    ("view_channel", "permission.view_channel"),
    ("send_messages", "permission.send_messages"),
    ("attach_files", "permission.attach_files"),
    ("read_message_history", "permission.read_message_history"),
)


def missing_permissions(interaction: Interaction) -> list[str]:
    """The catalog keys of the channel permissions the bot lacks; none when it cannot tell."""
    have = interaction.app_permissions
    if have.value == 0:
        # Discord always sends them; zero means none or not sent: ask the cache.
        cached = _cached_permissions(interaction)
        if cached is None:
            return []
        have = cached
    needed = list(REQUIRED_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed.append(("send_messages_in_threads", "permission.send_messages_in_threads"))
    return [key for name, key in needed if not getattr(have, name)]


def _cached_permissions(interaction: Interaction) -> discord.Permissions | None:
    guild = interaction.guild
    channel = interaction.channel
    me = guild.me if guild is not None else None
    if me is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    return channel.permissions_for(me)


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
        threaded = await threads.wanted(interaction, manager(interaction))
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
        have = _cached_permissions(interaction) or have
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
        display.claim(game_id, session.guild_id, session.channel_id, "lobby")
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
            display.release(game_id, "lobby", shown=shown)

    await guarded(interaction, work)


async def join_running_without_seat(interaction: Interaction, session: s.Session) -> None:
    """Someone not seated wants in while people hold every seat of the running game: they
    join the queue for the next game here (Play again seats them)."""
    answer = await queue_answer(session, interaction.user, "join", locale_of(interaction))
    if answer is None:  # seated after all, or the game ended meanwhile
        raise s.NoFreeSeat("refusal.seat.no_free")
    await send(interaction, answer)


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
        key = f"hand:{player}"
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
    player would make, from the asker's own view only, in words (:mod:`cogs.hints`)."""

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


# --- pictures as files --------------------------------------------------------------------


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


CLICKS = Clicks(lobby=lobby_button, show_hand=show_hand_button, move=hand_move, pick=hand_pick)
"""What the buttons and menus of ``cogs.items`` do."""
