"""Live games: one session per channel, each applying its actions one at a time.

A session's lock is held from the engine check to the database commit, so two clicks at
once never interleave, while sessions of different channels never wait for each other (they
only share the database lock, for the few milliseconds of a commit). The database is the
source of truth: an action is acknowledged, and after-commit listeners (the Discord layer)
hear about it, only once it is committed. Whatever goes wrong inside one session — a failing
commit, an engine bug — is raised to that session's caller and leaves every other session
alone; the session itself reloads its game from the database before its next action.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.rummy import (
    Action,
    Game,
    PlayerError,
    RoundResult,
    Ruleset,
    action_from_json,
)
from bot.storage import games, hygiene
from bot.storage.database import Database
from bot.storage.hygiene import ForgetReport
from bot.storage.models import GameRecord, GameStatus, NewSeat, Seat, assign_seats, utc_now
from bot.storage.outcome import final_results

log = logging.getLogger(__name__)


class SessionError(Exception):
    """A request about a table that cannot be served; the message is written for a person."""


class NoGameHere(SessionError):
    pass


class ChannelBusy(SessionError):
    pass


class NotAllowed(SessionError):
    pass


class SessionClosed(SessionError):
    """The game ended (finished, abandoned or deleted) while the request waited."""


@dataclass(frozen=True, slots=True)
class Committed:
    """What was just committed for one game; after-commit listeners receive it."""

    session: Session
    player: str | None
    """Who acted (None when the game was abandoned)."""
    action: Action | None
    """None when the game was abandoned."""
    seq: int
    """Length of the game's action log after the commit."""
    rounds: tuple[RoundResult, ...]
    """The rounds this action ended (usually none, at most one)."""
    status: GameStatus


Listener = Callable[[Committed], Awaitable[None]]


