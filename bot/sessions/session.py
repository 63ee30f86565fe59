"""One lobby or game: its operations run one at a time, commit, then are told to listeners.

Each operation holds the session's lock from its checks to its database commit, so two
clicks at once never interleave; sessions of different channels never wait for each other
(they share only the store, for the few milliseconds of a commit).

Commit, then show: an action is applied to a copy of the game, and the copy replaces the
game only once its commit is done, so nothing anyone reads (views, legal actions, events)
was ever missing from the database.

Listeners run in the session's own task, fed by a queue in commit order. An operation
returns as soon as its commit is done, whatever the listeners are doing, and a listener, a
timer or a computer player may call any operation without waiting on itself.

The turn timer (:mod:`bot.sessions.timers`) and the computer seats
(:mod:`bot.sessions.computers`) are the session's own, told of every commit, and change the
table only through its operations.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from bot.infrastructure.background import wait_at_most
from bot.rummy import Action, Game, GameView, PlayerError, RoundResult, RulesError, Ruleset
from bot.sessions.computers import Brains, ComputerSeats, seat_level
from bot.sessions.errors import (
    LobbyError,
    NoFreeSeat,
    NotAllowed,
    NotSeated,
    SeatHeld,
    SessionClosed,
    StaleAction,
)
from bot.sessions.events import Committed, EventKind, Listener, SessionStatus
from bot.sessions.expiry import LobbyWatch
from bot.sessions.healing import Supervisor
from bot.sessions.names import clean_name
from bot.sessions.restore import restore_game
from bot.sessions.timers import STAND_IN_LEVEL, Timing, TurnTimer
from bot.storage import (
    DELETED_NAME,
    GameChanged,
    GameRecord,
    GameStatus,
    StorageError,
    Store,
)
from bot.values.clock import utc_now
from bot.values.league import final_results
from bot.values.seats import Deadline, NewSeat, Seat, SeatKind, assign_seats

log = logging.getLogger(__name__)


def takeable(seat: Seat, open_seats: bool) -> bool:
    """Whether someone not seated may take over ``seat``: a computer player's, handed to it
    by a person who left, or one the host added when they opened those (``open_seats``)."""
    return seat.kind is SeatKind.COMPUTER and (seat.assisted or open_seats)


LEVEL_LIMIT = 16
PLACING_LIMIT = 10.0
"""Seconds a deal waits at most for its lobby to move into its thread."""
_E = TypeVar("_E", bound="Committed | None")


_NO_VIEWS: Mapping[str | None, GameView] = MappingProxyType({})
_NO_LEGAL: Mapping[str, tuple[Action, ...]] = MappingProxyType({})


class Session:
    """One live table. Sessions are made by :class:`~bot.sessions.SessionManager` only."""

    def __init__(
        self,
        record: GameRecord,
        game: Game | None,
        store: Store,
        listeners: Sequence[Listener],
        on_close: Callable[[Session], None],
        brains: Brains | None = None,
        timing: Timing | None = None,
    ) -> None:
        timing = timing or Timing()
        self._deadline: Deadline | None = record.deadline
        self._timer = TurnTimer(self, timing)
        self._timing = timing
        self._idle = LobbyWatch(self, timing)
        self._supervisor = Supervisor(self, timing)
        self._computers = ComputerSeats(self, brains)
        self._record = record
        self._game = game
        self._ruleset = Ruleset.from_json(record.ruleset)
        self._store = store
        self._listeners = listeners
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self._stale = False
        self._closed = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._events: asyncio.Queue[Committed | None] = asyncio.Queue()
        self._placed = asyncio.Event()
        self._notifier = asyncio.create_task(
            self._notify_loop(), name=f"game-{record.id}-listeners"
        )

    # --- what the Discord layer reads ------------------------------------------------------

    @property
    def game_id(self) -> int:
        return self._record.id

    @property
    def guild_id(self) -> int:
        return self._record.guild_id

    @property
    def channel_id(self) -> int:
        return self._record.channel_id

    @property
    def lobby_channel_id(self) -> int | None:
        """The text channel of the lobby message when the game lives in a thread started
        from it (:attr:`channel_id` is then the thread); None when it plays there."""
        return self._record.lobby_channel_id

    @property
    def host_id(self) -> int | None:
        return self._record.host_id

    @property
    def status(self) -> SessionStatus:
        return SessionStatus.of(self._record.status)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._record.seats

    @property
    def names(self) -> Mapping[str, str]:
        """Player id to display name (at most 32 characters, no control characters)."""
        return MappingProxyType({s.player_id: s.display_name for s in self._record.seats})

    @property
    def turn(self) -> int:
        """The current turn number (``GameView.turn``); 0 before the deal."""
        return 0 if self._game is None else self._game.turn

    @property
    def seq(self) -> int:
        """How many actions are committed."""
        return 0 if self._game is None else len(self._game.log)

    def player_of(self, user_id: int) -> str | None:
        """The engine's id of a person seated here, else None."""
        return next((s.player_id for s in self._record.seats if s.user_id == user_id), None)

    def view(self, player: str | None) -> GameView:
        """The committed table as ``player`` may see it (None, or anyone not seated: a
        spectator). Before the deal there is nothing to see: :class:`LobbyError`."""
        return self._dealt().view(player)

    @property
    def idle_since(self) -> datetime | None:
        """A lobby's last join, leave or added computer (its creation before any); None once
        dealt or closed (nothing to expire)."""
        if self._closed or self._record.status is not GameStatus.LOBBY:
            return None
        return self._record.last_activity

    def legal_actions(self, player: str) -> list[Action]:
        """What ``player`` may do now; empty when it is not their turn, before the deal and
        after the end."""
        if self._game is None or self._closed:
            return []
        return self._game.legal_actions(player)

    # --- playing ---------------------------------------------------------------------------

    async def apply(self, player: str, action: Action, *, turn: int | None = None) -> Committed:
        """Check ``action`` by ``player``, commit it, and return once it is committed.

        ``turn`` is the turn the button or menu was built for: checked under the lock, so
        of two clicks made for the same turn only the first can act. Raises
        :class:`NotSeated`, :class:`StaleAction`, the engine's :class:`PlayerError`
        (:class:`~bot.rummy.NotYourTurn`, :class:`~bot.rummy.IllegalAction`),
        :class:`SessionClosed`, or :class:`LobbyError` before the deal. Listeners hear
        about the commit later, in the session's own task.
        """
        return await self._run(lambda: self._apply(player, action, turn))

    async def _apply(
        self, player: str, action: Action, turn: int | None, *, by: str = "person"
    ) -> Committed:
        """``by``: "person", "computer" (refused once the seat is a person's again) or
        "timer" (playing for an absent person)."""
        game = self._dealt()
        if player not in game.players:
            raise NotSeated("error.not_seated")
        seat = self._seat(player)
        if by == "person" and seat is not None and seat.stand_in is not None:
            raise SeatHeld("refusal.seat.held")
        if by == "computer" and self.computer_level(player) is None:
            raise StaleAction("refusal.turn.seat_returned")
        back = by == "person" and seat is not None and seat.missed > 0
        # A stand-in's move: the seat is no longer played by its own person alone.
        assisted = (
            by == "computer"
            and seat is not None
            and seat.kind is SeatKind.HUMAN
            and not seat.assisted
        )
        if turn is not None and turn != game.turn:
            raise StaleAction("refusal.turn.earlier")
        draft = game.copy()
        rounds_before = len(draft.rounds)
        try:
            draft.apply(action, player)
        except PlayerError:
            raise
        except Exception:
            number = game.players.index(player)
            log.exception(
                "game %s: the engine failed on %s by seat %d", self.game_id, action, number
            )
            raise
        rounds = tuple(draft.rounds[rounds_before:])
        seq = len(draft.log)
        now = utc_now()
        # Everything is computed before the transaction: other games wait for the store.
        snapshot, action_json = draft.to_json(include_log=False), draft.log_json[-1]
        results = (
            final_results(draft.ruleset, draft.players, draft.scores, draft.rounds)
            if draft.is_over
            else ()
        )
        season: int | None = None
        async with self._store.unit() as repo:
            await repo.append_action(self.game_id, seq, action_json, snapshot, now)
            if back:
                await repo.set_stand_in(self.game_id, player, 0, None)
            if assisted:
                await repo.mark_assisted(self.game_id, player)
            for result in rounds:
                await repo.record_round(self.game_id, result, draft.players)
            if draft.is_over:
                season = await repo.finish_game(self.game_id, results, now)
        self._game = draft
        self._record = dataclasses.replace(self._record, action_count=seq, snapshot=snapshot)
        if draft.is_over:
            self._record = dataclasses.replace(
                self._record, status=GameStatus.FINISHED, finished_at=now, season=season
            )
        if back:
            self._record_seat(player, 0, None)
        if assisted:
            self._replace_seat(player, assisted=True)
        return self._event(EventKind.ACTION, player, action, rounds, timed=by == "timer")

    # --- the lobby -------------------------------------------------------------------------

    async def join(self, user_id: int, display_name: str) -> Committed:
        """Take a seat before the deal."""
        return await self._run(lambda: self._join(user_id, display_name))

    async def _join(self, user_id: int, display_name: str) -> Committed:
        player = self.player_of(user_id)
        seat = None if player is None else self._seat(player)
        if player is not None and seat is not None and seat.stand_in is not None:
            # Back at the keyboard: the computer player gives the seat back.
            await self._set_seat(player, 0, None)
            return self._event(EventKind.SEAT, player)
        if self._record.status is GameStatus.ACTIVE:
            if player is not None:  # (seated by a click of theirs just before this one)
                raise LobbyError("refusal.lobby.seated")
            return await self._take_over(user_id, clean_name(display_name))
        self._lobby()
        if self.player_of(user_id) is not None:
            raise LobbyError("refusal.lobby.seated")
        self._room_for_one()
        seats = [*self._new_seats(), NewSeat.human(user_id, clean_name(display_name))]
        return await self._save_lobby(self.host_id, seats, str(user_id))

    async def leave(self, user_id: int, *, level: str = STAND_IN_LEVEL) -> Committed:
        """Give up a seat. Before the deal: a host who leaves hands the table to the next
        person seated; with nobody left, the lobby is cancelled. In a dealt game: a computer
        player of ``level`` plays the seat from now on (at once when it is its turn), the
        person is kept as a leaver (a league forfeit) and may not sit down here again; the
        last person to leave ends the game instead (abandoned: no league effect)."""

        async def work() -> Committed:
            if self._record.status is GameStatus.LOBBY:
                return await self._remove(user_id, str(user_id))
            return await self._leave_running(user_id, level)

        return await self._run(work)

    async def _leave_running(self, user_id: int, level: str) -> Committed:
        self._dealt()
        player = self.player_of(user_id)
        seat = None if player is None else self._seat(player)
        if player is None or seat is None:
            raise NotSeated("refusal.seat.none")
        # The last person leaving ends the game (no league effect): computers do not play
        # on for nobody.
        last = not any(x.kind is SeatKind.HUMAN for x in self.seats if x.player_id != player)
        now = utc_now()
        ended: GameStatus | None = None
        async with self._store.unit() as repo:
            await repo.seat_left(self.game_id, seat, level)
            if last:
                ended = await repo.abandon_game(self.game_id, now)
        computer = dataclasses.replace(
            seat,
            kind=SeatKind.COMPUTER,
            user_id=None,
            level=level,
            missed=0,
            stand_in=None,
            assisted=True,
        )
        host = self.host_id
        if host == user_id:
            host = next((x.user_id for x in self.seats if x.user_id not in (None, user_id)), None)
        self._record = dataclasses.replace(
            self._record,
            host_id=host,
            seats=tuple(computer if x.player_id == player else x for x in self.seats),
            leavers=(*self._record.leavers, user_id),
        )
        if ended is not None:
            self._record = dataclasses.replace(self._record, status=ended, finished_at=now)
            return self._event(EventKind.CANCELLED, player)
        return self._event(EventKind.SEAT, player)

    async def _take_over(self, user_id: int, display_name: str) -> Committed:
        """Seat a person in the first seat a computer player holds (one added in the lobby,
        or one playing for a person who left) for the rest of the game."""
        if user_id in self._record.leavers:
            raise LobbyError("refusal.seat.left")
        seat = self.free_seat()
        if seat is None:
            raise NoFreeSeat("refusal.seat.no_free")
        async with self._store.unit() as repo:
            await repo.seat_taken(self.game_id, seat.seat, user_id, display_name)
        self._replace_seat(
            seat.player_id,
            kind=SeatKind.HUMAN,
            user_id=user_id,
            display_name=display_name,
            level=None,
            missed=0,
            stand_in=None,
            assisted=True,
        )
        return self._event(EventKind.SEAT, seat.player_id)

    def free_seat(self) -> Seat | None:
        """The seat someone not seated would take over now: the first a computer player
        holds in a dealt game, for a person who left or, when the host opened them, one
        the host added; None in a lobby, or when none may be taken."""
        if self._record.status is not GameStatus.ACTIVE:
            return None
        return next((x for x in self.seats if takeable(x, self._record.open_seats)), None)

    async def kick(self, by_user: int, target: int | str, *, moderator: bool) -> Committed:
        """Take someone out of the lobby: ``target`` is a person's user id, or the player id
        of a computer seat (``"cpu-1"``). Host or moderator only."""

        async def work() -> Committed:
            if not self._may_run_table(by_user, moderator):
                raise NotAllowed("refusal.table.host_only.kick")
            return await self._remove(target, self.player_of(by_user))

        return await self._run(work)

    async def add_computer(
        self,
        by_user: int,
        level: str,
        *,
        moderator: bool,
        naming: Callable[[int], str] = lambda number: f"Computer {number}",
    ) -> Committed:
        """Seat a computer player of strength ``level``. Host or moderator only. ``naming``
        gives the n-th computer its name in the words of the table's language: a name
        is kept with the game, and everyone reads it."""

        async def work() -> Committed:
            if not self._may_run_table(by_user, moderator):
                raise NotAllowed("refusal.table.host_only.add_computer")
            self._lobby()
            self._room_for_one()
            strength = clean_name(level, LEVEL_LIMIT, fallback="normal")
            taken = {s.display_name for s in self.seats}
            number = next(n for n in range(1, len(taken) + 2) if naming(n) not in taken)
            seats = [*self._new_seats(), NewSeat.computer(naming(number), strength)]
            return await self._save_lobby(self.host_id, seats, self.player_of(by_user))

        return await self._run(work)

    async def start(self, by_user: int, *, moderator: bool) -> Committed:
        """Deal: the lobby becomes a game. Host or moderator only; the ruleset decides how
        many players may sit down. A lobby being moved into its thread is dealt once it is
        there (or after ``PLACING_LIMIT`` seconds, where it is)."""
        await wait_at_most(self._placed, PLACING_LIMIT)

        async def work() -> Committed:
            if not self._may_run_table(by_user, moderator):
                raise NotAllowed("refusal.table.host_only.start")
            self._lobby()
            players = [s.player_id for s in self.seats]
            try:
                game = Game.new(self._ruleset, players, seed=self._record.seed)
            except RulesError as error:
                raise LobbyError("refusal.lobby.rules", reason=error) from error
            async with self._store.unit() as repo:
                await repo.start_game(self.game_id, game.seed, game.to_json(include_log=False))
            self._game = game
            self._record = dataclasses.replace(self._record, status=GameStatus.ACTIVE)
            return self._event(EventKind.STARTED, self.player_of(by_user))

        return await self._run(work)

    async def cancel(self, by_user: int, *, moderator: bool) -> Committed:
        """Call the lobby off, or abandon the game (no league effect). Host or moderator."""

        async def work() -> Committed:
            if not self._may_run_table(by_user, moderator):
                raise NotAllowed("refusal.table.host_only.cancel")
            return await self._end(self.player_of(by_user))

        return await self._run(work)

    async def expire(self, since: datetime) -> Committed | None:
        """Close a lobby that saw no activity since ``since`` (:mod:`bot.sessions.expiry`);
        nothing when it was dealt or someone came or went meanwhile."""

        async def work() -> Committed | None:
            if self.idle_since != since:
                return None
            event = await self._end(None)
            return dataclasses.replace(event, expired_after=self._timing.lobby_idle)

        return await self._run(work)

    async def queue_next(self, user_id: int, display_name: str) -> bool:
        """Put someone who is not seated in the queue for the game after this one (Play
        again seats them); False when they were queued already."""
        return await self._queue(user_id, clean_name(display_name))

    async def leave_queue(self, user_id: int) -> bool:
        """Take someone out of the queue for the next game; False when not in it."""
        return await self._queue(user_id, None)

    async def _queue(self, user_id: int, name: str | None) -> bool:
        changed: list[bool] = []

        async def work() -> None:
            self._dealt()
            if self.player_of(user_id) is not None:
                raise LobbyError("refusal.lobby.seated")
            async with self._store.unit() as repo:
                if name is None:
                    changed.append(await repo.remove_from_queue(self.game_id, user_id))
                else:
                    changed.append(await repo.add_to_queue(self.game_id, user_id, name, utc_now()))

        await self._run(work)
        return changed[0]

    def placed(self) -> None:
        """The lobby is where it will be played (see ``SessionManager.create_lobby``)."""
        self._placed.set()

    async def _move(self, channel_id: int) -> None:
        """Live from now on in ``channel_id``, a thread started from the lobby message (the
        manager's :meth:`~bot.sessions.SessionManager.move_to_thread` calls this)."""
        async with self._lock:
            if self._closed:
                raise SessionClosed("refusal.table.over")
            self._lobby()  # dealt already: the game's messages are in the channel
            async with self._store.unit() as repo:
                await repo.move_game(self.game_id, channel_id)
            self._record = dataclasses.replace(
                self._record, channel_id=channel_id, lobby_channel_id=self._record.channel_id
            )

    # --- the turn timer and the computer seats ----------------------------------------------

    @property
    def game(self) -> Game | None:
        """The committed game (None before the deal), for the turn timer and the computer
        seats to choose from. A commit replaces it and never changes it: read it, never
        apply to it."""
        return self._game

    def computer_level(self, player: str) -> str | None:
        """The level of the computer playing ``player``'s seat; None for a person."""
        return seat_level(self._seat(player))

    def _seat(self, player: str) -> Seat | None:
        return next((x for x in self._record.seats if x.player_id == player), None)

    async def play_for(
        self, player: str, action: Action, turn: int, *, by: Literal["computer", "timer"]
    ) -> Committed:
        """:meth:`apply` for ``player`` by a computer seat (refused once the seat is a
        person's again) or by the turn timer (playing for an absent person)."""
        return await self._run(lambda: self._apply(player, action, turn, by=by))

    async def remind(self, deadline: Deadline) -> Committed | None:
        """Note that the reminder of ``deadline`` went out (stored, so a restart does not
        remind twice) and tell the listeners; nothing when the turn moved on meanwhile."""
        return await self._run(lambda: self._remind(deadline))

    async def _remind(self, deadline: Deadline) -> Committed | None:
        if self._deadline is None or (self._deadline.turn, self._deadline.player) != (
            deadline.turn,
            deadline.player,
        ):
            return None
        reminded = dataclasses.replace(self._deadline, reminded=True)
        async with self._store.unit() as repo:
            await repo.set_deadline(self.game_id, reminded)
        self._deadline = reminded
        return self._event(EventKind.REMINDER, deadline.player)

    async def miss_turn(self, player: str, *, limit: int, stand_in: str) -> Committed | None:
        """Count a turn the timer played for the person in ``player``'s seat; at ``limit``
        turns in a row a computer player of level ``stand_in`` takes the seat (an event
        then) until the person joins again."""
        return await self._run(lambda: self._missed(player, limit, stand_in))

    async def _missed(self, player: str, limit: int, level: str) -> Committed | None:
        seat = self._seat(player)
        if seat is None or seat.kind is not SeatKind.HUMAN or seat.stand_in is not None:
            return None
        missed = seat.missed + 1
        stand_in = level if missed >= limit else None
        await self._set_seat(player, missed, stand_in)
        return self._event(EventKind.SEAT, player) if stand_in is not None else None

    async def _set_seat(self, player: str, missed: int, stand_in: str | None) -> None:
        async with self._store.unit() as repo:
            await repo.set_stand_in(self.game_id, player, missed, stand_in)
        self._record_seat(player, missed, stand_in)

    def _record_seat(self, player: str, missed: int, stand_in: str | None) -> None:
        self._replace_seat(player, missed=missed, stand_in=stand_in)

    def _replace_seat(self, player: str, **fields: Any) -> None:
        seats = tuple(
            dataclasses.replace(x, **fields) if x.player_id == player else x
            for x in self._record.seats
        )
        self._record = dataclasses.replace(self._record, seats=seats)

    async def resume(self) -> None:
        """Set the background work going that a loaded game needs (a computer to move, a
        turn timer, one that ran out while nobody watched); after a fault, from the stored
        state when a commit's fate is unknown."""
        async with self._lock:
            if self._closed:
                return
            if self._stale:
                await self._catch_up()
            else:
                await self._after_commit()

    async def _after_commit(self) -> None:
        """Tell the turn timer and the computer seats that a commit happened (under the
        lock): the turn's deadline is stored before the timer waits on it."""
        await self._keep_deadline(self._timer.due(self._deadline))
        self._timer.follow(self._deadline)
        self._idle.follow()
        self._computers.committed()

    async def _keep_deadline(self, deadline: Deadline | None) -> None:
        if deadline == self._deadline:
            return
        try:
            async with self._store.unit() as repo:
                await repo.set_deadline(self.game_id, deadline)
        except StorageError:
            log.warning("game %s: could not store the turn's deadline", self.game_id)
        self._deadline = deadline

    @property
    def turn_timer(self) -> int:
        """Minutes a person's turn may take; 0 when there is no timer."""
        return self._record.turn_timer

    @property
    def deadline(self) -> datetime | None:
        """When the running turn runs out; None when no timer runs."""
        return None if self._deadline is None else self._deadline.at

    # --- background work (turn timers, computer players) -----------------------------------

    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]:
        """Run ``coro`` for as long as the session lives; its failure is not spread: the
        session picks up from the stored state after a pause (:mod:`bot.sessions.healing`).

        The task is cancelled when the session closes. It acts through the session's
        operations like everyone else (it may call :meth:`apply` freely).
        """
        task = asyncio.create_task(coro, name=name or f"game-{self.game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        if self._closed:
            task.cancel()
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        self._supervisor.ended(task)

    # --- machinery -------------------------------------------------------------------------

    async def _run(self, work: Callable[[], Awaitable[_E]]) -> _E:
        """Run one operation under the lock; queue its event (if any) for the listeners."""
        async with self._lock:
            if self._closed:
                raise SessionClosed("refusal.table.over")
            if self._stale:
                await self._catch_up()
            try:
                event = await work()
            except PlayerError:
                raise
            except GameChanged:
                # Someone else (another process, a deletion) changed the game: memory is
                # behind the database. Take the stored state and refuse this request.
                log.warning("game %s changed under its session; reloading", self.game_id)
                self._stale = True
                await self._catch_up()
                raise StaleAction("refusal.turn.changed") from None
            except BaseException:
                # The commit failed or was interrupted; memory was not changed, but whether
                # the database committed is unknown until it is read back.
                self._stale = True
                if asyncio.current_task() not in self._tasks:
                    self._supervisor.unsure()  # (background work has its own pick-up)
                raise
            self._supervisor.answered()
            if event is not None:
                # The turn's deadline is kept first, so the event carries the new turn's one.
                try:
                    await self._keep_deadline(self._timer.due(self._deadline))
                finally:
                    event = dataclasses.replace(event, deadline=self.deadline)
                    self._publish(event)
                await self._after_commit()
            return event

    async def _catch_up(self) -> None:
        """Take the stored state (a commit whose fate was unknown, or another writer's),
        tell the listeners what memory had missed, and set the turn timer and the computer
        seats going from there. :class:`SessionClosed` when the game is over."""
        event = await self._reload()
        if event is not None:
            if event.status in (SessionStatus.LOBBY, SessionStatus.ACTIVE):
                await self._keep_deadline(self._timer.due(self._deadline))
            self._publish(dataclasses.replace(event, deadline=self.deadline))
        if self._closed:
            raise SessionClosed("refusal.table.over")
        await self._after_commit()

    async def _reload(self) -> Committed | None:
        """Replace memory with the stored game; the event of what memory had missed (None:
        nothing had changed)."""
        async with self._store.unit() as repo:
            record = await repo.load_game(self.game_id)
            logs = await repo.game_logs([self.game_id]) if record is not None else {}
        before, seen = self._record, self._game
        if record is None or record.status in (GameStatus.ABANDONED, GameStatus.CANCELLED):
            gone = dataclasses.replace(self._record, status=GameStatus.ABANDONED)
            self._record = gone if record is None else record
            self._stale = False
            return self._event(EventKind.CANCELLED, None)
        game = None
        if record.status is not GameStatus.LOBBY:
            game = restore_game(record, logs.get(record.id, []))
        self._record = record
        self._game = game
        self._deadline = record.deadline
        self._stale = False
        return self._missed_news(before, seen)

    def _missed_news(self, before: GameRecord, seen: Game | None) -> Committed | None:
        """The event of the stored commits memory had missed (``before``, ``seen``: the
        record and the game it had before reloading), as their own commit would have told
        it; None when memory was up to date."""
        record, game = self._record, self._game
        if before.status is GameStatus.LOBBY and record.status is not GameStatus.LOBBY:
            return self._event(EventKind.STARTED, None)
        if game is not None and (seen is None or len(game.log) > len(seen.log)):
            rounds = tuple(game.rounds[0 if seen is None else len(seen.rounds) :])
            return self._event(EventKind.ACTION, None, rounds=rounds)
        if record.status is GameStatus.LOBBY:
            if (before.seats, before.host_id) != (record.seats, record.host_id):
                return self._event(EventKind.LOBBY, None)
            return None
        # A seat handed to a computer player, taken back, left or taken over (a missed turn
        # alone says nothing to anybody).
        changed = next(
            (
                a
                for a, b in zip(record.seats, before.seats, strict=False)
                if (a.stand_in, a.kind, a.user_id) != (b.stand_in, b.kind, b.user_id)
            ),
            None,
        )
        return None if changed is None else self._event(EventKind.SEAT, changed.player_id)

    def _publish(self, event: Committed) -> None:
        self._events.put_nowait(event)
        if event.status not in (SessionStatus.LOBBY, SessionStatus.ACTIVE):
            self._close()

    async def _notify_loop(self) -> None:
        while True:
            event = await self._events.get()
            try:
                if event is None:
                    return
                for listener in tuple(self._listeners):
                    try:
                        await listener(event)
                    except Exception:
                        log.exception(
                            "game %s: after-commit listener %r failed", self.game_id, listener
                        )
            finally:
                self._events.task_done()

    async def told(self) -> None:
        """Return once every listener has heard every event committed so far: what a
        caller that acts on the listeners' work (a test reading what they did) waits for."""
        await self._events.join()

    def _close(self) -> None:
        """Stop taking operations: background work is cancelled, queued events are still
        told to the listeners, then the listener task ends by itself."""
        if self._closed:
            return
        self._closed = True
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()
        self._events.put_nowait(None)
        self._on_close(self)

    @property
    def notifier(self) -> asyncio.Task[None]:
        """The listener task (the manager waits for it when shutting down)."""
        return self._notifier

    @property
    def waiting_events(self) -> int:
        """Commits published and not yet taken by the listener task: 0 once it caught up."""
        return self._events.qsize()

    async def _shutdown(self) -> None:
        """Close under the lock, so an operation being committed finishes first."""
        async with self._lock:
            self._close()
        current = asyncio.current_task()
        tasks = [t for t in self._tasks if t is not current]
        await asyncio.gather(*tasks, return_exceptions=True)

    def _event(
        self,
        kind: EventKind,
        actor: str | None,
        action: Action | None = None,
        rounds: tuple[RoundResult, ...] = (),
        *,
        timed: bool = False,
    ) -> Committed:
        game = self._game
        legal: Mapping[str, tuple[Action, ...]] = _NO_LEGAL
        if game is None:
            views = _NO_VIEWS
        else:
            every: dict[str | None, GameView] = {p: game.view(p) for p in game.players}
            every[None] = game.view(None)
            views = MappingProxyType(every)
            legal = MappingProxyType({p: tuple(self.legal_actions(p)) for p in game.players})
        status = SessionStatus.of(self._record.status)
        return Committed(
            game_id=self.game_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            kind=kind,
            status=status,
            actor=actor,
            action=action,
            seq=self.seq,
            turn=self.turn,
            rounds=rounds,
            seats=self.seats,
            views=views,
            host_id=self.host_id,
            ruleset=self._ruleset,
            turn_timer=self._record.turn_timer,
            open_seats=self._record.open_seats,
            timed=timed,
            deadline=self.deadline,
            legal=legal,
            lobby_channel_id=self.lobby_channel_id,
        )

    def _dealt(self) -> Game:
        if self._game is None:
            raise LobbyError("refusal.lobby.not_dealt")
        return self._game

    def _lobby(self) -> None:
        if self._record.status is not GameStatus.LOBBY:
            raise LobbyError("refusal.lobby.started")

    def _room_for_one(self) -> None:
        if len(self.seats) >= self._ruleset.max_players:
            raise LobbyError(
                "refusal.lobby.full", preset=self._ruleset.name, count=self._ruleset.max_players
            )

    def _may_run_table(self, by_user: int, moderator: bool) -> bool:
        """Whether ``by_user`` may kick, add computers, start or cancel: the host or a
        moderator (each caller names its own refusal, so every language can say it whole)."""
        return moderator or (self.host_id is not None and by_user == self.host_id)

    def _new_seats(self) -> list[NewSeat]:
        return [s.as_new() for s in self.seats]

    async def _remove(self, target: int | str, actor: str | None) -> Committed:
        """Take a person (user id) or a computer (player id) out of the lobby."""
        self._lobby()
        if isinstance(target, int):
            gone = next((s for s in self.seats if s.user_id == target), None)
        else:
            gone = next((s for s in self.seats if s.player_id == target), None)
        if gone is None:
            raise NotSeated("refusal.seat.not_here")
        rest = [s for s in self.seats if s is not gone]
        host = self.host_id
        if gone.user_id is not None and gone.user_id == host:
            host = next((s.user_id for s in rest if s.kind is SeatKind.HUMAN), None)
        if host is None or not any(s.kind is SeatKind.HUMAN for s in rest):
            return await self._end(actor)
        return await self._save_lobby(host, [s.as_new() for s in rest], actor)

    async def _save_lobby(
        self, host_id: int | None, seats: Sequence[NewSeat], actor: str | None
    ) -> Committed:
        placed = assign_seats(seats)
        now = utc_now()
        async with self._store.unit() as repo:
            await repo.update_lobby(self.game_id, host_id, placed)
            await repo.touch_lobby(self.game_id, now)
        self._record = dataclasses.replace(
            self._record, host_id=host_id, seats=placed, touched_at=now
        )
        return self._event(EventKind.LOBBY, actor)

    async def _end(self, actor: str | None) -> Committed:
        now = utc_now()
        async with self._store.unit() as repo:
            status = await repo.abandon_game(self.game_id, now)
        self._record = dataclasses.replace(self._record, status=status, finished_at=now)
        return self._event(EventKind.CANCELLED, actor)

    # --- the channel, the server or a member gone --------------------------------------------

    async def vanish(self) -> bool:
        """End the game because its channel or server is gone: stored as abandoned (no
        league effect, not loaded again) and closed without an event, so nothing more is
        sent to a place that no longer exists. Returns whether it was still live."""
        async with self._lock:
            if self._closed:
                return False
            now = utc_now()
            async with self._store.unit() as repo:
                status = await repo.abandon_game(self.game_id, now)
            self._record = dataclasses.replace(self._record, status=status, finished_at=now)
            self._close()
        return True

    async def member_gone(self, user_id: int, level: str) -> Committed | None:
        """A member left the server or was banned: out of a lobby (like leaving), and in a
        dealt game a computer player of ``level`` takes their seat for the rest of it (the
        league has no forfeit, so the game simply goes on without them)."""
        player = self.player_of(user_id)
        if player is None:
            return None
        if self._record.status is GameStatus.LOBBY:
            return await self.leave(user_id)

        async def work() -> Committed | None:
            seat = self._seat(player)
            if seat is None or seat.stand_in is not None:
                return None
            await self._set_seat(player, seat.missed, level)
            return self._event(EventKind.SEAT, player)

        return await self._run(work)

    # --- deletion requests -----------------------------------------------------------------

    async def forget(self, user_id: int) -> Committed | None:
        """Drop a person who asked to be forgotten: out of a lobby (the host role passes
        on), a dealt game they sit in is abandoned, and their id leaves the host field."""
        async with self._lock:
            if self._closed:
                return None
            seated = any(s.user_id == user_id for s in self.seats)
            try:
                if seated and self._record.status is GameStatus.LOBBY:
                    event = await self._remove(user_id, None)
                elif seated:
                    event = await self._end(None)
                    # What is shown of the ended game no longer names them.
                    gone = next(x.player_id for x in self.seats if x.user_id == user_id)
                    self._replace_seat(gone, display_name=DELETED_NAME)
                    event = self._event(EventKind.CANCELLED, None)
                else:
                    if self.host_id == user_id:
                        self._record = dataclasses.replace(self._record, host_id=None)
                    if user_id in self._record.leavers:  # (their forfeit goes with them)
                        leavers = tuple(x for x in self._record.leavers if x != user_id)
                        self._record = dataclasses.replace(self._record, leavers=leavers)
                    return None
            except GameChanged:
                self._stale = True
                return None
            except BaseException:
                self._stale = True
                raise
            self._publish(event)
            return event
