"""Which shards this process owns, kept in PostgreSQL leases so that another process takes
them over when this one dies.

:class:`LeaseKeeper` is the :class:`~bot.values.shards.Ownership` of a process on
PostgreSQL. It renews its leases every third of their time to live, and stops acting for a
shard, by its own monotonic clock, once two renewals in a row failed: a third of the time to
live before the lease can expire in the database, so two processes never act for one shard
at once. The database refuses the writes of a process whose lease expired anyway (the
fencing triggers), so a process that was frozen past its lease loses nothing but the write
it tried.

At start the keeper takes the shards it is configured for (every shard by default), standing
by while a live process holds them. It also takes over the expired leases of any shard (a
dead process's), and hands those back to their configured process once it is back and claims
them. Each change is told to :class:`ShardEvents` (the launcher loads or unloads the games
and reconnects Discord with the new shard set) and logged with the lease's generation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from bot.cluster.identity import gone, process_identity
from bot.infrastructure.background import stop_tasks, wait_at_most
from bot.infrastructure.settings import DEFAULT_LEASE_SECONDS
from bot.storage import StorageError
from bot.storage.leases import Leases, owner_url
from bot.values.shards import shard_of

log = logging.getLogger(__name__)


TOOL_LEASE_SECONDS = 300.0
"""How long a tool run with the bots stopped (:func:`every_shard_held`) holds the shards."""


class ShardsHeld(Exception):
    """A bot process holds shards: a tool that needs the bots stopped refuses to run."""


@contextlib.asynccontextmanager
async def every_shard_held(url: str) -> AsyncIterator[str]:
    """For a tool that writes games while every bot process is stopped (``scripts/forget.py``):
    the leases of every shard taken for this process, so the fencing lets its writes to live
    games pass, and given back at the end; yields the URL its store connects with. Raises
    :class:`ShardsHeld` while a process holds a shard (a bot still running would keep the
    games in memory and write them back). A database no bot ever held a lease of is not
    fenced: the URL is yielded as it is."""
    identity = process_identity()
    owned = owner_url(url, identity)
    leases = await Leases.open(owned)
    try:
        rows = await leases.holders()
        # A holder of this machine whose process no longer runs is not waited for.
        departed = {r.owner for r in rows if r.live and gone(r.owner)}
        running = sorted({r.owner for r in rows if r.live and r.owner not in departed})
        if running:
            raise ShardsHeld(f"shards are held by {', '.join(running)}")
        if not rows:
            yield url
            return
        count = rows[0].shard_count
        taken = await leases.acquire(range(count), count, identity, TOOL_LEASE_SECONDS, departed)
        try:
            if len(taken) != count:
                raise ShardsHeld("a bot process took a shard meanwhile")
            yield owned
        finally:
            await leases.release(taken, identity)
    finally:
        await leases.close()


class ShardEvents(Protocol):
    """Who acts on a change of the shards held: the games to load or unload, the gateway to
    reconnect with the new set."""

    async def shards_gained(self, shards: frozenset[int]) -> None: ...

    async def shards_lost(self, shards: frozenset[int]) -> None: ...


class LeaseKeeper:
    """The shards this process holds leases for, renewed in the background."""

    def __init__(
        self,
        leases: Leases,
        *,
        owner: str,
        shard_count: int,
        shard_ids: frozenset[int] | None = None,
        ttl: float = DEFAULT_LEASE_SECONDS,
        events: ShardEvents | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, not {shard_count}")
        wanted = frozenset(range(shard_count)) if shard_ids is None else shard_ids
        if not wanted or not all(0 <= i < shard_count for i in wanted):
            raise ValueError(f"shard ids {sorted(wanted)} are not within 0..{shard_count - 1}")
        if ttl <= 0:
            raise ValueError(f"a lease lives a positive number of seconds, not {ttl}")
        self.leases = leases
        self.owner = owner
        self._count = shard_count
        self.wanted = wanted
        """The shards this process is configured for (``SHARD_IDS``)."""
        self.ttl = ttl
        self.interval = ttl / 3
        """Seconds between two renewals."""
        self.events = events
        """Told of every change of the shards held, once the keeper runs (:meth:`start`)."""
        self._clock = clock
        self._until: dict[int, float] = {}
        """Held shard → when this process stops acting for it, by its monotonic clock."""
        self.generations: dict[int, int] = {}
        """Held shard → the generation of its lease."""
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._released = asyncio.Event()
        self._next_expiry = float("inf")
        """When the first of the other processes' leases runs out, by this clock: the next
        round comes then if that is sooner, so a dead process's shards are taken at once."""
        self._waiting_logged = False

    # --- Ownership --------------------------------------------------------------------------

    @property
    def shard_count(self) -> int:
        return self._count

    def held(self) -> frozenset[int]:
        now = self._clock()
        return frozenset(s for s, until in self._until.items() if until > now)

    def owns_guild(self, guild_id: int) -> bool:
        return self._until.get(shard_of(guild_id, self._count), 0.0) > self._clock()

    # --- life -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Take this process's shards, waiting as a standby as long as live processes hold
        all of them, then keep the leases in the background. Returns once at least one shard
        is held (the games of the shards held are the caller's to load)."""
        await self.leases.check_shard_count(self._count)
        self._listener = asyncio.create_task(self._listen(), name="lease-listener")
        while True:
            started = self._clock()
            await self._round(tell=False)
            if self.held():
                break
            await self._pause(started)
        self._task = asyncio.create_task(self._keep(), name="lease-keeper")

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing; with ``release`` give every lease up, so a standby takes the shards
        at once. Without it the leases run out by themselves (what a crash looks like)."""
        tasks, self._task, self._listener = (self._task, self._listener), None, None
        await stop_tasks(*tasks)
        if release:  # the claims of a standby go too, held shards or none
            shards = frozenset(self._until)
            self._until.clear()
            try:
                await asyncio.wait_for(
                    self.leases.release(shards, self.owner), timeout=self.interval
                )
            except (TimeoutError, StorageError) as error:
                if shards:
                    log.warning("leases of shards %s not released (%s)", sorted(shards), error)
                return
            for shard in sorted(shards):
                log.info(
                    "lease of shard %d released (generation %d)",
                    shard,
                    self.generations.pop(shard, 0),
                )

    async def _keep(self) -> None:
        while True:
            started = self._clock()
            try:
                await self._round(tell=True)
            except Exception:  # a bug: logged loudly, and the leases are kept all the same
                log.exception("a round of the shard leases failed")
            await self._pause(started)

    async def _pause(self, started: float) -> None:
        """Until the next round: a renewal interval after ``started``, or at once when
        another process released leases (a standby takes them without waiting)."""
        until = min(started + self.interval, self._next_expiry)
        await wait_at_most(self._released, until - self._clock())
        self._released.clear()

    async def _listen(self) -> None:
        """Hear releases for as long as the keeper runs; a lost connection is opened again
        (rounds go on meanwhile: only the shortcut is missing)."""
        while True:
            try:
                await self.leases.listen_for_releases(self._released.set)
            except StorageError as error:
                log.warning("not hearing lease releases for now: %s", error)
            await asyncio.sleep(self.interval)

    async def _round(self, *, tell: bool) -> None:
        """One pass: renew, hand back, take; then stop acting for what could not be kept."""
        gained: dict[int, int] = {}
        lost: set[int] = set()
        handed: set[int] = set()
        try:
            async with asyncio.timeout(self.interval):
                await self._exchange(gained, lost, handed)
        except (TimeoutError, StorageError) as error:
            log.warning("the shard leases could not be renewed: %s", error or type(error).__name__)
        # Stop acting for a shard before the database can let another process take it.
        margin = self._clock() + self.interval
        lost |= {s for s, until in self._until.items() if until <= margin}
        for shard in sorted(lost):
            self._until.pop(shard, None)
            log.warning(
                "lease of shard %d lost (generation %d)", shard, self.generations.pop(shard, 0)
            )
        for shard in sorted(handed):
            log.info(
                "lease of shard %d handed back to its own process (generation %d)",
                shard,
                self.generations.pop(shard, 0),
            )
        lost |= handed
        for shard, generation in sorted(gained.items()):
            log.info("lease of shard %d gained (generation %d)", shard, generation)
        if tell and self.events is not None:
            if lost:
                await self._tell(self.events.shards_lost, frozenset(lost))
            if gained:
                await self._tell(self.events.shards_gained, frozenset(gained))

    async def _exchange(self, gained: dict[int, int], lost: set[int], handed: set[int]) -> None:
        """The database's part of a round; fills ``gained``, ``lost`` and ``handed`` (given
        back to the process configured for them) as it goes, so a round cut short by its
        timeout still counts what it did."""
        read = self._clock()
        rows = await self.leases.holders()
        self._next_expiry = min(
            (read + r.remaining for r in rows if r.live and r.owner != self.owner),
            default=float("inf"),
        )
        claimed = await self.leases.claims(self.ttl)
        # A holder known to be dead (a process of this machine that no longer runs: this
        # one's predecessor, say) need not be waited for: its leases count as run out.
        departed = {r.owner for r in rows if r.live and r.owner != self.owner and gone(r.owner)}
        live = {r.shard_id: r.owner for r in rows if r.live and r.owner not in departed}
        # A lease taken in a round cut short by its timeout is still ours: keep it too.
        mine = self._until.keys() | {s for s, owner in live.items() if owner == self.owner}
        sent = self._clock()
        kept = await self.leases.renew(mine, self.owner, self.ttl)
        for shard in self._until.keys() - kept.keys():  # the database says it is not ours
            del self._until[shard]
            lost.add(shard)
        gained.update({s: g for s, g in kept.items() if s not in self._until})
        self._hold(kept, sent)
        back = {
            s
            for s in self._until
            if s not in self.wanted and claimed.get(s, self.owner) != self.owner
        }
        if back:
            await self.leases.release(back, self.owner)
            for shard in back:
                del self._until[shard]
            handed |= back
        dead = {lease.shard_id for lease in rows if not lease.live or lease.owner in departed}
        free = {s for s in self.wanted | dead if claimed.get(s, self.owner) == self.owner}
        candidates = free - self._until.keys() - back - live.keys()
        sent = self._clock()
        taken = await self.leases.acquire(candidates, self._count, self.owner, self.ttl, departed)
        for shard in sorted(taken.keys() & dead):
            holder = next((r.owner for r in rows if r.shard_id == shard), None)
            if holder in departed:
                log.info(
                    "shard %d was held by %s, a process of this machine that no longer runs:"
                    " taken without waiting for its lease to run out",
                    shard,
                    holder,
                )
        self._hold(taken, sent)
        gained.update(taken)
        waiting = self.wanted - self._until.keys()
        if waiting:
            await self.leases.claim(waiting, self.owner)
            if not self._waiting_logged:
                self._waiting_logged = True
                log.info(
                    "standing by for shards %s, held by %s",
                    sorted(waiting),
                    ", ".join(sorted({live[s] for s in waiting if s in live})) or "nobody",
                )
        else:
            self._waiting_logged = False

    def _hold(self, leases_: dict[int, int], sent: float) -> None:
        """Act for these shards until a time to live after the request that got them was sent
        (the database's expiry is a little later still)."""
        for shard, generation in leases_.items():
            self._until[shard] = sent + self.ttl
            self.generations[shard] = generation

    async def _tell(
        self, handler: Callable[[frozenset[int]], Awaitable[None]], shards: frozenset[int]
    ) -> None:
        try:
            await handler(shards)
        except Exception:
            log.exception("acting on the change of shards %s failed", sorted(shards))