class Session:
    """One live game. Create sessions through :class:`SessionManager`, never directly."""

    def __init__(
        self,
        record: GameRecord,
        game: Game,
        db: Database,
        listeners: Sequence[Listener],
        on_close: Callable[[Session], None],
    ) -> None:
        self.record = record
        """The game as stored when the session opened (seats, server, channel, host)."""
        self._game = game
        self._db = db
        self._listeners = listeners
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self._notify_lock = asyncio.Lock()
        self._stale = False
        self._closed = False
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- what the Discord layer reads ------------------------------------------------------

    @property
    def game_id(self) -> int:
        return self.record.id

    @property
    def channel_id(self) -> int:
        return self.record.channel_id

    @property
    def guild_id(self) -> int:
        return self.record.guild_id

    @property
    def host_id(self) -> int | None:
        return self.record.host_id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.record.seats

    @property
    def game(self) -> Game:
        """The engine's game: read it, never change it (changes go through :meth:`apply`)."""
        return self._game

    @property
    def lock(self) -> asyncio.Lock:
        """Held while an action is checked and committed; a turn timer takes it the same way."""
        return self._lock

    @property
    def closed(self) -> bool:
        return self._closed

    # --- changing the game -------------------------------------------------------------------

    async def apply(self, player: str | None, action: Action) -> Committed:
        """Check and apply ``action`` for ``player``, commit it, then tell the listeners.

        A :class:`PlayerError` from the engine propagates unchanged and nothing is written.
        """
        return await self._serialized(lambda: self._apply_locked(player, action))

    async def _apply_locked(self, player: str | None, action: Action) -> Committed:
        actor = player if player is not None else self._game.current_player
        rounds_before = len(self._game.rounds)
        try:
            self._game.apply(action, player)
        except PlayerError:
            raise
        except BaseException:
            self._stale = True
            log.exception("game %s: the engine failed on %s by %s", self.game_id, action, actor)
            raise
        try:
            return await self._commit(actor, action, tuple(self._game.rounds[rounds_before:]))
        except BaseException:
            self._stale = True
            raise

    async def _commit(
        self, actor: str | None, action: Action, rounds: tuple[RoundResult, ...]
    ) -> Committed:
        game = self._game
        seq = len(game.log)
        now = utc_now()
        # Everything is computed before the transaction: other games wait for the database lock.
        snapshot, action_json = game.to_json(include_log=False), game.log_json[-1]
        results = (
            final_results(game.ruleset, game.players, game.scores, game.rounds)
            if game.is_over
            else ()
        )
        async with self._db.transaction() as conn:
            await games.append_action(conn, self.game_id, seq, action_json, snapshot, now)
            for result in rounds:
                await games.record_round(conn, self.game_id, result, game.players)
            if game.is_over:
                await games.finish_game(conn, self.game_id, results, now)
        status = GameStatus.FINISHED if game.is_over else GameStatus.ACTIVE
        if game.is_over:
            self._close()
        return Committed(self, actor, action, seq, rounds, status)

    async def abandon(self, at: datetime | None = None) -> Committed:
        """Record the game as abandoned (no league effect) and close the session."""
        return await self._serialized(lambda: self._abandon_locked(at or utc_now()))

    async def _abandon_locked(self, at: datetime) -> Committed:
        async with self._db.transaction() as conn:
            await games.abandon_game(conn, self.game_id, at)
        self._close()
        return Committed(self, None, None, len(self._game.log), (), GameStatus.ABANDONED)

    async def _serialized(self, work: Callable[[], Awaitable[Committed]]) -> Committed:
        """Run ``work`` under the session lock, then notify in commit order.

        The notify lock is taken before the session lock is let go: listeners hear about
        commits in the order they happened, while the next action need not wait for a slow
        listener (a Discord message edit) of the previous one.
        """
        async with self._lock:
            if self._closed:
                raise SessionClosed("This game is over.")
            if self._stale:
                await self._reload()
            event = await work()
            await self._notify_lock.acquire()
        try:
            for listener in tuple(self._listeners):
                try:
                    await listener(event)
                except Exception:
                    log.exception(
                        "game %s: after-commit listener %r failed", self.game_id, listener
                    )
        finally:
            self._notify_lock.release()
        return event

    async def _reload(self) -> None:
        """Take the game back from the database after a failed action left memory unsure."""
        async with self._db.transaction() as conn:
            record = await games.load_game(conn, self.game_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            self._close()
            raise SessionClosed("This game is over.")
        self._game = await restore_game(self._db, record)
        self._stale = False

    # --- background work (turn timers, computer players) -------------------------------------

    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]:
        """Run ``coro`` for as long as the session lives; its failure is logged, not spread.

        The task is cancelled when the game finishes or is abandoned. It must act through
        :meth:`apply` like everyone else.
        """
        task = asyncio.create_task(coro, name=name or f"game-{self.game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        if self._closed:
            task.cancel()
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error(
                "game %s: background task %s failed",
                self.game_id,
                task.get_name(),
                exc_info=task.exception(),
            )

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()
        self._on_close(self)

    async def _shutdown(self) -> None:
        self._close()
        tasks = [t for t in self._tasks if t is not asyncio.current_task()]
        await asyncio.gather(*tasks, return_exceptions=True)


async def restore_game(
    db: Database, record: GameRecord, actions: list[dict[str, Any]] | None = None
) -> Game:
    """The engine's game of a stored record: its snapshot with the stored log, else a replay
    of the log. ``actions`` is the stored log when the caller has already read it.

    The snapshot holds the state after the last committed action but not the log, which is
    stored once, row by row; loading the snapshot is fast (no replay), and the replay is the
    fallback when a snapshot does not load, so a bad snapshot costs time, never the game.
    """
    if actions is None:
        async with db.transaction() as conn:
            actions = await games.game_actions(conn, record.id)
    try:
        game = Game.from_json(record.snapshot, log_json=actions)
        if len(game.log) == record.action_count and game.players == record.players:
            return game
        log.warning("game %s: snapshot disagrees with its log; replaying the log", record.id)
    except Exception:
        log.exception("game %s: snapshot does not load; replaying the log", record.id)
    return Game.replay(
        Ruleset.from_json(record.ruleset),
        record.players,
        record.seed,
        [action_from_json(a) for a in actions],
    )


class SessionManager:
    """Owns the database and the live sessions (channel id → session).

    The manager's own lock covers opening and closing sessions; actions never take it.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self._sessions: dict[int, Session] = {}
        self._listeners: list[Listener] = []
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SessionManager:
        return cls(await Database.open(path))

    async def close(self) -> None:
        """Stop every session's background work and close the database."""
        for session in list(self._sessions.values()):
            async with session.lock:  # let an action being committed finish first
                await session._shutdown()
        await self.db.close()

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    @property
    def sessions(self) -> Mapping[int, Session]:
        return dict(self._sessions)

    def get(self, channel_id: int) -> Session | None:
        return self._sessions.get(channel_id)

    def by_game(self, game_id: int) -> Session | None:
        """The live session of a game (buttons carry the game id)."""
        return next((s for s in self._sessions.values() if s.game_id == game_id), None)

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        ruleset: Ruleset,
        seats: Sequence[NewSeat],
        seed: int | None = None,
    ) -> Session:
        """Deal a new game in a channel that has none; a bad player count is a PlayerError."""
        async with self._lock:
            if channel_id in self._sessions:
                raise ChannelBusy("A game is already being played in this channel.")
            placed = assign_seats(seats)
            game = Game.new(ruleset, [s.player_id for s in placed], seed=seed)
            try:
                async with self.db.transaction() as conn:
                    record = await games.create_game(
                        conn,
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        ruleset=ruleset.to_json(),
                        seed=game.seed,
                        seats=placed,
                        snapshot=game.to_json(include_log=False),
                        at=utc_now(),
                    )
            except sqlite3.IntegrityError:
                raise ChannelBusy("A game is already being played in this channel.") from None
            return self._add(record, game)

    async def load_active(self) -> int:
        """Open a session for every unfinished game in the database; returns how many.

        A game that cannot be restored is logged and left in the database untouched; the
        others load regardless.
        """
        async with self._lock:
            async with self.db.transaction() as conn:
                records = await games.active_games(conn)
                logs = await games.active_logs(conn, [r.id for r in records])
            loaded = 0
            for record in records:
                if record.channel_id in self._sessions:
                    continue
                try:
                    game = await restore_game(self.db, record, logs.get(record.id))
                except Exception:
                    log.exception("game %s could not be restored; it stays stored", record.id)
                    continue
                self._add(record, game)
                loaded += 1
            return loaded

    async def abandon(self, channel_id: int, *, allowed: bool) -> Committed:
        """Abandon the channel's game; ``allowed`` is the Discord layer's verdict on the asker."""
        if not allowed:
            raise NotAllowed("Only the host or a moderator can abandon this game.")
        session = self._sessions.get(channel_id)
        if session is None:
            raise NoGameHere("No game is being played in this channel.")
        return await session.abandon()

    async def forget_user(self, user_id: int) -> ForgetReport:
        """Delete a person's data (see :mod:`bot.storage.hygiene`); their live games end."""
        async with self._lock:
            abandoned: list[int] = []
            for session in list(self._sessions.values()):
                if any(seat.user_id == user_id for seat in session.seats):
                    with contextlib.suppress(SessionClosed):
                        await session.abandon()
                        abandoned.append(session.game_id)
            async with self.db.transaction() as conn:
                report = await hygiene.forget_user(conn, user_id, utc_now())
        every = tuple(sorted({*abandoned, *report.abandoned_games}))
        return dataclasses.replace(report, abandoned_games=every)

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything about a server; its live sessions close without notice."""
        async with self._lock:
            for session in list(self._sessions.values()):
                if session.guild_id == guild_id:
                    async with session.lock:
                        await session._shutdown()
            async with self.db.transaction() as conn:
                return await hygiene.forget_guild(conn, guild_id)

    def _add(self, record: GameRecord, game: Game) -> Session:
        session = Session(record, game, self.db, self._listeners, self._remove)
        self._sessions[record.channel_id] = session
        return session

    def _remove(self, session: Session) -> None:
        if self._sessions.get(session.channel_id) is session:
            del self._sessions[session.channel_id]
