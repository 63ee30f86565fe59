"""What ``/rummy settings`` (a server's, for people who manage it) and ``/rummy preferences``
(anyone's own) do, and how a server's choices shape ``/rummy new``.

The commands' signatures live with the other ``/rummy`` commands (:mod:`cogs.rummy_command`); their
work is here. Both answer only the person who asked; with no option they show the current
settings. Discord keeps default permissions for top-level commands only, so the server's
command checks Manage Server itself, at run time.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import locale_of, t
from bot.rummy import Ruleset, preset
from bot.services.personal_settings import PersonalSettings
from bot.services.server_settings import ServerSettings
from cogs.flows import resolve
from cogs.ui import present
from cogs.ui.client import Interaction
from cogs.ui.options import check_variant_options
from cogs.ui.replies import Refused, send

log = logging.getLogger(__name__)


# --- a server's settings ------------------------------------------------------------------


async def server_settings(
    interaction: Interaction,
    *,
    threads: bool | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    timer: int | None = None,
    role: discord.Role | None = None,
) -> None:
    """Change what was given (none: change nothing) and show the server's settings.

    ``variant`` replaces the house rules with ``options`` (none given: the variant's own
    rules); ``options`` alone are added to the default variant's house rules. They are
    checked like ``/rummy new``'s before anything is stored. ``role`` @everyone: anyone may
    open tables again."""
    loc = locale_of(interaction)
    if interaction.guild_id is None:
        raise Refused("error.guild_only")
    if not resolve.is_moderator(interaction, "manage_guild"):
        permission = t("permission.manage_guild", loc)
        await send(interaction, t("error.user_missing_permissions", loc, permissions=permission))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    book = resolve.services(interaction).server_settings
    current = await book.of(interaction.guild_id)
    changes: dict[str, Any] = {}
    if threads is not None:
        changes["threads"] = threads
    if variant is not None or options:
        chosen = variant if variant is not None else current.variant
        # Refused in /rummy new's words: the option as the command names it, and the
        # variants that have it.
        check_variant_options(chosen, dict(options or {}), loc)
        rules = dict(options or {})
        if variant is None:
            rules = {**current.options_for(chosen), **rules}
        preset(chosen, **rules)  # refused here, in the person's words, if it cannot be played
        changes["variant"] = chosen
        changes["options"] = rules
    if timer is not None:
        changes["timer"] = timer
    if role is not None:
        changes["opener_role"] = 0 if role.is_default() else role.id
    if changes:
        current = await book.change(interaction.guild_id, **changes)
    lines = [t("settings.saved" if changes else "settings.title", loc)]
    lines.extend(server_lines(current, loc))
    await send(interaction, present.fit(lines))


def server_lines(chosen: ServerSettings, loc: str) -> list[str]:
    """The server's settings, one line each, in the person's words."""
    lines = [t("settings.threads_on" if chosen.threads else "settings.threads_off", loc)]
    variant = present.variant_name(preset(chosen.variant), loc)
    lines.append(t("settings.variant", loc, variant=variant))
    if chosen.options:
        lines.append(t("settings.house_rules", loc, rules=_rules_text(chosen.options, loc)))
    if chosen.timer:
        lines.append(t("settings.timer", loc, minutes=chosen.timer))
    else:
        lines.append(t("settings.no_timer", loc))
    if chosen.opener_role:
        lines.append(t("settings.opener_role", loc, role=f"<@&{chosen.opener_role}>"))
    else:
        lines.append(t("settings.opener_anyone", loc))
    return lines


def _rules_text(options: Mapping[str, Any], loc: str) -> str:
    """House rules by the options that set them, in the person's language: ``jokers: yes,
    target: 500``."""

    def word(value: Any) -> str:
        if isinstance(value, bool):
            return t("word.yes" if value else "word.no", loc)
        return str(value)

    return ", ".join(
        f"{t(f'cmd.rummy.settings.opt.{name}.name', loc)}: {word(value)}"
        for name, value in sorted(options.items())
    )


async def table_to_open(
    interaction: Interaction,
    variant: str | None,
    options: Mapping[str, Any],
    timer: int | None,
) -> tuple[Ruleset, int]:
    """The ruleset and turn timer of the table ``/rummy new`` opens: what the host gave, else
    the server's defaults (its house rules apply to its default variant, under the host's
    options). Refused for someone the server does not let open tables."""
    if interaction.guild_id is None:
        raise Refused("error.guild_only")
    chosen = await resolve.services(interaction).server_settings.of(interaction.guild_id)
    may_open(interaction, chosen)
    name = variant if variant is not None else chosen.variant
    check_variant_options(name, options, locale_of(interaction))
    house = chosen.options_for(name)
    try:
        ruleset = preset(name, **{**house, **options})
    except ValueError:
        if not house:
            raise
        # House rules this version no longer accepts: the table opens without them.
        log.warning("server %s: ignoring house rules %r", interaction.guild_id, house)
        ruleset = preset(name, **options)
    return ruleset, chosen.timer if timer is None else timer


def may_open(interaction: Interaction, chosen: ServerSettings) -> None:
    """Refuse someone without the role the server chose to open tables; people who manage
    the server always may, and so does anyone once that role is gone."""
    if not chosen.opener_role or resolve.is_moderator(interaction, "manage_guild"):
        return
    member = interaction.user
    guild = interaction.guild
    if guild is not None and guild.get_role(chosen.opener_role) is None:
        return
    if isinstance(member, discord.Member) and member.get_role(chosen.opener_role) is not None:
        return
    raise Refused("refusal.open.role", role=f"<@&{chosen.opener_role}>")


# --- a person's own settings --------------------------------------------------------------


async def preferences(interaction: Interaction, **changes: Any) -> None:
    """Change the person's own settings given (``None``: unchanged) and show them all."""
    loc = locale_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    given = {name: value for name, value in changes.items() if value is not None}
    book = resolve.services(interaction).personal_settings
    if given:
        await book.change(interaction.user.id, **given)
    mine = await book.of(interaction.user.id)
    if "notify_when_away" in given:
        resolve.set_quiet(interaction, mine.notify_when_away)
    lines = [t("prefs.saved" if given else "prefs.title", loc)]
    lines.extend(personal_lines(mine, loc))
    await send(interaction, present.fit(lines))


def personal_lines(mine: PersonalSettings, loc: str) -> list[str]:
    """A person's settings, one line each, in their words."""
    return [
        t("prefs.deck_four" if mine.four_colour else "prefs.deck_two", loc),
        t("prefs.theme_light" if mine.theme == "light" else "prefs.theme_dark", loc),
        t("prefs.sort_rank" if mine.sort == "rank" else "prefs.sort_suit", loc),
        t("prefs.notify_when_away" if mine.notify_when_away else "prefs.notify_every_turn", loc),
    ]
