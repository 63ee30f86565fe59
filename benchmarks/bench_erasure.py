"""A person's erasure with two processes on one PostgreSQL, against one that stays local.

Two session managers run in this process, each with its lease keeper and erasure relay: A
holds shard 0, B shard 1. Each round a new person sits in a dealt game on A's shard and
(for a "cross" round) in one on B's too; A erases them. Measured: A's answer (what the
person waits for: its sessions, the store but for B's live game, the VACUUM, the request to
B), and for cross rounds the time until B's game has ended too (B hears the NOTIFY and
erases the person from its shard). Medians and 90th percentiles.

    export RUMMY_TEST_POSTGRES=postgresql://user:password@host/database
    .venv/bin/python benchmarks/bench_erasure.py --rounds 30

The URL names a database on a server where the role may create databases: a fresh one is
made for the run and dropped after it. Without a URL, a throwaway server started by
pg_virtualenv (fsync on) is used, as by the other PostgreSQL benchmarks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cluster.erasure import ErasureRelay, erasure_relay_for  # noqa: E402
from bot.cluster.handover import Handover  # noqa: E402
from bot.cluster.leases import LeaseKeeper  # noqa: E402
from bot.sessions import Brains, Session, SessionManager  # noqa: E402
from bot.storage import PostgresStore  # noqa: E402
from bot.storage.leases import Leases, owner_url  # noqa: E402
from bot.storage.scratch import scratch_database  # noqa: E402
from bot.values.seats import NewSeat  # noqa: E402
from tests.postgres import server_or_throwaway  # noqa: E402
from tests.sessions.conftest import BOB, start_game  # noqa: E402
from tests.waiting import eventually  # noqa: E402

SHARDS = 2


@contextlib.asynccontextmanager
async def process(url: str, shard: int) -> AsyncIterator[tuple[SessionManager, ErasureRelay]]:
    name = f"bench-{shard}"
    store = await PostgresStore.open(owner_url(url, name))
    leases = await Leases.open(url)
    keeper = LeaseKeeper(leases, owner=name, shard_count=SHARDS, shard_ids=frozenset({shard}))
    sessions = SessionManager(store, Brains(delay=3600), keeper)
    keeper.events = Handover(sessions)
    await keeper.start()
    relay = erasure_relay_for(sessions)
    assert relay is not None
    relay.start()
    try:
        await eventually(relay.listening.is_set, 30)
        yield sessions, relay
    finally:
        await relay.close()
        await keeper.stop()
        await sessions.close()
        await leases.close()


def ended_check(session: Session) -> Callable[[], bool]:
    return lambda: session.closed


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> None:
    base = args.postgres
    times: dict[str, list[float]] = {"local answer": [], "cross answer": [], "cross ended": []}
    async with (
        scratch_database(base, "bench_erase") as url,
        process(url, 0) as (a, _),
        process(url, 1) as (b, b_relay),
    ):
        for i in range(args.warmup + args.rounds):
            person = 10**17 + i
            seats = [NewSeat.human(person, f"P{i}"), NewSeat.human(BOB, "Bob")]
            await start_game(a, 2 * i + 1, seats, guild=0 << 22 | 5)
            cross = i % 2 == 1
            theirs = None
            if cross:
                theirs = await start_game(b, 2 * i + 2, seats, guild=1 << 22 | 5)
            started = time.perf_counter()
            await a.forget_user(person)
            answered = time.perf_counter() - started
            if theirs is not None:
                await eventually(ended_check(theirs), 30)
            ended = time.perf_counter() - started
            if i >= args.warmup:
                if cross:
                    times["cross answer"].append(answered)
                    times["cross ended"].append(ended)
                else:
                    times["local answer"].append(answered)
        asked = (args.warmup + args.rounds) // 2
        await eventually(lambda: b_relay.carried_out == asked, 30)
    for kind, values in times.items():
        print(
            f"{kind:>12}: p50 {statistics.median(values) * 1000:.1f} ms,"
            f" p90 {pct(values, 0.9) * 1000:.1f} ms ({len(values)} erasures)"
        )
    ratio = statistics.median(times["cross answer"]) / statistics.median(times["local answer"])
    print(f"cross / local answer, medians: {ratio:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="erasures measured")
    parser.add_argument("--warmup", type=int, default=4, help="erasures not measured")
    parser.add_argument("--postgres", help="PostgreSQL URL (default: RUMMY_TEST_POSTGRES)")
    args = parser.parse_args()
    args.postgres = server_or_throwaway(__file__, args.postgres)
    asyncio.run(main(args))
