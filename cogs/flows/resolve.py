"""Resolving an interaction: who acts, in which game, at which seat, and what the person chose.

Interaction → session is resolved here only: slash commands by the channel they were used in,
components by the game id in their custom id (a button in a DM has no channel of its game).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping

import discord

from bot import sessions as s
from bot.i18n import locale_of
from bot.services.personal_settings import PersonalSettings
from bot.sessions.services import Services
from cogs.display.notifier import Notifier
from cogs.ui.client import Interaction
from cogs.ui.replies import Refused

log = logging.getLogger(__name__)


# --- resolving an interaction ---------------------------------------------------------------


def manager(interaction: Interaction) -> s.SessionManager:
    return interaction.client.sessions


def services(interaction: Interaction) -> Services:
    """The league, replays, settings books and ledger: each caller takes the one it needs."""
    return interaction.client.services


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
    return await services(interaction).personal_settings.of(interaction.user.id)


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
        cached = cached_permissions(interaction)
        if cached is None:
            return []
        have = cached
    needed = list(REQUIRED_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed.append(("send_messages_in_threads", "permission.send_messages_in_threads"))
    return [key for name, key in needed if not getattr(have, name)]


def cached_permissions(interaction: Interaction) -> discord.Permissions | None:
    guild = interaction.guild
    channel = interaction.channel
    me = guild.me if guild is not None else None
    if me is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    return channel.permissions_for(me)
