"""Erasing a person under the shard fencing of several processes on one PostgreSQL: the
history of any server (finished, abandoned, cancelled games) is anonymized by whichever
process got the request, while a live game stays its shard holder's to write."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

import psycopg
import pytest

from bot.rummy import preset
from bot.storage import DELETED_NAME, GameRecord, GameStatus, LeaseLost, PostgresStore
from bot.storage.leases import LEASE_LOST_SQLSTATE, Leases, owner_url
from bot.storage.models import ShardSet
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats

pytestmark = pytest.mark.postgres_only

ANN, BOB = 111_111_111_111_111_111, 222_222_222_222_222_222
HERE = 0 << 22 | 7  # a server of shard 0 of 2, held by process "a"
THERE = 1 << 22 | 7  # a server of shard 1 of 2, held by process "b"
A_SHARDS = ShardSet(2, frozenset({0}))


async def _dealt(store: PostgresStore, guild: int, channel: int) -> GameRecord:
    """A game of Ann and Bob whose snapshot names Ann's engine player id."""
    seats = assign_seats([NewSeat.human(ANN, "Ann"), NewSeat.human(BOB, "Bob")])
    async with store.unit() as repo:
        record = await repo.create_game(
            guild_id=guild,
            channel_id=channel,
            host_id=ANN,
            ruleset=preset("classic").to_json(),
            seed=1,
            seats=seats,
            snapshot=None,
            at=utc_now(),
            status=GameStatus.LOBBY,
        )
        players = [s.player_id for s in seats]
        snapshot = json.dumps({"current": players[0], "players": players})
        await repo.start_game(record.id, 1, snapshot)
    return record


@contextlib.asynccontextmanager
async def _two_processes(pg_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """The stores of process a, holding shard 0 of 2, and process b, holding shard 1."""
    leases = await Leases.open(pg_url)
    try:
        assert await leases.acquire({0}, 2, "a", 60) == {0: 1}
        assert await leases.acquire({1}, 2, "b", 60) == {1: 1}
    finally:
        await leases.close()
    a = await PostgresStore.open(owner_url(pg_url, "a"))
    b = await PostgresStore.open(owner_url(pg_url, "b"))
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def _seats_of(store: PostgresStore, user_id: int) -> int:
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall(
            "SELECT count(*) FROM seats WHERE user_id = ?", (user_id,)
        )
    return int(rows[0][0])


async def test_another_shard_history_is_anonymized_by_any_process(pg_url: str) -> None:
    async with _two_processes(pg_url) as (a, b):
        over = await _dealt(b, THERE, 1)
        async with b.unit() as repo:
            await repo.abandon_game(over.id, utc_now())
        async with a.unit() as repo:
            report = await repo.forget_user(ANN, utc_now(), A_SHARDS)
        assert report.abandoned_games == ()
        assert report.elsewhere == ()
        assert report.anonymized_seats == 1
        assert await _seats_of(a, ANN) == 0
        async with a.unit() as repo:
            stored = await repo.load_game(over.id)
        assert stored is not None
        assert stored.status is GameStatus.ABANDONED
        assert stored.host_id is None
        assert [s.display_name for s in stored.seats] == [DELETED_NAME, "Bob"]
        assert stored.snapshot is not None
        assert "deleted-0" in stored.snapshot
        assert ANN not in {s.user_id for s in stored.seats}


async def test_a_live_game_of_another_shard_is_left_to_its_holder(pg_url: str) -> None:
    async with _two_processes(pg_url) as (a, b):
        mine = await _dealt(a, HERE, 1)
        theirs = await _dealt(b, THERE, 2)
        async with a.unit() as repo:
            report = await repo.forget_user(ANN, utc_now(), A_SHARDS)
        assert report.abandoned_games == (mine.id,)
        assert report.elsewhere == ((theirs.id, 1, GameStatus.ACTIVE),)
        async with a.unit() as repo:
            kept = await repo.load_game(theirs.id)
        assert kept is not None
        assert kept.status is GameStatus.ACTIVE
        assert ANN in {s.user_id for s in kept.seats}
        assert kept.host_id == ANN
        # Its writes stay fenced: a process that does not hold shard 1 cannot end it ...
        with pytest.raises(LeaseLost):
            async with a.unit() as repo:
                await repo.abandon_game(theirs.id, utc_now())
        # ... nor erase as if it held every shard; its holder erases the rest.
        with pytest.raises(LeaseLost):
            async with a.unit() as repo:
                await repo.forget_user(ANN, utc_now())
        async with b.unit() as repo:
            rest = await repo.forget_user(ANN, utc_now(), ShardSet(2, frozenset({1})))
        assert rest.abandoned_games == (theirs.id,)
        assert await _seats_of(a, ANN) == 0


async def test_history_may_not_be_brought_back_to_life(pg_url: str) -> None:
    async with _two_processes(pg_url) as (a, b):
        over = await _dealt(b, THERE, 1)
        async with b.unit() as repo:
            await repo.abandon_game(over.id, utc_now())
        with pytest.raises(psycopg.Error) as refused:
            async with a.transaction() as conn:
                await conn.execute("UPDATE games SET status = 'active' WHERE id = ?", (over.id,))
        assert refused.value.sqlstate == LEASE_LOST_SQLSTATE
