"""Option values checked against their command's own ranges, before the command runs.

Discord's clients keep a typed value within an option's range (``app_commands.Range``), but
nothing on the bot's side promised it: a modified client or a stale command registration
could send ``timer:-1`` or a number too big for the database. Each range is read from the
command itself, so it is written once; each option says what its range means in words of
its own, in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalog
from bot.rummy import PlayerError


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
