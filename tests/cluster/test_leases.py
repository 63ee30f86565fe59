"""Shard leases on a real PostgreSQL: a dead process's shards are taken over within the
lease's time to live, its late writes are refused and change nothing, its games resume on
the new owner, and a standby takes over at once when the holder stops cleanly."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.cluster.leases import LeaseKeeper
from bot.storage import GameStatus, LeaseLost, PostgresStore, Store
from bot.storage.leases import Leases, ShardCountMismatch, owner_url
from bot.values.seats import NewSeat, assign_seats
from tests.waiting import PATIENCE, eventually

pytestmark = pytest.mark.postgres_only

TTL = 3.0  # renewals a second apart: a loaded machine keeps its leases
SHARDS = 2
GUILD_0 = 0 << 22 | 17  # on shard 0 of 2
GUILD_1 = 1 << 22 | 17  # on shard 1 of 2


class Changes:
    """What a keeper told: every gain and loss, in order."""

    def __init__(self) -> None:
        self.gained: list[frozenset[int]] = []
        self.lost: list[frozenset[int]] = []

    async def shards_gained(self, shards: frozenset[int]) -> None:
        self.gained.append(shards)

    async def shards_lost(self, shards: frozenset[int]) -> None:
        self.lost.append(shards)


@contextlib.asynccontextmanager
async def process(
    pg_url: str,
    name: str,
    shard_ids: frozenset[int] | None,
    changes: Changes | None = None,
    ttl: float = TTL,
) -> AsyncIterator[tuple[PostgresStore, LeaseKeeper]]:
    """One bot process's storage and keeper (not started), with identity ``name``."""
    store = await PostgresStore.open(owner_url(pg_url, name))
    leases = await Leases.open(pg_url)
    keeper = LeaseKeeper(
        leases, owner=name, shard_count=SHARDS, shard_ids=shard_ids, ttl=ttl, events=changes
    )
    try:
        yield store, keeper
    finally:
        await keeper.stop()
        await leases.close()
        await store.close()


async def _lobby(store: Store, guild: int, channel: int) -> int:
    async with store.unit() as repo:
        record = await repo.create_game(
            guild_id=guild,
            channel_id=channel,
            host_id=1,
            ruleset={},
            seed=1,
            seats=assign_seats([NewSeat.human(1, "Ann")]),
            snapshot=None,
            at=datetime.now(UTC),
            status=GameStatus.LOBBY,
        )
    return record.id


async def test_the_survivor_takes_a_dead_process_shard_over_and_its_writes_are_refused(
    pg_url: str,
) -> None:
    told = Changes()
    async with (
        process(pg_url, "a", frozenset({0})) as (store_a, a),
        process(pg_url, "b", frozenset({1}), told) as (store_b, b),
    ):
        await a.start()
        await b.start()
        assert (a.held(), b.held()) == (frozenset({0}), frozenset({1}))
        assert a.owns_guild(GUILD_0)
        assert not a.owns_guild(GUILD_1)
        game = await _lobby(store_a, GUILD_0, 10)
        with pytest.raises(LeaseLost):  # not a's shard
            await _lobby(store_a, GUILD_1, 11)
        async with store_a.unit() as repo:
            before = await repo.load_game(game)

        await a.stop(release=False)  # a dies: no more renewals, nothing released
        await eventually(lambda: 0 in b.held())  # once a's lease ran out
        assert b.generations[0] == 2
        assert told.gained == [frozenset({0})]

        with pytest.raises(LeaseLost):
            async with store_a.unit() as repo:
                await repo.start_game(game, 5, "{}")
        async with store_b.unit() as repo:
            assert await repo.load_game(game) == before
        rows = {lease.shard_id: lease for lease in await b.leases.holders()}
        assert (rows[0].owner, rows[0].generation, rows[0].live) == ("b", 2, True)


async def test_a_standby_waits_then_takes_over_at_once_when_the_holder_stops(
    pg_url: str,
) -> None:
    # Renewals 40 s apart, longer than the wait for b below: b can only have taken over by
    # hearing a's release, not at a round of its own.
    ttl = 120.0
    async with (
        process(pg_url, "a", None, ttl=ttl) as (_, a),
        process(pg_url, "b", None, ttl=ttl) as (_, b),
    ):
        await a.start()
        standby = asyncio.create_task(b.start())
        await asyncio.sleep(1.2)
        assert not standby.done()  # a is alive: b waits
        assert b.held() == frozenset()
        await a.stop()
        assert b.interval > PATIENCE
        await asyncio.wait_for(standby, timeout=PATIENCE)
        assert b.held() == {0, 1}
        assert b.generations == {0: 2, 1: 2}


async def test_a_release_heard_as_the_keeper_stops_does_not_keep_it_running(
    pg_url: str,
) -> None:
    """The listener's wake-up and the cancel of ``stop`` in one turn of the loop: on Python
    3.11 ``asyncio.wait_for`` then returns the woken wait and drops the cancel, and the
    keeper renewed its leases forever while ``stop`` waited for it."""
    async with process(pg_url, "a", None) as (_, a):
        await a.start()
        await asyncio.sleep(a.interval / 2)  # its first round done, it waits for the next
        a._released.set()  # what a release notice from another process does
        stopping = asyncio.create_task(a.stop())
        done, _ = await asyncio.wait({stopping}, timeout=PATIENCE)  # waits, never cancels it
        assert stopping in done
        assert a.held() == frozenset()


async def test_a_taken_over_shard_goes_back_to_its_own_process_when_that_is_back(
    pg_url: str,
) -> None:
    told = Changes()
    async with (
        process(pg_url, "a", frozenset({0})) as (_, a),
        process(pg_url, "b", frozenset({1}), told) as (_, b),
        process(pg_url, "a-again", frozenset({0})) as (_, again),
    ):
        await a.start()
        await b.start()
        await a.stop(release=False)
        await eventually(lambda: 0 in b.held())
        await asyncio.wait_for(again.start(), timeout=PATIENCE)  # b hands shard 0 back
        assert again.held() == frozenset({0})
        assert again.generations[0] == 3
        assert b.held() == frozenset({1})
        await eventually(lambda: told.lost == [frozenset({0})])
        assert told.gained == [frozenset({0})]


async def test_a_process_with_another_shard_count_is_refused_while_the_others_live(
    pg_url: str,
) -> None:
    async with process(pg_url, "a", None) as (_, a):
        await a.start()
        leases = await Leases.open(pg_url)
        try:
            other = LeaseKeeper(leases, owner="c", shard_count=3, ttl=TTL)
            with pytest.raises(ShardCountMismatch, match="SHARD_COUNT=2"):
                await other.start()
            await a.stop()  # every process of the old count stopped: the new count may start
            await asyncio.wait_for(other.start(), timeout=PATIENCE)
            assert other.held() == frozenset({0, 1, 2})
            await other.stop()
        finally:
            await leases.close()


def test_the_identity_reaches_every_connection_beside_the_urls_own_options() -> None:
    assert owner_url("postgresql://u:p@h/db", "vm:12:ab") == (
        "postgresql://u:p@h/db?options=-c%20rummy.owner%3Dvm%3A12%3Aab"
    )
    assert owner_url("postgresql://h/db?sslmode=require&options=-c%20x%3D1", "o") == (
        "postgresql://h/db?sslmode=require&options=-c%20x%3D1%20-c%20rummy.owner%3Do"
    )
    with pytest.raises(ValueError, match="no spaces"):
        owner_url("postgresql://h/db", "a b")
