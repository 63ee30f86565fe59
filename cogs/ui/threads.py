"""A thread per game: whether a new table gets one, its name, starting it from the lobby
message and archiving it at the end.

The thread keeps a game's table, round summaries, pings and the players' chat together and
out of the channel, where only the lobby message stays. Where that cannot be (the command
was used in a thread or in a channel that holds none, the server turned threads off, the bot
lacks a permission or Discord refused), the game plays in the channel as it always did.
"""

from __future__ import annotations

from typing import Final

import discord

from bot.i18n import t
from bot.rummy import Ruleset
from bot.services.server_settings import ServerSettingsBook
from cogs.ui import present
from cogs.ui.client import Interaction

NAME_LIMIT = 100
"""Discord's limit for a thread's name."""
HIDE_AFTER: Final = 10080
"""Minutes of quiet after which Discord stops listing the thread (a week, its longest):
a game paused overnight stays in view."""
THREAD_PERMISSIONS = (
    ("create_public_threads", "permission.create_public_threads"),
    ("send_messages_in_threads", "permission.send_messages_in_threads"),
)
"""What the bot needs in the channel to run a game in a thread of it (archiving its own
thread needs nothing more: Discord lets a thread's creator archive it)."""


async def wanted(interaction: Interaction, settings: ServerSettingsBook) -> bool:
    """Whether a table opened by ``interaction`` should play in a thread of its own: the
    command was used in a text channel (not in a thread, a voice channel's chat or a forum)
    of a server that did not turn threads off."""
    if interaction.guild_id is None or not isinstance(interaction.channel, discord.TextChannel):
        return False
    return (await settings.of(interaction.guild_id)).threads


def missing_permissions(have: discord.Permissions) -> list[str]:
    """The catalog keys of the thread permissions missing from ``have``."""
    return [key for name, key in THREAD_PERMISSIONS if not getattr(have, name)]


def thread_name(ruleset: Ruleset, host: str, loc: str) -> str:
    """The game's name in the channel's thread list: its variant and its host."""
    name = t("thread.name", loc, variant=present.variant_name(ruleset, loc), host=host)
    return name[:NAME_LIMIT]


async def start(interaction: Interaction, message_id: int, name: str) -> discord.Thread:
    """A public thread started from the lobby message (it shares the message's id).
    Raises :class:`discord.HTTPException` when Discord refuses."""
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    message = channel.get_partial_message(message_id)
    return await message.create_thread(name=name, auto_archive_duration=HIDE_AFTER)


async def reopen(client: discord.Client, thread_id: int) -> None:
    """Unarchive the game's thread while its game is shown there (its creator may, unless a
    moderator locked it). Raises :class:`discord.HTTPException` when Discord refuses."""
    await client.http.edit_channel(thread_id, archived=False)


async def rename(client: discord.Client, thread_id: int, name: str) -> None:
    """Give the game's thread a new name (its creator may). Raises
    :class:`discord.HTTPException` when Discord refuses."""
    await client.http.edit_channel(thread_id, name=name)


async def archive(client: discord.Client, thread_id: int, name: str | None = None) -> None:
    """Archive the game's thread once everything of it is shown (renamed to ``name`` in the
    same call, if given); people can still read it and talk on (a message reopens it), and
    it leaves the channel's list."""
    if name is None:
        await client.http.edit_channel(thread_id, archived=True)
    else:
        await client.http.edit_channel(thread_id, archived=True, name=name)
