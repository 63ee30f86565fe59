"""Computer players at a table: where they think, and the seats they play.

Where they think (:class:`Brains`, one per process): off the event loop, so nobody waits on
them. *easy* chooses in microseconds and runs inline; *normal* can take tens of milliseconds
on a big hand, so it runs in a thread; *hard* searches for up to its budget (a second) and
runs in a process pool owned by the manager, so its search never holds the event loop's GIL.

The seats they play (:class:`ComputerSeats`, one per session): each computer seat's player
and what it remembers, and a task playing their moves through the session's operations,
like a person's clicks.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import time
from collections import deque
from collections.abc import Coroutine, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, Protocol

from bot.rummy import Action, Game, GameView, PlayerError
from bot.rummy.computer import (
    DEFAULT_BUDGET,
    ComputerPlayer,
    EasyPlayer,
    HardPlayer,
    catch_up,
    choose_in_process,
    make_player,
    safe_action,
)
from bot.sessions.errors import SessionClosed, StaleAction
from bot.sessions.events import Committed
from bot.values.seats import Seat, SeatKind

log = logging.getLogger(__name__)

DEFAULT_DELAY = 1.5
"""Seconds a computer player waits before each move, so people can follow the game."""


def ignore_interrupts() -> None:
    """In a hard player's worker process: Ctrl-C reaches the whole process group, and the
    bot's own process stops the pool; a worker that took it too would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=ignore_interrupts,
            )
        return self._pool

    def _broken(self, pool: ProcessPoolExecutor) -> None:
        """``pool`` broke (one of its processes died): the next move starts a new one.
        Several games may find out at once; the first one says so and lets it go."""
        if self._pool is not pool:
            return
        log.warning(
            "a hard player's worker process died; starting a new process pool and "
            "planning the moves in flight again there"
        )
        self._pool, self._warming = None, []
        pool.shutdown(wait=False, cancel_futures=True)

    def warm(self) -> None:
        """Start the pool's processes now, when a game with a hard player begins or is
        loaded: starting one (a new interpreter importing the engine) takes about half a
        second, which the first hard move would otherwise add to its own search."""
        if self._warming:
            return
        pool = self._executor()
        try:
            self._warming = [pool.submit(os.getpid) for _ in range(self.workers)]
        except BrokenProcessPool:
            self._broken(pool)  # the first hard move starts the next one

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
            return await self._in_pool(player, view, legal, seed)
        action = await asyncio.to_thread(player.choose, view, legal, random.Random(seed))
        return action, player

    async def _in_pool(
        self, player: HardPlayer, view: GameView, legal: Sequence[Action], seed: int
    ) -> tuple[Action, ComputerPlayer]:
        """Plan in the pool; when it broke, plan again once in a new pool before giving up
        (the caller then plays the safe move)."""
        try:
            return await self._plan(player, view, legal, seed)
        except BrokenProcessPool:
            return await self._plan(player, view, legal, seed)

    async def _plan(
        self, player: HardPlayer, view: GameView, legal: Sequence[Action], seed: int
    ) -> tuple[Action, ComputerPlayer]:
        pool = self._executor()
        start = time.perf_counter()
        try:
            action, after = await asyncio.get_running_loop().run_in_executor(
                pool, choose_in_process, player, view, list(legal), seed
            )
        except BrokenProcessPool:
            self._broken(pool)
            raise
        self.hard_times.append(time.perf_counter() - start)
        return action, after

    async def close(self) -> None:
        """Stop the pool: queued searches are dropped, a running one is waited for (at
        most its budget) so no worker process outlives the bot."""
        pool, self._pool = self._pool, None
        self._warming = []
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


def seat_level(seat: Seat | None) -> str | None:
    """The level of the computer playing ``seat``: a computer seat's own level, or the
    stand-in's on a person's seat handed over; None for a person playing (or no seat)."""
    if seat is None:
        return None
    if seat.kind is SeatKind.HUMAN:
        return seat.stand_in
    return seat.level or "normal"


