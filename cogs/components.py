"""Buttons and select menus that survive restarts, and the builders of the messages' rows.

Every component is a :class:`discord.ui.DynamicItem`: its state (the game, and for moves the
turn it was built for) lives in its custom id, so a click after a restart finds its game, and
a click on an old message is refused as stale by the session rather than applied to a newer
turn. Menus are built from the legal actions only, so they never offer an illegal move, and
they respect Discord's limits (25 options a menu, 5 rows, 100-character ids and values).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.rummy import (
    Action,
    Discard,
    DrawStock,
    EndRound,
    GameView,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
)
from cogs.present import action_code, action_label, card_text

MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_DISCARD_MENUS = 2

Interaction = discord.Interaction[Any]

LOBBY_VERBS = ("join", "leave", "addbot", "start", "cancel")
MOVE_VERBS = ("draw", "take", "end")
MENUS = ("meld", "layoff", "discard", "discard2", "take")


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rummy:lobby:(?P<verb>join|leave|addbot|start|cancel):(?P<game>[0-9]{1,20})",
):
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
                custom_id=f"rummy:lobby:{verb}:{game_id}",
            )
        )
        self.verb = verb
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(match["verb"], int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        from cogs import flows

        await flows.lobby_button(interaction, self.verb, self.game_id)


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rummy:hand:(?P<game>[0-9]{1,20})",
):
    """ "Show my hand" on the table message: the hand as an ephemeral answer, for everyone
    whose DMs are closed and anyone who lost their DM."""

    def __init__(self, game_id: int, label: str = "Show my hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rummy:hand:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        from cogs import flows

        await flows.show_hand_button(interaction, self.game_id)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rummy:do:(?P<verb>draw|take|end):(?P<game>[0-9]{1,20}):(?P<turn>[0-9]{1,9})",
):
    def __init__(self, verb: str, game_id: int, turn: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=discord.ButtonStyle.primary
                if verb == "draw"
                else discord.ButtonStyle.secondary,
                custom_id=f"rummy:do:{verb}:{game_id}:{turn}",
            )
        )
        self.verb = verb
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        return cls(match["verb"], int(match["game"]), int(match["turn"]))

    def action(self) -> Action:
        if self.verb == "take":
            return TakeDiscard(1)
        if self.verb == "end":
            return EndRound()
        return DrawStock()

    async def callback(self, interaction: Interaction) -> None:
        from cogs import flows

        await flows.hand_move(interaction, self.game_id, self.turn, self.action())


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"rummy:pick:(?P<menu>[a-z0-9]{1,10}):(?P<game>[0-9]{1,20}):(?P<turn>[0-9]{1,9})",
):
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
                custom_id=f"rummy:pick:{menu}:{game_id}:{turn}",
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
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        return cls(match["menu"], int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: Interaction) -> None:
        from cogs import flows

        data: Any = interaction.data or {}
        values = data.get("values") or []
        await flows.hand_pick(
            interaction, self.game_id, self.turn, str(values[0]) if values else ""
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    HandButton,
    MoveButton,
    MoveSelect,
)


# --- builders -----------------------------------------------------------------------------

_LOBBY_LABELS = {
    "join": "button.join",
    "leave": "button.leave",
    "addbot": "button.addbot",
    "start": "button.start",
    "cancel": "button.cancel",
}


def lobby_view(game_id: int, loc: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in LOBBY_VERBS:
        view.add_item(LobbyButton(verb, game_id, t(_LOBBY_LABELS[verb], loc)))
    return view


def table_view(game_id: int, loc: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, t("button.show_hand", loc)))
    return view


def _options(actions: Sequence[Action], view: GameView) -> list[discord.SelectOption]:
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for action in actions:
        code = action_code(action, view)
        if code is None or code in seen:
            continue
        seen.add(code)
        options.append(discord.SelectOption(label=action_label(action, view), value=code))
    return options


def hand_view(
    game_id: int, view: GameView, legal: Sequence[Action], loc: str
) -> discord.ui.View | None:
    """The moves for the player whose hand it is, from ``legal`` (their legal actions now);
    None when they have nothing to do (not their turn, game over)."""
    if not legal or view.current != view.viewer or view.is_over:
        return None
    turn = view.turn
    out = discord.ui.View(timeout=None)
    rows = 0
    buttons: list[discord.ui.Item[Any]] = []
    if any(isinstance(a, DrawStock) for a in legal):
        buttons.append(MoveButton("draw", game_id, turn, t("button.draw", loc)))
    if any(isinstance(a, TakeDiscard) and a.depth == 1 for a in legal):
        top = card_text(view.discard[-1]) if view.discard else ""
        buttons.append(MoveButton("take", game_id, turn, t("button.take", loc, card=top)))
    if any(isinstance(a, EndRound) for a in legal):
        buttons.append(MoveButton("end", game_id, turn, t("button.end", loc)))
    if buttons:
        for button in buttons:
            button.row = 0
            out.add_item(button)
        rows = 1
    menus: list[tuple[str, str, list[discord.SelectOption]]] = []
    deep = [a for a in legal if isinstance(a, TakeDiscard) and a.depth > 1]
    if deep:
        menus.append(("take", t("menu.take_deep", loc), _options(deep, view)))
    melds = _options([a for a in legal if isinstance(a, Meld)], view)
    if melds:
        menus.append(("meld", t("menu.meld", loc), melds))
    layoffs = _options([a for a in legal if isinstance(a, LayOff | SwapJoker)], view)
    if layoffs:
        menus.append(("layoff", t("menu.layoff", loc), layoffs))
    discards = _options([a for a in legal if isinstance(a, Discard)], view)
    for index in range(MAX_DISCARD_MENUS):
        chunk = discards[index * MAX_OPTIONS : (index + 1) * MAX_OPTIONS]
        if chunk:
            name = "discard" if index == 0 else "discard2"
            menus.append((name, t("menu.discard", loc), chunk))
    for name, placeholder, options in menus:
        if rows >= MAX_ROWS:
            break
        item = MoveSelect(name, game_id, turn, options[:MAX_OPTIONS], placeholder)
        item.row = rows
        out.add_item(item)
        rows += 1
    return out if out.children else None
