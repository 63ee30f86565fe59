"""Option values checked against their command's own ranges, before the command runs.

Discord's clients keep a typed value within an option's range (``app_commands.Range``), but
nothing on the bot's side promised it: a modified client or a stale command registration
could send ``timer:-1`` or a number too big for the database. Each range is read from the
command itself, so it is written once; each option says what its range means in words of
its own, in every language.

The rule options of ``/rummy new`` are checked against the chosen variant the same way: an
option the variant does not have is refused with the command's own option name and the
variants that have it, never with the engine's names for its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalog, t
from bot.rummy import PlayerError, RulesError, variants
from cogs.ui.house_options import HOUSE_OPTIONS, HouseOption, offered_by


class OutOfRange(PlayerError):
    """An option value outside its command's range; each option has its own key."""

    templates = catalog(DEFAULT_LOCALE)


Bound = int | float
_REFUSALS: dict[str, Callable[[Bound, Bound], OutOfRange]] = {
    "timer": lambda low, high: OutOfRange("refusal.option.timer", low=low, high=high),
    "target": lambda low, high: OutOfRange("refusal.option.target", low=low, high=high),
    "depth": lambda low, high: OutOfRange("refusal.option.depth", low=low, high=high),
    "meld": lambda low, high: OutOfRange("refusal.option.meld", low=low, high=high),
    "season": lambda low, high: OutOfRange("refusal.option.season", low=low, high=high),
    "page": lambda low, high: OutOfRange("refusal.option.page", low=low, high=high),
    "cards": lambda low, high: OutOfRange("refusal.option.cards", low=low, high=high),
    "reading": lambda low, high: OutOfRange("refusal.option.reading", low=low, high=high),
    "card": lambda low, high: OutOfRange("refusal.option.card", low=low, high=high),
}
"""Per option name (the same name means the same thing in every command), its refusal."""


def ranged(command: app_commands.Command[Any, ..., Any]) -> list[app_commands.Parameter]:
    """The options of ``command`` that have a range (a number) or a length (a text)."""
    return [p for p in command.parameters if p.min_value is not None or p.max_value is not None]


def check_options(interaction: discord.Interaction[Any]) -> None:
    """Refuse a slash command whose option value is out of its range (:class:`OutOfRange`
    with the option's own key); nothing for other interactions."""
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command:
        return
    if not isinstance(command, app_commands.Command):
        return
    for parameter in ranged(command):
        value = getattr(interaction.namespace, parameter.display_name, None)
        if value is None or isinstance(value, bool):
            continue
        size = len(value) if isinstance(value, str) else value
        if not isinstance(size, int | float):
            continue
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and size < low) or (high is not None and size > high):
            raise _REFUSALS[parameter.name](
                low if low is not None else 0, high if high is not None else size
            )


# --- options a variant does not have ------------------------------------------------------


class NotThisVariant(RulesError):
    """A ``/rummy new`` option the chosen variant does not have, said with the command's own
    option names and the variants that have it."""

    templates = catalog(DEFAULT_LOCALE)


def check_variant_options(
    variant_name: str,
    options: Mapping[str, object],
    loc: str,
    table: Sequence[HouseOption] = HOUSE_OPTIONS,
) -> None:
    """Refuse the first of ``options`` (``/rummy new``'s, by option name, as given) that the
    variant ``variant_name`` does not have: :class:`NotThisVariant`, naming the option as the
    command shows it in ``loc`` (``scoring:negative`` for a scoring the variant lacks) and the
    variants that have it."""
    chosen = variants.VARIANTS[variants.ALIASES[variant_name]]
    for option, value in options.items():
        if offered_by(chosen, option, value, table):
            continue
        shown = t(f"cmd.rummy.new.opt.{option}.name", loc)
        if option == "scoring":
            shown += ":" + t(f"choice.{value}", loc)
        having = [v for v in variants.VARIANTS.values() if offered_by(v, option, value, table)]
        raise NotThisVariant(
            "refusal.option.variant",
            option=shown,
            variants=f" {t('word.or', loc)} ".join(t(v.name_key, loc) for v in having),
            variant=t(chosen.name_key, loc),
        )
