"""The Discord messages of one game: which ones show it, and what they still have to show."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import sessions as s

HOOK_LIFETIME = 14 * 60
"""Seconds an interaction's webhook is used for; Discord keeps it valid for 15 minutes."""


@dataclass
class GameMessages:
    """What the bot has on Discord for one game, and what it still has to show."""

    game_id: int
    guild_id: int
    channel_id: int
    """Where the game lives: its thread, or the channel of its lobby."""
    locale: str = "en"
    lobby_channel_id: int | None = None
    """The channel of the lobby message when the game lives in a thread started from it."""
    lobby_message: int | None = None
    table_message: int | None = None
    ping_message: int | None = None
    hand_messages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """player -> (DM channel id, message id) of the hand they were last sent."""
    dm_closed: set[str] = field(default_factory=set)
    told_closed: set[str] = field(default_factory=set)
    moves: deque[str] = field(default_factory=lambda: deque(maxlen=2))
    dirty: set[str] = field(default_factory=set)
    """"lobby", "table" and "hand:<player>" still to be shown."""
    notify: str | None = None
    """The player whose turn just began, to be told with a fresh message."""
    active: dict[str, float] = field(default_factory=dict)
    """player -> when they last used a button or command of this game (monotonic)."""
    announcements: list[s.Committed] = field(default_factory=list)
    notices: list[tuple[str, str, int]] = field(default_factory=list)
    """Turn-timer messages still to send: (player or name, "reminder" | "replaced" |
    "back", deadline as a Unix time)."""
    hooks: dict[str, tuple[discord.Interaction[Any], int]] = field(default_factory=dict)
    """player -> (their last interaction on their hand DM, that message's id): its webhook
    edits and deletes that message for 15 minutes without counting against the global
    rate limit."""
    claims: set[str] = field(default_factory=set)
    """Hands an interaction is showing itself (so the worker leaves them alone)."""
    latest: s.Committed | None = None
    turn: int = -1
    names: dict[str, str] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    backoff: float = 0.0
    done: bool = False

    @property
    def thread_id(self) -> int | None:
        """The game's own thread, if it plays in one."""
        return self.channel_id if self.lobby_channel_id is not None else None

    def hook(self, player: str, message_id: int) -> discord.Interaction[Any] | None:
        """The live interaction on ``player``'s hand message ``message_id``, if any."""
        found = self.hooks.get(player)
        if found is None or found[1] != message_id:
            return None
        interaction = found[0]
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        return interaction if age < HOOK_LIFETIME else None
