"""The command tree's error handler: what escapes an application command's callback.

Each callback answers its own refusals through :func:`cogs.ui.replies.guarded`; what reaches the
tree happens before or around the callback: a check that failed (the permissions of
``/league newseason``), an option value discord.py could not convert, a command Discord
still offers but this version no longer has. Without a handler discord.py only logs these
and the person sees "The application did not respond". Here each gets a short ephemeral
answer in the person's language through :mod:`cogs.ui.replies`, and one log line.
"""

from __future__ import annotations

import logging
import math
from types import MethodType

import discord
from discord import app_commands

from bot.app import RummyBot
from bot.i18n import DEFAULT_LOCALE, catalog, locale_of, t
from bot.storage import LeaseLost
from cogs.ui.client import Interaction
from cogs.ui.replies import refuse, send

log = logging.getLogger(__name__)


def permission_names(names: list[str], loc: str) -> str:
    """Discord's permission names (``manage_guild``) as the client shows them."""
    known = catalog(DEFAULT_LOCALE)
    words = [
        t(f"permission.{name}", loc)
        if f"permission.{name}" in known
        else name.replace("_", " ").title()
        for name in names
    ]
    return ", ".join(words)


def error_answer(error: app_commands.AppCommandError, loc: str) -> str | None:
    """The answer for an error that is the person's or Discord's doing; None for a bug."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", loc)
    if isinstance(error, app_commands.MissingPermissions):
        return t(
            "error.user_missing_permissions",
            loc,
            permissions=permission_names(error.missing_permissions, loc),
        )
    if isinstance(error, app_commands.BotMissingPermissions):
        return t(
            "error.bot_missing_permissions",
            loc,
            permissions=permission_names(error.missing_permissions, loc),
        )
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", loc, seconds=math.ceil(error.retry_after))
    if isinstance(error, app_commands.CheckFailure):
        return t("error.check_failed", loc)
    if isinstance(error, app_commands.TransformerError):
        return t("error.bad_option", loc)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t("error.outdated_command", loc)
    return None


async def on_tree_error(interaction: Interaction, error: app_commands.AppCommandError) -> None:
    command = interaction.command.qualified_name if interaction.command else "?"
    if isinstance(error, app_commands.CommandInvokeError):
        if isinstance(error.original, LeaseLost):
            log.warning("/%s refused: %s", command, error.original)
        else:
            log.error("/%s failed", command, exc_info=error.original)
        await refuse(interaction, error.original)
        return
    text = error_answer(error, locale_of(interaction))
    if text is None:
        log.error("/%s failed", command, exc_info=error)
        await refuse(interaction, error)
        return
    log.info("/%s refused before running (%s): %s", command, type(error).__name__, error)
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell a person why /%s was refused", command)


async def setup(bot: RummyBot) -> None:
    bot.tree.error(on_tree_error)


async def teardown(bot: RummyBot) -> None:
    bot.tree.on_error = MethodType(app_commands.CommandTree.on_error, bot.tree)  # type: ignore[method-assign]
