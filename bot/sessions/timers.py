"""Turn timers: a reminder at half time, then a safe move for a person who does not play.

A :class:`TurnTimer` belongs to one session. It decides when a person's turn runs out and
waits for that moment in a background task, but it never changes the table itself: what it
does goes through the session's operations, under the session's lock, like any click.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.rummy.computer import safe_action
from bot.sessions.computers import PlayedTable
from bot.sessions.errors import SessionClosed, StaleAction
from bot.sessions.events import Committed
from bot.values.clock import utc_now
from bot.values.seats import Deadline

log = logging.getLogger(__name__)

MISSED_LIMIT = 3
"""Turns in a row the timer plays for a person before a computer player takes their seat."""
STAND_IN_LEVEL = "normal"
"""The level of the computer player that takes an absent person's seat."""


@dataclass
class Timing:
    """The pace of a session's background work.

    ``minute``: seconds a timer minute lasts (60; tests shrink it to run timers in seconds
    without offering people anything shorter than a minute). ``retry_first`` and
    ``retry_most``: the first and the longest pause before a session picks up again after
    its background work failed (a refused write); the pause doubles from one to the other
    while the faults go on (see :mod:`bot.sessions.healing`)."""

    minute: float = 60.0
    lobby_idle: int = 30
    """Minutes a lobby may go without a join, a leave or an added computer before it
    closes itself (``LOBBY_IDLE_MINUTES``; see :mod:`bot.sessions.expiry`)."""
    retry_first: float = 0.5
    retry_most: float = 30.0


class TimedTable(PlayedTable, Protocol):
    """What a turn timer reads of its session, and the operations it acts through: what a
    computer seat has (it plays an absent person's move the same way, through
    :meth:`play_for`, refused once the turn is over), and more.

    It reads the turn timer's length. :meth:`remind` stores that the reminder went out, so a
    restart does not send it twice; :meth:`miss_turn` counts the missed turn on the seat
    and, at the limit, hands the seat to a computer player. Both commit under the session's
    lock."""

    @property
    def turn_timer(self) -> int: ...
    async def remind(self, deadline: Deadline) -> Committed | None: ...
    async def miss_turn(self, player: str, *, limit: int, stand_in: str) -> Committed | None: ...


async def _sleep_until(moment: datetime) -> None:
    delay = (moment - utc_now()).total_seconds()
    if delay > 0:
        await asyncio.sleep(delay)


class TurnTimer:
    """The turn timer of one session: the deadline of a person's turn and a task waiting
    on it (at most one; a new turn replaces it)."""

    def __init__(self, table: TimedTable, timing: Timing) -> None:
        self._table = table
        self._timing = timing
        self._task: asyncio.Task[None] | None = None
        self._key: tuple[int, str] | None = None

    def _seconds(self) -> float:
        return self._table.turn_timer * self._timing.minute

    def due(self, running: Deadline | None) -> Deadline | None:
        """The deadline the table should keep after a commit (``running``: the one it
        keeps now): the same while the same person's turn goes on, a new one when a person's
        turn begins, none on a computer's turn, without a timer, or once the game is over."""
        table = self._table
        game = table.game
        if table.turn_timer <= 0 or game is None or table.closed:
            return None
        current = None if game.is_over else game.view(None).current
        if current is None or table.computer_level(current) is not None:
            return None
        if running is not None and (running.turn, running.player) == (game.turn, current):
            return running
        return Deadline(game.turn, current, utc_now() + timedelta(seconds=self._seconds()))

    def follow(self, deadline: Deadline | None) -> None:
        """Wait on ``deadline`` (None: on nothing). Called by the session under its lock,
        once the deadline is stored, so the wait never acts on an unstored deadline; the
        running wait goes on when the turn it waits for is still the same."""
        key = None if deadline is None else (deadline.turn, deadline.player)
        if key == self._key and self._task is not None and not self._task.done():
            return
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task, self._key = None, key
        if deadline is not None:
            name = f"game-{self._table.game_id}-timer"
            self._task = self._table.start_task(self._wait(deadline), name=name)

    async def _wait(self, deadline: Deadline) -> None:
        """Remind at half time, then play the turn safely when it runs out."""
        if not deadline.reminded:
            half = deadline.at - timedelta(seconds=self._seconds() / 2)
            await _sleep_until(half)
            if utc_now() < deadline.at:
                await self._table.remind(deadline)
        await _sleep_until(deadline.at)
        await self._time_out(deadline)

    async def _time_out(self, deadline: Deadline) -> None:
        """Play the absent person's turn safely (draw, discard the highest loose card), and
        after too many in a row hand their seat to a computer player."""
        table = self._table
        player = deadline.player
        played = False
        for _ in range(8):
            game = table.game
            if game is None or table.closed or game.is_over or game.turn != deadline.turn:
                break
            if game.view(None).current != player or table.computer_level(player) is not None:
                break
            legal = game.legal_actions(player)
            if not legal:
                break
            action = safe_action(game.view(player), legal)
            try:
                await table.play_for(player, action, deadline.turn, by="timer")
            except (StaleAction, SessionClosed):
                return
            played = True
        if played and not table.closed:
            await table.miss_turn(player, limit=MISSED_LIMIT, stand_in=STAND_IN_LEVEL)
