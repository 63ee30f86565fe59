"""Where computer players think: off the event loop, so nobody waits on them.

*easy* chooses in microseconds and runs inline; *normal* can take tens of milliseconds on a
big hand, so it runs in a thread; *hard* searches for up to its budget (a second) and runs
in a process pool owned by the manager, so its search never holds the event loop's GIL.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from bot.rummy import Action, GameView
from bot.rummy.computer import (
    DEFAULT_BUDGET,
    ComputerPlayer,
    EasyPlayer,
    HardPlayer,
    choose_in_process,
)

DEFAULT_DELAY = 1.5
"""Seconds a computer player waits before each move, so people can follow the game."""


class Brains:
    """The computer players' thinking of one process, and its settings.

    ``delay`` is the pause before each computer move; ``hard_budget`` the seconds a hard
    player may search per move; ``workers`` the processes of the hard players' pool (made on
    the first hard move, shut down by :meth:`close`)."""

    def __init__(
        self,
        *,
        delay: float = DEFAULT_DELAY,
        hard_budget: float = DEFAULT_BUDGET,
        workers: int = 1,
    ) -> None:
        self.delay = delay
        self.hard_budget = hard_budget
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._warming: list[Future[int]] = []
        self.hard_times: deque[float] = deque(maxlen=1000)
        """Seconds each recent hard move took, pool round trip included (for benchmarks)."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a forked copy of a process running threads (SQLite, discord.py) can
            # inherit a held lock.
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def warm(self) -> None:
        """Start the pool's processes now, when a game with a hard player begins or is
        loaded: starting one (a new interpreter importing the engine) takes about half a
        second, which the first hard move would otherwise add to its own search."""
        if not self._warming:
            pool = self._executor()
            self._warming = [pool.submit(os.getpid) for _ in range(self.workers)]

    @property
    def warmed(self) -> bool:
        """Whether the pool's processes have started and answered."""
        return bool(self._warming) and all(f.done() for f in self._warming)

    async def choose(
        self, player: ComputerPlayer, view: GameView, legal: Sequence[Action], seed: int
    ) -> tuple[Action, ComputerPlayer]:
        """The move ``player`` makes, and the player as it is after choosing (what it
        learnt comes back with it from a worker process)."""
        if isinstance(player, EasyPlayer):
            return player.choose(view, legal, random.Random(seed)), player
        if isinstance(player, HardPlayer):
            loop = asyncio.get_running_loop()
            start = time.perf_counter()
            action, after = await loop.run_in_executor(
                self._executor(), choose_in_process, player, view, list(legal), seed
            )
            self.hard_times.append(time.perf_counter() - start)
            return action, after
        action = await asyncio.to_thread(player.choose, view, legal, random.Random(seed))
        return action, player

    async def close(self) -> None:
        """Stop the pool: queued searches are dropped, a running one is waited for (at
        most its budget) so no worker process outlives the bot."""
        pool, self._pool = self._pool, None
        self._warming = []
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
