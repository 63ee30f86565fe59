"""The custom ids of the buttons and menus: the one place their formats are written.

A custom id carries the state a click needs (the game, and for moves the turn it was built
for), so buttons keep working after a restart. Buttons on messages sent by an older version
must keep working after an upgrade: change nothing here but by adding formats.
"""

from __future__ import annotations

import re

LOBBY_TEMPLATE = r"rummy:lobby:(?P<verb>join|leave|addbot|start|cancel):(?P<game>[0-9]{1,20})"
HAND_TEMPLATE = r"rummy:hand:(?P<game>[0-9]{1,20})"
MOVE_TEMPLATE = r"rummy:do:(?P<verb>draw|take|end):(?P<game>[0-9]{1,20}):(?P<turn>[0-9]{1,9})"
PICK_TEMPLATE = r"rummy:pick:(?P<menu>[a-z0-9]{1,10}):(?P<game>[0-9]{1,20}):(?P<turn>[0-9]{1,9})"
AGAIN_TEMPLATE = r"rummy:again:(?P<game>[0-9]{1,20})"
WEB_TEMPLATE = r"rummy:web:(?P<game>[0-9]{1,20})"

SEAT_TEMPLATE = r"rummy:seat:(?P<verb>leave|sure|back|take):(?P<game>[0-9]{1,20})"
LOBBY_VERBS = ("join", "leave", "addbot", "start", "cancel")
MOVE_VERBS = ("draw", "take", "end")
MENUS = ("meld", "layoff", "discard", "discard2", "take")
SEAT_VERBS = ("leave", "sure", "back", "take")
"""Leave (asks first), sure (leaves), back (take my seat back), take (take over a seat)."""


LIVE_GAME_TEMPLATES = tuple(
    re.compile(template)
    for template in (
        LOBBY_TEMPLATE,
        HAND_TEMPLATE,
        MOVE_TEMPLATE,
        PICK_TEMPLATE,
        SEAT_TEMPLATE,
        WEB_TEMPLATE,
    )
)
"""The components of a lobby or a running game (Play again's belongs to a finished one)."""


def live_game_of(custom_id: str) -> int | None:
    """The game a lobby or game component's custom id names, matched as discord.py matches
    dynamic items; None for any other id. A click on another process's game is forwarded
    by this (``bot.cluster.forwarding``)."""
    for template in LIVE_GAME_TEMPLATES:
        match = template.fullmatch(custom_id)
        if match is not None:
            return int(match["game"])
    return None


def lobby_id(verb: str, game_id: int) -> str:
    return f"rummy:lobby:{verb}:{game_id}"


def hand_id(game_id: int) -> str:
    return f"rummy:hand:{game_id}"


def web_id(game_id: int) -> str:
    """Open table: the links to the game's page on the web table."""
    return f"rummy:web:{game_id}"


def move_id(verb: str, game_id: int, turn: int) -> str:
    return f"rummy:do:{verb}:{game_id}:{turn}"


def again_id(game_id: int) -> str:
    """Play again, on the result of the finished game ``game_id``."""
    return f"rummy:again:{game_id}"


def pick_id(menu: str, game_id: int, turn: int) -> str:
    return f"rummy:pick:{menu}:{game_id}:{turn}"


def seat_id(verb: str, game_id: int) -> str:
    return f"rummy:seat:{verb}:{game_id}"
