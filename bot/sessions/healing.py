"""Picking up after a fault in a session's background work.

A computer's move or a turn timer's safe move commits through the session like a click. When
that commit fails (the database refused a write, a disk hiccup, a bug), the task doing it
ends; the session then waits a pause, reloads what the database holds (the failed commit's
fate is unknown until it is read back) and sets its background work going again from there.
The pause doubles while the faults go on, up to a bound, so a database that stays away is
asked twice a minute at most, and one that comes back is used within a second.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from bot.sessions.errors import SessionClosed
from bot.sessions.timers import Timing
from bot.storage import StorageError

log = logging.getLogger(__name__)

_MOST_DOUBLINGS = 32
"""Beyond this many failures the pause stays at its bound (and ``2 ** n`` stays small)."""


@dataclass
class Backoff:
    """The pause before the next try after ``failures`` faults in a row: ``first`` seconds,
    doubling with each further fault, at most ``most`` seconds."""

    first: float
    most: float
    failures: int = 0

    def failed(self) -> float:
        """Count one more fault in a row; the pause before trying again."""
        delay = min(self.most, self.first * 2.0 ** min(self.failures, _MOST_DOUBLINGS))
        self.failures += 1
        return delay

    def succeeded(self) -> int:
        """Something was committed again: start over; returns the faults there were in a
        row (0: nothing had failed)."""
        failures, self.failures = self.failures, 0
        return failures


class HealedTable(Protocol):
    """What the supervisor needs of its session: :meth:`start_task` runs the pick-up like
    any background work (cancelled when the session closes); :meth:`resume` takes the
    stored state if a commit's fate is unknown and sets the background work going again."""

    @property
    def game_id(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]: ...
    async def resume(self) -> None: ...


class Supervisor:
    """Watches one session's background work: when a task fails, the session picks up
    from the stored state after a pause (:class:`Backoff`), and the log says so once per
    fault, not once per try."""

    def __init__(self, table: HealedTable, timing: Timing) -> None:
        self._table = table
        self._backoff = Backoff(timing.retry_first, timing.retry_most)
        self._pick_up: asyncio.Task[None] | None = None

    def ended(self, task: asyncio.Task[Any]) -> None:
        """``task``, a piece of the session's background work, ended (a done callback)."""
        if task.cancelled() or self._table.closed:
            return
        error = task.exception()
        if error is None or isinstance(error, SessionClosed):
            return
        if self._pick_up is not None and not self._pick_up.done():
            return  # the pending pick-up sets every piece of background work going again
        game, name = self._table.game_id, task.get_name()
        delay = self._backoff.failed()
        if self._backoff.failures == 1:
            # A storage error says it all in one line; anything else is a bug: its traceback.
            log.warning(
                "game %s: %s stopped (%s: %s); reloading the stored game and picking up "
                "in %.1f s, then with pauses doubling up to %.0f s while it fails",
                game,
                name,
                type(error).__name__,
                error,
                delay,
                self._backoff.most,
                exc_info=None if isinstance(error, StorageError) else error,
            )
        else:
            log.debug(
                "game %s: %s failed again (%s: %s); next try in %.1f s",
                *(game, name, type(error).__name__, error, delay),
            )
        self._pick_up = self._table.start_task(self._resume(delay), name=f"game-{game}-pick-up")

    def unsure(self) -> None:
        """A person's operation failed before its commit's fate was known (they are told
        by whoever called it): the session looks at the stored state soon, so a commit that
        did happen is shown and the computers and the timer carry on from it, even if
        nobody clicks again."""
        if self._pick_up is None or self._pick_up.done():
            delay, game = self._backoff.first, self._table.game_id
            self._pick_up = self._table.start_task(self._resume(delay), name=f"game-{game}-pick-up")

    async def _resume(self, delay: float) -> None:
        # Failing (the database still away), this task's own end brings a longer pause.
        await asyncio.sleep(delay)
        await self._table.resume()

    def answered(self) -> None:
        """An operation of the session went through: the faults in a row are over."""
        failures = self._backoff.succeeded()
        if failures:
            log.info("game %s: play goes on after %d failed tries", self._table.game_id, failures)
