"""A restarted bot takes the leases of its dead predecessor on the same machine at once,
instead of waiting a lease's time: only when that predecessor is provably gone (same boot,
same pid namespace, its process id no longer running). Real processes, real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import psycopg
import pytest

from bot.cluster.identity import gone, place, process_identity, runs
from bot.cluster.leases import LeaseKeeper
from bot.storage.leases import Leases
from tests.waiting import PATIENCE, eventually

LONG = 600.0  # a lease that would not run out during the test


@contextlib.contextmanager
def child() -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(PATIENCE)


def identity_of(pid: int) -> str:
    """The identity a process ``pid`` of this place would have had."""
    host, _, tail = process_identity().split(":")
    return f"{host}:{pid}:{tail}"


def test_this_machine_has_a_place_and_identities_carry_it() -> None:
    here = place()
    assert here is not None  # the tests run on Linux
    assert process_identity().split(":")[2].startswith(f"{here}.")
    assert process_identity() != process_identity()  # the random part


def test_only_a_process_of_this_place_that_no_longer_runs_is_gone() -> None:
    assert not gone(process_identity())  # this very process
    with child() as running:
        assert runs(running.pid)
        assert not gone(identity_of(running.pid))
        running.kill()
        running.wait(PATIENCE)
        assert gone(identity_of(running.pid))
        # The same dead pid elsewhere, or without a place, proves nothing.
        host, pid, tail = identity_of(running.pid).split(":")
        assert not gone(f"{host}:{pid}:00000000.{tail.split('.')[1]}")
        assert not gone(f"{host}:{pid}:{tail.split('.')[1]}")
        assert not gone("a:b:c")


def test_a_killed_process_not_yet_reaped_is_gone() -> None:
    with child() as zombie:
        os.kill(zombie.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while runs(zombie.pid) and time.monotonic() < deadline:  # dying, then a zombie
            time.sleep(0.01)
        assert os.path.exists(f"/proc/{zombie.pid}")  # not reaped: its parent never waited
        assert gone(identity_of(zombie.pid))


async def _hold(url: str, shard: int, owner: str) -> None:
    """A lease of ``shard`` (of 1) held by ``owner`` for a long time."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO shard_leases (shard_id, shard_count, owner, generation, expires_at)"
            " VALUES (%s, 1, %s, 1, clock_timestamp() + make_interval(secs => %s))",
            (shard, owner, LONG),
        )


@pytest.mark.postgres_only
async def test_a_dead_predecessor_s_lease_is_taken_at_once(pg_url: str) -> None:
    with child() as dead:
        dead.kill()
        dead.wait(PATIENCE)
        await _hold(pg_url, 0, identity_of(dead.pid))
    leases = await Leases.open(pg_url)
    keeper = LeaseKeeper(leases, owner=process_identity(), shard_count=1, ttl=LONG)
    try:
        await asyncio.wait_for(keeper.start(), PATIENCE)
        assert keeper.held() == {0}
        assert keeper.generations == {0: 2}
    finally:
        await keeper.stop()
        await leases.close()


@pytest.mark.postgres_only
async def test_a_live_holder_of_this_machine_is_waited_for(pg_url: str) -> None:
    with child() as alive:
        await _hold(pg_url, 0, identity_of(alive.pid))
        leases = await Leases.open(pg_url)
        keeper = LeaseKeeper(leases, owner=process_identity(), shard_count=1, ttl=3.0)
        starting = asyncio.create_task(keeper.start())
        try:
            await asyncio.sleep(2.0)  # two rounds at least
            assert not starting.done()
            assert keeper.held() == frozenset()
            alive.kill()
            alive.wait(PATIENCE)
            await asyncio.wait_for(starting, PATIENCE)  # taken at the next round once it is gone
            await eventually(lambda: keeper.held() == {0})
        finally:
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
            await keeper.stop()
            await leases.close()
