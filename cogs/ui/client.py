"""The bot as the cogs see it: interactions typed with the Bot subclass, so its sessions and
the services the extensions provide each other are typed attributes, not ``get_cog`` lookups."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import RummyBot

Interaction = discord.Interaction[RummyBot]


def rummy_bot(interaction: discord.Interaction[Any]) -> RummyBot:
    """The bot behind an interaction whose type discord.py leaves open (component callbacks)."""
    client = interaction.client
    if not isinstance(client, RummyBot):
        raise RuntimeError("the Rummy extensions run on the Rummy bot only")
    return client
