"""Where every INTERACTION_CREATE enters this process, before discord.py dispatches it.

Two things happen here, ahead of the views, dynamic items and app commands:

- An interaction delivered twice (a gateway that replays events after a reconnect, a click
  forwarded by another process that also reached us) is applied once: the ids of the recent
  interactions are remembered, and a repeat is dropped before anything sees it. Discord
  accepts one answer per interaction, so a repeat could only fail or, worse, act twice.
- A click on a game another process owns is given to the :class:`Router` (the forwarding of
  ``bot.cluster.forwarding``), which hands it on instead of letting it be answered here.

discord.py has no public hook before dispatch; the intake replaces the connection state's
``INTERACTION_CREATE`` parser (the gateway looks parsers up in that very dict) and calls
the library's own parser for whatever it lets through, so a click fed here, received or
forwarded, takes exactly the path of one the gateway delivered. This is tied to the pinned
discord.py version (``tests/cluster`` exercises it).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

import discord

log = logging.getLogger(__name__)

Payload = dict[str, Any]

REMEMBERED = 4096
"""Interaction ids kept per process: Discord allows 3 s for an answer, so a repeat that
matters comes within seconds; thousands cover far more than any process receives in that
time."""


class Router(Protocol):
    def takes(self, payload: Payload) -> bool:
        """Whether the router has taken this interaction over (it will forward it, answer
        it or deliver it later); False leaves it to this process."""
        ...


def _no_game(custom_id: str) -> int | None:
    return None


class RecentIds:
    """The last ``size`` ids seen, oldest forgotten first."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self._size = size
        self._ids: OrderedDict[int, None] = OrderedDict()

    def first_time(self, interaction_id: int) -> bool:
        """Remember ``interaction_id``; False when it was seen already."""
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True


class Intake:
    """The gate in front of ``client``'s interaction dispatch (installed on creation)."""

    def __init__(self, client: discord.Client, remembered: int = REMEMBERED) -> None:
        self.client = client
        parsers: dict[str, Callable[[Any], Any]] = client._connection.parsers
        self._dispatch: Callable[[Any], Any] = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self.receive
        self._recent = RecentIds(remembered)
        self.router: Router | None = None
        self.game_of: Callable[[str], int | None] = _no_game
        """The game a component's custom id names while it is live (the cogs know the
        formats and set this when they load); None for the rest."""
        self.repeats = 0
        """Repeats dropped so far (for tests and logs)."""

    def receive(self, payload: Payload) -> None:
        """An interaction from this process's gateway."""
        if not self._first(payload):
            return
        if self.router is not None and self.router.takes(payload):
            return
        self._dispatch(payload)

    def forwarded(self, payload: Payload) -> None:
        """An interaction another process received for a game of ours: dispatched here, never
        handed on again."""
        if self._first(payload):
            self._dispatch(payload)

    def dispatch(self, payload: Payload) -> None:
        """Dispatch an interaction the router gave back (it belongs here after all)."""
        self._dispatch(payload)

    def interaction(self, payload: Payload) -> discord.Interaction[Any]:
        """The library's interaction object for ``payload``, to answer it directly."""
        return discord.Interaction(data=payload, state=self.client._connection)  # type: ignore[arg-type]

    def _first(self, payload: Payload) -> bool:
        interaction_id = int(payload["id"])
        if self._recent.first_time(interaction_id):
            return True
        self.repeats += 1
        log.info("interaction %s was delivered again; the repeat is dropped", interaction_id)
        return False