class PlayedTable(Protocol):
    """What the computer seats read of their session, and the operation they play through.

    They read the committed game (whose turn; the views and legal actions they choose from;
    the log a player made mid-game catches up on) and which seats a computer holds.
    :meth:`play_for` commits a move under the session's lock, refused once the seat is a
    person's again or the turn is over; :meth:`start_task` runs the moves for as long as
    the session lives."""

    @property
    def game_id(self) -> int: ...
    @property
    def game(self) -> Game | None: ...
    @property
    def closed(self) -> bool: ...
    def computer_level(self, player: str) -> str | None: ...
    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]: ...
    async def play_for(
        self, player: str, action: Action, turn: int, *, by: Literal["computer", "timer"]
    ) -> Committed: ...


class ComputerSeats:
    """The computer players of one session (``brains``: where they think; None: nobody
    plays the computer seats, for tests of the table alone)."""

    def __init__(self, table: PlayedTable, brains: Brains | None) -> None:
        self._table = table
        self._brains = brains
        self._players: dict[str, ComputerPlayer] = {}
        self._thinker: asyncio.Task[None] | None = None

    def _to_move(self) -> str | None:
        game = self._table.game
        if game is None or self._table.closed or game.is_over:
            return None
        current = game.view(None).current
        if current is None or self._table.computer_level(current) is None:
            return None
        return current

    def committed(self) -> None:
        """Something was committed (or a loaded game resumes): the players waiting for
        their turn learn from what they now see, and the computers whose turn it is play."""
        table, brains, game = self._table, self._brains, self._table.game
        if brains is None or table.closed or game is None:
            return
        if any(table.computer_level(p) == "hard" for p in game.players):
            brains.warm()
        for player in game.players:
            if player in self._players and self._to_move() != player:
                observe = getattr(self._players[player], "observe", None)
                if observe is not None:
                    observe(game.view(player))
        if self._to_move() is None:
            return
        if self._thinker is not None and not self._thinker.done():
            return  # it plays on while computers are to move
        self._thinker = table.start_task(self._play(brains), name=f"game-{table.game_id}-cpu")

    async def _player(self, player: str, game: Game, brains: Brains) -> ComputerPlayer:
        """The computer holding ``player``'s seat; one made now (after a restart, or to
        stand in for someone absent) first catches up on the round so far, in a thread:
        replaying a long game takes a while."""
        found = self._players.get(player)
        if found is None:
            level = self._table.computer_level(player) or "normal"
            try:
                found = make_player(level, brains.hard_budget)
            except ValueError:
                found = make_player("normal")
            try:
                await asyncio.to_thread(catch_up, found, game, player)
            except Exception:
                # It plays on knowing only what it sees from now on.
                log.exception(
                    "game %s: computer %s could not catch up", self._table.game_id, player
                )
            self._players[player] = found
        return found

    async def _play(self, brains: Brains) -> None:
        """Play every move of the computers whose turn it is, one after the other, each
        after a short pause, through the session's :meth:`~PlayedTable.play_for`."""
        table = self._table
        while (player := self._to_move()) is not None:
            await asyncio.sleep(brains.delay)
            if self._to_move() != player or table.game is None:
                continue
            game = table.game
            view, legal, turn = game.view(player), game.legal_actions(player), game.turn
            if not legal:
                return
            seed = (game.seed ^ (len(game.log) * 0x9E3779B97F4A7C15)) & (2**63 - 1)
            try:
                computer = await self._player(player, game, brains)
                action, after = await brains.choose(computer, view, legal, seed)
                self._players[player] = after
            except BrokenProcessPool:
                # Even a new pool failed: the safe move keeps the table going meanwhile.
                log.warning(
                    "game %s: computer %s plays the safe move: its process pool is broken",
                    table.game_id,
                    player,
                )
                action = safe_action(view, legal)
            except Exception:
                # A bug in a player must not stall the table either.
                log.exception("game %s: computer %s could not choose", table.game_id, player)
                action = safe_action(view, legal)
            if table.game is not game:
                continue  # something else was committed meanwhile: think again
            try:
                await table.play_for(player, action, turn, by="computer")
            except (StaleAction, SessionClosed):
                return
            except PlayerError:
                log.error("game %s: computer %s chose %s, refused", table.game_id, player, action)
                fallback = safe_action(view, legal)
                await table.play_for(player, fallback, turn, by="computer")
