"""Buttons and select menus that survive restarts.

Every component is a :class:`discord.ui.DynamicItem`: its state (the game, and for moves the
turn it was built for) lives in its custom id (see ``cogs.ui.ids``), so a click after a restart
finds its game, and a click on an old message is refused as stale by the session rather than
applied to a newer turn.

What a click does is not written here: discord.py registers the class of every dynamic item
a sent view carries, so the rows must be built of these very classes, and these classes must
not import the flows that build rows. Each class holds a typed reference to the flow it runs
(``flow``), which the extension that owns the flow binds when it loads
(:func:`cogs.flows.clicks.bind_clicks`, the rematch extension for Play again): a click is its
callback, then that flow.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, Self

import discord

from bot.rummy import Action, DrawStock, EndRound, TakeDiscard
from cogs.ui import ids
from cogs.ui.client import Interaction

VerbFlow = Callable[[Interaction, str, int], Awaitable[None]]
"""The flow of a button that names a verb and its game: (interaction, verb, game id)."""
GameFlow = Callable[[Interaction, int], Awaitable[None]]
"""A button's flow that needs only the game: (interaction, game id)."""
MoveFlow = Callable[[Interaction, int, int, Action], Awaitable[None]]
"""A move button's flow: (interaction, game id, turn, action)."""
PickFlow = Callable[[Interaction, int, int, str], Awaitable[None]]
"""A menu's flow: (interaction, game id, turn, the chosen option's action code)."""


async def unbound(interaction: Interaction, *args: Any) -> None:
    """The flow of an item whose extension is not loaded."""
    raise RuntimeError("no flow is bound to this component")


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=ids.LOBBY_TEMPLATE,
):
    flow: ClassVar[VerbFlow] = unbound

    def __init__(self, verb: str, game_id: int, label: str = "") -> None:
        style = {
            "join": discord.ButtonStyle.success,
            "start": discord.ButtonStyle.primary,
            "cancel": discord.ButtonStyle.danger,
        }.get(verb, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=style,
                custom_id=ids.lobby_id(verb, game_id),
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
    ) -> LobbyButton:
        return cls(match["verb"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await type(self).flow(interaction, self.verb, self.game_id)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"(?!)",
):
    """A button that names its game alone (its subclasses' custom ids, read back by their
    templates): the flow it runs gets the interaction and the game. Never sent itself, its
    own template matches nothing."""

    flow: ClassVar[GameFlow] = unbound
    default_label: ClassVar[str] = ""
    """The English label, when none is given."""

    @staticmethod
    def custom_id_of(game_id: int) -> str:
        raise NotImplementedError

    def __init__(self, game_id: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or self.default_label,
                style=discord.ButtonStyle.secondary,
                custom_id=self.custom_id_of(game_id),
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await type(self).flow(interaction, self.game_id)


class HandButton(GameButton, template=ids.HAND_TEMPLATE):
    """ "Show my hand" on the table message: the hand as an ephemeral answer, for everyone
    whose DMs are closed and anyone who lost their DM."""

    default_label = "Show my hand"
    custom_id_of = staticmethod(ids.hand_id)


class WebButton(GameButton, template=ids.WEB_TEMPLATE):
    """ "Open table" on the table message, when the web table is on: the links to the
    game's page (a seat's for a player, a spectator's for anyone), as an ephemeral answer."""

    default_label = "Open table"
    custom_id_of = staticmethod(ids.web_id)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=ids.MOVE_TEMPLATE,
):
    flow: ClassVar[MoveFlow] = unbound

    def __init__(self, verb: str, game_id: int, turn: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=discord.ButtonStyle.primary
                if verb == "draw"
                else discord.ButtonStyle.secondary,
                custom_id=ids.move_id(verb, game_id, turn),
            )
        )
        self.verb = verb
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveButton:
        return cls(match["verb"], int(match["game"]), int(match["turn"]))

    def action(self) -> Action:
        if self.verb == "take":
            return TakeDiscard(1)
        if self.verb == "end":
            return EndRound()
        return DrawStock()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await type(self).flow(interaction, self.game_id, self.turn, self.action())


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=ids.PICK_TEMPLATE,
):
    flow: ClassVar[PickFlow] = unbound

    def __init__(
        self,
        menu: str,
        game_id: int,
        turn: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=ids.pick_id(menu, game_id, turn),
                placeholder=placeholder or None,
                options=list(options) or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
            )
        )
        self.menu = menu
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveSelect:
        return cls(match["menu"], int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        await type(self).flow(
            interaction, self.game_id, self.turn, str(values[0]) if values else ""
        )


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=ids.AGAIN_TEMPLATE,
):
    """Play again, on a finished game's result: a new lobby with the same seats and options
    (the seats and options are read from storage, so it works after a restart)."""

    flow: ClassVar[GameFlow] = unbound

    def __init__(self, game_id: int, label: str = "Play again") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=ids.again_id(game_id)
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AgainButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await type(self).flow(interaction, self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    AgainButton,
    LobbyButton,
    HandButton,
    MoveButton,
    MoveSelect,
    WebButton,
)
