"""The rows of buttons and menus each message carries, built of the items in ``cogs.ui.items``.

Menus are built from the legal actions only, so they never offer an illegal move, and they
respect Discord's limits (25 options a menu, 5 rows, 100-character ids and values).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import sessions as s
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
from cogs.ui import present, rule_words
from cogs.ui.ids import LOBBY_VERBS
from cogs.ui.items import (
    AgainButton,
    HandButton,
    LobbyButton,
    MoveButton,
    MoveSelect,
    WebButton,
)
from cogs.ui.present import action_code, action_label, card_text
from cogs.ui.seat_items import SeatButton

MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_DISCARD_MENUS = 2


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


def table_view(
    game_id: int, loc: str, *, seat_free: bool = False, web: bool = False
) -> discord.ui.View:
    """Show my hand; Take a seat while a computer holds one (``seat_free``); Open table
    while the web table is on (``web``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, t("button.show_hand", loc)))
    if seat_free:
        view.add_item(SeatButton("take", game_id, t("button.take_seat", loc)))
    if web:
        view.add_item(WebButton(game_id, t("button.open_table", loc)))
    return view


def again_view(game_id: int, loc: str) -> discord.ui.View:
    """Play again, on the result of the finished game ``game_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(AgainButton(game_id, t("button.again", loc)))
    return view


def _options(
    actions: Sequence[Action], view: GameView, loc: str | None = None
) -> list[discord.SelectOption]:
    """A menu's options; a deep take says, in ``loc``, which card must then be used."""
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for action in actions:
        code = action_code(action, view)
        if code is None or code in seen:
            continue
        seen.add(code)
        if isinstance(action, TakeDiscard) and loc is not None:
            label = rule_words.deep_take_label(action, view, loc)
        else:
            label = action_label(action, view, loc)
        options.append(discord.SelectOption(label=label, value=code))
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
    buttons.append(SeatButton("leave", game_id, t("button.leave_game", loc)))  # asks first
    if buttons:
        for button in buttons:
            button.row = 0
            out.add_item(button)
        rows = 1
    menus: list[tuple[str, str, list[discord.SelectOption]]] = []
    deep = [a for a in legal if isinstance(a, TakeDiscard) and a.depth > 1]
    if deep:
        menus.append(("take", t("menu.take_deep", loc), _options(deep, view, loc)))
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


def lobby_message(
    event: s.Committed, loc: str, thread: int | None = None
) -> tuple[str, discord.ui.View | None]:
    """The lobby message for ``event``: open (with buttons), started or cancelled; for a game
    in ``thread``, once dealt, one line saying where it is played, then its result."""
    ruleset = event.ruleset
    players = present.seat_names(event.seats, loc)
    host = next((x.display_name for x in event.seats if x.user_id == event.host_id), None)
    if event.kind is s.EventKind.LOBBY and event.status is s.SessionStatus.LOBBY:
        text = present.lobby_text(ruleset, players, host, loc, timer=event.turn_timer)
        return text, lobby_view(event.game_id, loc)
    if event.expired_after:
        closed = present.lobby_text(ruleset, players, host, loc, state="cancelled")
        return present.fit([closed, t("lobby.expired", loc, minutes=event.expired_after)]), None
    state = "cancelled" if event.status is s.SessionStatus.ABANDONED else "started"
    if event.kind is s.EventKind.CANCELLED:
        state = "cancelled"
    if thread is not None and state == "started":
        names = {x.player_id: x.display_name for x in event.seats}
        return present.thread_lobby_text(
            ruleset, players, f"<#{thread}>", loc, event.view(None), names, event.game_id
        ), None
    return present.lobby_text(
        ruleset, players, host, loc, state=state, timer=event.turn_timer
    ), None
