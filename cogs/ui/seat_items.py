"""The buttons that change who plays a seat of a running game: Leave the game (and its
confirmation), Take my seat back (a stand-in's person), Take a seat (someone not seated,
while a computer holds one).

Like every component they survive restarts (``cogs.ui.items``); what a click does is the flow
the play extension binds to :attr:`SeatButton.flow`, so this module imports no flow.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from cogs.ui import ids
from cogs.ui.items import VerbFlow, unbound

_STYLES = {
    "leave": discord.ButtonStyle.secondary,
    "sure": discord.ButtonStyle.danger,
    "back": discord.ButtonStyle.success,
    "take": discord.ButtonStyle.success,
}


class SeatButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=ids.SEAT_TEMPLATE,
):
    flow: ClassVar[VerbFlow] = unbound
    """(interaction, verb, game id)"""

    def __init__(self, verb: str, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=_STYLES.get(verb, discord.ButtonStyle.secondary),
                custom_id=ids.seat_id(verb, game_id),
            )
        )
        self.verb = verb
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SeatButton:
        return cls(match["verb"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await type(self).flow(interaction, self.verb, self.game_id)
