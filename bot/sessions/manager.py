"""The live sessions of one process (channel id to session) and the store they share."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Collection, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

from bot.rummy import Game, PlayerError, Ruleset
from bot.sessions.computers import Brains
from bot.sessions.errors import (
    ChannelBusy,
    ErasureUnfinished,
    LobbyError,
    NotAllowed,
    NotSeated,
    SessionClosed,
)
from bot.sessions.events import Listener, SessionStatus
from bot.sessions.names import clean_name
from bot.sessions.rematch import RematchSeats, rematch_seats
from bot.sessions.restore import restore_game
from bot.sessions.services import Services
from bot.sessions.session import Session
from bot.sessions.timers import STAND_IN_LEVEL, Timing
from bot.storage import (
    DuplicateLiveGame,
    ForgetReport,
    GameChanged,
    GameRecord,
    GameStatus,
    MessageRef,
    ShardSet,
    Store,
    open_store,
)
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats
from bot.values.shards import Ownership, StaticOwnership, shard_of

log = logging.getLogger(__name__)


class ErasureHandOff(Protocol):
    """Who asks other processes to erase a person from the live games of their shards."""

    async def ask(self, user_id: int, shards: frozenset[int]) -> None: ...


SHUTDOWN_GRACE = 5.0
"""Seconds the listeners get at shutdown to tell Discord about the last commits."""


class SessionManager:
    """Owns the store and the live sessions of the servers this process owns.

    The manager's own lock covers opening sessions and the requests that touch several
    (deletions); game operations never take it, so a listener may open a lobby.
    """

    def __init__(
        self,
        store: Store,
        brains: Brains | None = None,
        ownership: Ownership | None = None,
        *,
        services: Services | None = None,
    ) -> None:
        self._store = store
        self.ownership: Ownership = ownership if ownership is not None else StaticOwnership()
        """The shards whose servers' games this process loads and plays (by default all)."""
        self.brains = brains if brains is not None else Brains()
        """Where the computer players think, and their pace (``brains.delay``)."""
        self.timing = Timing()
        """The turn timers' pace (``timing.minute``)."""
        self._sessions: dict[int, Session] = {}
        self._by_game: dict[int, Session] = {}
        self._listeners: list[Listener] = []
        self._notifiers: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self.services = services if services is not None else Services.on(store)
        """The league, replays, settings books, message ledger and command-sync record built
        on ``store``: given by whoever opened the store (by default built on it here)."""
        self.erasures: ErasureHandOff | None = None
        """Set with several processes on one database (the cluster's relay): asks the
        holders of other shards to erase a person from their live games."""

    @classmethod
    async def open(
        cls, path: str | Path, *, brains: Brains | None = None, ownership: Ownership | None = None
    ) -> SessionManager:
        return cls(await open_store(path), brains, ownership)

    @property
    def store(self) -> Store:
        """The database the sessions share (the cluster's modules reach it through this)."""
        return self._store

    async def close(self) -> None:
        """Let operations in flight commit, close every session, give the listeners a few
        seconds to tell the last commits, then close the store."""
        for session in list(self._sessions.values()):
            await session._shutdown()
        current = asyncio.current_task()
        pending = [t for t in self._notifiers if t is not current and not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=SHUTDOWN_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self.brains.close()
        await self._store.close()

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    @property
    def sessions(self) -> Mapping[int, Session]:
        """Channel id to live session, as of now."""
        return MappingProxyType(dict(self._sessions))

    def get(self, channel_id: int) -> Session | None:
        return self._sessions.get(channel_id)

    def opened_in(self, channel_id: int) -> list[Session]:
        """The live sessions whose lobby message is in ``channel_id`` but which play in a
        thread of their own, oldest first."""
        return sorted(
            (s for s in self._sessions.values() if s.lobby_channel_id == channel_id),
            key=lambda s: s.game_id,
        )

    async def move_to_thread(self, session: Session, thread_id: int) -> None:
        """The lobby leaves its channel for ``thread_id``, a thread started from its lobby
        message: it is found by the thread from now on (restarts included), and the channel
        is free for another table. Once dealt a game stays where it is (:class:`LobbyError`)."""
        async with self._lock:
            if thread_id in self._sessions:
                raise ChannelBusy("refusal.table.taken")
            old = session.channel_id
            try:
                await session._move(thread_id)
            except DuplicateLiveGame:
                raise ChannelBusy("refusal.table.taken") from None
            if self._sessions.get(old) is session:
                del self._sessions[old]
            if not session.closed:
                self._sessions[thread_id] = session

    def by_game(self, game_id: int) -> Session | None:
        """The live session of a game (buttons and DMs carry the game id)."""
        return self._by_game.get(game_id)

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        ruleset: Ruleset,
        seed: int | None = None,
        turn_timer: int = 0,
        placing: bool = False,
        seats: Sequence[NewSeat] = (),
        rematch_of: int | None = None,
        open_seats: bool = False,
    ) -> Session:
        """Open a table in a channel that has none, with the host in the first seat.

        ``placing``: the caller is about to move the lobby into a thread of its own; it
        cannot be dealt until the caller says it is placed (:meth:`Session.placed`), so its
        first messages never go to the channel it is leaving.

        ``seed`` fixes the deal (for tests and replays); by default it is random.
        ``turn_timer``: minutes a person's turn may take (0: no timer).
        ``open_seats``: people not seated may take over the computer players the host adds
        (a seat a computer plays for a person who left is takeable anyway).
        ``seats``: who sits down at once (the host among them; by default the host alone).
        ``rematch_of``: the finished game whose Play again opens this lobby, noted in the same
        commit, so a game is played again once (else :class:`LobbyError`).
        """
        async with self._lock:
            if channel_id in self._sessions:
                raise ChannelBusy("refusal.table.taken")
            placed = assign_seats(seats or [NewSeat.human(host_id, clean_name(host_name))])
            try:
                async with self._store.unit() as repo:
                    record = await repo.create_game(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        ruleset=ruleset.to_json(),
                        seed=secrets.randbits(63) if seed is None else seed,
                        seats=placed,
                        snapshot=None,
                        at=utc_now(),
                        status=GameStatus.LOBBY,
                        turn_timer=turn_timer,
                        open_seats=open_seats,
                    )
                    if rematch_of is not None:
                        await repo.claim_rematch(rematch_of, record.id)
            except DuplicateLiveGame:
                raise ChannelBusy("refusal.table.broken") from None
            except GameChanged:
                raise LobbyError("refusal.again.done") from None
            session = self._add(record, None)
            if not placing:
                session.placed()
            await session.resume()  # its idle deadline starts now
            return session

    async def play_again(
        self, game_id: int, user_id: int, *, placing: bool = False
    ) -> tuple[Session, RematchSeats]:
        """Open the lobby of the game after the finished ``game_id``, where its lobby was
        opened, with the same variant, options, timer and seats, and the people queued for
        it while seats remain; ``user_id`` (who was seated) hosts it. Refused when it was
        played again already, or that channel has a live table."""
        async with self._store.unit() as repo:
            record = await repo.load_game(game_id)
            queued = await repo.queued(game_id)
        if record is None or record.status is not GameStatus.FINISHED:
            raise SessionClosed("refusal.again.not_finished")
        if not any(s.user_id == user_id for s in record.seats):
            raise NotSeated("refusal.again.not_seated")
        if record.rematch_id is not None:
            raise LobbyError("refusal.again.done")
        ruleset = Ruleset.from_json(record.ruleset)
        plan = rematch_seats(record, queued, ruleset.max_players)
        session = await self.create_lobby(
            guild_id=record.guild_id,
            channel_id=record.lobby_channel_id or record.channel_id,
            host_id=user_id,
            host_name="",
            ruleset=ruleset,
            turn_timer=record.turn_timer,
            open_seats=record.open_seats,
            placing=placing,
            seats=plan.seats,
            rematch_of=game_id,
        )
        return session, plan

    async def unsee_rematch(self, game_id: int, session: Session) -> None:
        """The lobby Play again of ``game_id`` opened (``session``) could not be shown:
        it is called off and Play again of ``game_id`` works again, as if never pressed.
        Nothing is released while the lobby lives (its cancel failed: it stays, and so does
        the note that it was opened)."""
        await session.cancel(session.host_id or 0, moderator=True)
        async with self._store.unit() as repo:
            await repo.release_rematch(game_id, session.game_id)

    async def stored_game(self, game_id: int) -> GameRecord | None:
        """The stored game ``game_id`` (live or not), as the database has it."""
        async with self._store.unit() as repo:
            return await repo.load_game(game_id)

    async def load_active(self, guild_ids: Collection[int] | None = None) -> int:
        """Open a session for every stored lobby and unfinished game of the servers this
        process owns (of ``guild_ids`` if given); returns how many were opened.

        A game that cannot be restored is logged and left stored (``clear_broken`` frees
        its channel); the others load regardless.
        """
        if guild_ids is not None:
            return await self._load(None, guild_ids)
        count, held = self.ownership.shard_count, self.ownership.held()
        return await self._load(None if held >= set(range(count)) else held)

    async def load_shards(self, shard_ids: Collection[int]) -> int:
        """Open the stored games of the servers on ``shard_ids``, as a restart does (turn
        timers from their stored deadlines, computer players caught up): for a process that
        has just taken those shards over. Returns how many were opened. Their servers'
        settings are read afresh: another process held them meanwhile."""
        self._forget_settings(frozenset(shard_ids))
        return await self._load(frozenset(shard_ids))

    def _forget_settings(self, shard_ids: frozenset[int]) -> None:
        count = self.ownership.shard_count
        self.services.server_settings.forget_where(
            lambda guild: shard_of(guild, count) in shard_ids
        )

    async def unload_shards(self, shard_ids: Collection[int]) -> int:
        """Drop the sessions of the servers on ``shard_ids`` from this process without
        writing anything: their timers and computer players stop (an operation being
        committed finishes first), and the stored games stay as they are, for the process
        that owns those shards now. Returns how many were dropped."""
        count, ids = self.ownership.shard_count, frozenset(shard_ids)
        self._forget_settings(ids)  # another process changes them from now on
        async with self._lock:
            leaving = [
                s for s in list(self._by_game.values()) if shard_of(s.guild_id, count) in ids
            ]
            for session in leaving:
                await session._shutdown()
        if leaving:
            log.info("shards %s released; %d games unloaded", sorted(ids), len(leaving))
        return len(leaving)

    async def _load(
        self, shard_ids: frozenset[int] | None, guild_ids: Collection[int] | None = None
    ) -> int:
        """Open the stored live games of ``shard_ids`` (None: of every shard, or of
        ``guild_ids`` when given) that have no session yet."""
        async with self._lock:
            async with self._store.unit() as repo:
                if shard_ids is None:
                    records = await repo.live_games(guild_ids)
                else:
                    records = await repo.live_games_of_shards(self.ownership.shard_count, shard_ids)
                dealt = [r.id for r in records if r.status is GameStatus.ACTIVE]
                logs = await repo.game_logs(dealt)
                shown = await repo.game_messages([r.id for r in records])
            loaded = 0
            for record in records:
                if record.channel_id in self._sessions:
                    continue
                game: Game | None = None
                if record.status is GameStatus.ACTIVE:
                    try:
                        game = restore_game(record, logs.get(record.id, []))
                    except Exception:
                        log.exception("game %s could not be restored; it stays stored", record.id)
                        continue
                session = self._add(record, game, shown.get(record.id, ()))
                session.placed()
                await session.resume()
                loaded += 1
            return loaded

    async def clear_broken(self, channel_id: int, *, by_user: int, moderator: bool) -> bool:
        """Abandon the channel's stored live game that no session serves (it could not be
        loaded), so a broken game never blocks its channel. Host or moderator; returns
        whether there was one."""
        async with self._lock:
            if channel_id in self._sessions:
                return False
            async with self._store.unit() as repo:
                record = await repo.live_game_in_channel(channel_id)
                if record is None:
                    return False
                if not moderator and (record.host_id is None or record.host_id != by_user):
                    raise NotAllowed("refusal.table.clear_host_only")
                await repo.abandon_game(record.id, utc_now())
            log.info("game %s: cleared from channel %s as broken", record.id, channel_id)
            return True

    async def set_notify_when_away(self, user_id: int, away: bool) -> None:
        """A person's choice: told of their turn only when away (else at every turn)."""
        await self.services.personal_settings.change(user_id, notify_when_away=away)

    async def notified_when_away(self) -> set[int]:
        async with self._store.unit() as repo:
            return set(await repo.notified_when_away())

    async def channel_gone(self, channel_id: int) -> tuple[int, ...]:
        """A channel or thread was deleted: the game living there ends with no league effect
        and nothing more is sent there, and so do the games in threads started from it
        (Discord deletes a channel's threads with it, telling only of the channel). Returns
        the games' ids."""
        async with self._lock:
            ended = []
            for session in list(self._sessions.values()):
                here = channel_id in (session.channel_id, session.lobby_channel_id)
                if here and await session.vanish():
                    ended.append(session.game_id)
            if not ended:
                async with self._store.unit() as repo:
                    record = await repo.live_game_in_channel(channel_id)
                    if record is not None:
                        await repo.abandon_game(record.id, utc_now())
                        ended.append(record.id)
        if ended:
            log.info("channel %s is gone; games %s ended", channel_id, ended)
        return tuple(ended)

    async def guild_gone(self, guild_id: int) -> tuple[int, ...]:
        """The bot is no longer in a server: each of its live games ends like
        :meth:`channel_gone`. Returns the games' ids."""
        async with self._lock:
            ended = []
            for session in list(self._sessions.values()):
                if session.guild_id == guild_id and await session.vanish():
                    ended.append(session.game_id)
            async with self._store.unit() as repo:
                stored = await repo.live_games([guild_id])
                for record in stored:
                    await repo.abandon_game(record.id, utc_now())
                    ended.append(record.id)
        if ended:
            log.info("server %s is gone; games %s ended", guild_id, ended)
        return tuple(ended)

    async def guild_left(self, guild_id: int) -> tuple[int, ...]:
        """The bot was removed from a server: its games end (:meth:`guild_gone`) and the
        departure is stored, so :meth:`erase_departed` erases the server's data once the
        grace period is over, across restarts."""
        ended = await self.guild_gone(guild_id)
        async with self._store.unit() as repo:
            await repo.note_departure(guild_id, utc_now())
        return ended

    async def guild_back(self, guild_id: int) -> bool:
        """The bot is in the server again: its data is kept. Returns whether a departure
        was pending."""
        async with self._store.unit() as repo:
            return await repo.cancel_departure(guild_id)

    async def erase_departed(
        self, grace: timedelta, present: Collection[int] = ()
    ) -> tuple[int, ...]:
        """Erase every server the bot left at least ``grace`` ago (:meth:`forget_guild`);
        returns their ids. ``present``: the servers the bot is in now, whose departure is
        cancelled instead (added back while the bot was offline)."""
        async with self._store.unit() as repo:
            left = await repo.departures()
            for guild_id in set(present) & set(left):
                await repo.cancel_departure(guild_id)
                del left[guild_id]
        due = tuple(g for g, at in left.items() if utc_now() - at >= grace)
        for guild_id in due:
            games = await self.forget_guild(guild_id)
            log.info("server %s: erased after the bot left it (%d games)", guild_id, games)
        return due

    async def member_gone(self, guild_id: int, user_id: int) -> tuple[int, ...]:
        """A member left a server or was banned from it: in each live game of that server
        they sit in, a computer player takes their seat (out of a lobby: they leave it).
        Returns the games it changed."""
        changed = []
        for session in list(self._sessions.values()):
            if session.guild_id != guild_id or session.player_of(user_id) is None:
                continue
            try:
                event = await session.member_gone(user_id, STAND_IN_LEVEL)
            except PlayerError:  # the game ended meanwhile
                continue
            if event is not None:
                changed.append(session.game_id)
        return tuple(changed)

    async def forget_user(self, user_id: int) -> ForgetReport:
        """Delete a person's data: out of the lobbies they sit in, their dealt games
        abandoned, their id gone from live sessions, the store and its write-ahead log.

        With several processes (``erasures`` set) the live games of other processes' shards
        are theirs to end: they are asked to, and the report counts their dealt games among
        those abandoned."""
        report = await self.forget_here(user_id)
        if not report.elsewhere or self.erasures is None:
            return report
        await self.erasures.ask(user_id, report.shards_elsewhere)
        ending = (g for g, _, status in report.elsewhere if status is GameStatus.ACTIVE)
        every = tuple(sorted({*report.abandoned_games, *ending}))
        return dataclasses.replace(report, abandoned_games=every)

    async def forget_here(self, user_id: int) -> ForgetReport:
        """This process's part of :meth:`forget_user`: its sessions, and the store but for
        the live games of shards it does not hold when several processes share it (the
        report names those, ``elsewhere``). What another process asks of this one."""
        shards = None
        if self.erasures is not None:
            shards = ShardSet(self.ownership.shard_count, self.ownership.held())
        async with self._lock:
            abandoned: list[int] = []
            for session in list(self._sessions.values()):
                dealt = session.status is SessionStatus.ACTIVE
                event = await session.forget(user_id)
                if event is not None and session.closed and dealt:
                    abandoned.append(session.game_id)  # (a lobby called off is no game)
            try:
                async with self._store.unit() as repo:
                    report = await repo.forget_user(user_id, utc_now(), shards)
            except Exception as error:
                if abandoned:
                    raise ErasureUnfinished(tuple(sorted(abandoned))) from error
                raise
            self.services.personal_settings.forget(user_id)
            await self._store.purge()
        every = tuple(sorted({*abandoned, *report.abandoned_games}))
        return dataclasses.replace(report, abandoned_games=every)

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything about a server; its live sessions close without notice."""
        async with self._lock:
            for session in list(self._sessions.values()):
                if session.guild_id == guild_id:
                    await session._shutdown()
            async with self._store.unit() as repo:
                count = await repo.forget_guild(guild_id)
            self.services.server_settings.forget(guild_id)
            await self._store.purge()
            return count

    def _add(
        self, record: GameRecord, game: Game | None, messages: Sequence[MessageRef] = ()
    ) -> Session:
        session = Session(
            record,
            game,
            self._store,
            self._listeners,
            self._remove,
            brains=self.brains,
            timing=self.timing,
        )
        self._sessions[record.channel_id] = session
        self._by_game[record.id] = session
        self.services.messages.load(record.id, messages)
        self._notifiers.add(session.notifier)
        session.notifier.add_done_callback(self._notifiers.discard)
        return session

    def _remove(self, session: Session) -> None:
        if self._sessions.get(session.channel_id) is session:
            del self._sessions[session.channel_id]
        if self._by_game.get(session.game_id) is session:
            del self._by_game[session.game_id]
            self.services.messages.drop(session.game_id)
