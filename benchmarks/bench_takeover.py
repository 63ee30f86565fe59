"""How soon a dead process's games are taken over: from the SIGKILL of a process holding a
shard's lease to the survivor holding that shard with its games loaded.

    [RUMMY_TEST_POSTGRES=postgresql://…] .venv/bin/python benchmarks/bench_takeover.py \\
        [--ttls 15,2] [--runs 5] [--games 20]

Works in a throwaway database created beside the one the URL names (its role must be
allowed to create databases); without the variable, in a throwaway server started by
pg_virtualenv. The victim is a subprocess running the same lease keeper
(``--hold``); the survivor, in this process, runs the keeper and the sessions of a bot
process (two shards, one each). Each run the victim first gets its shard back from the
survivor (it claims it, the survivor hands it over), is killed a random moment after a
renewal, and the survivor's time to take over is measured. Printed per time to live: the
median over the runs, its ratio to the TTL, and the spread. The victim is a process of
another machine (the expected median is a little under the TTL: the lease runs out a TTL
after its last renewal, which came up to a third of a TTL before the kill), then one of
this machine, whose death the survivor sees at its next round (a third of a TTL at most).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cluster.handover import Handover  # noqa: E402
from bot.cluster.identity import process_identity  # noqa: E402
from bot.cluster.leases import LeaseKeeper  # noqa: E402
from bot.rummy import preset  # noqa: E402
from bot.sessions import Brains, SessionManager  # noqa: E402
from bot.storage import PostgresStore  # noqa: E402
from bot.storage.leases import Leases, owner_url  # noqa: E402
from bot.storage.scratch import scratch_database  # noqa: E402
from tests.postgres import ENV, under_throwaway_server  # noqa: E402

SHARDS = 2
VICTIM_SHARD = 0
GUILD = (7 << 22) * SHARDS  # on shard 0 of 2
ANN, BOB = 111, 222


async def hold(url: str, ttl: float, here: bool) -> None:
    """The victim: hold shard 0 (taking it back from whoever has it), say so, run on. Its
    identity is a bot process's of this machine (``here``: the survivor sees it die), or one
    that names no place, as a process of another machine looks."""
    leases = await Leases.open(url)
    keeper = LeaseKeeper(
        leases,
        owner=process_identity() if here else f"victim:{os.getpid()}:elsewhere",
        shard_count=SHARDS,
        shard_ids=frozenset({VICTIM_SHARD}),
        ttl=ttl,
    )
    await keeper.start()
    print("held", flush=True)
    await asyncio.Event().wait()


async def deal(url: str, games: int) -> None:
    """Two people's games on the victim's shard, dealt before any lease exists (so by no
    one in particular: nothing is fenced yet)."""
    sessions = await SessionManager.open(url, brains=Brains(delay=3600))
    try:
        await _deal(sessions, games)
    finally:
        await sessions.close()


async def _deal(sessions: SessionManager, games: int) -> None:
    for channel in range(1, games + 1):
        session = await sessions.create_lobby(
            guild_id=GUILD,
            channel_id=channel,
            host_id=ANN,
            host_name="Ann",
            ruleset=preset("classic"),
            seed=channel,
        )
        await session.join(BOB, "Bob")
        await session.start(ANN, moderator=False)


async def takeover(url: str, ttl: float, runs: int, games: int, here: bool) -> list[float]:
    """Seconds from each SIGKILL of the victim to the survivor running its games."""
    owner = "survivor"
    store = await PostgresStore.open(owner_url(url, owner))
    leases = await Leases.open(url)
    keeper = LeaseKeeper(leases, owner=owner, shard_count=SHARDS, shard_ids=frozenset({1}), ttl=ttl)
    sessions = SessionManager(store, Brains(delay=3600), keeper)
    keeper.events = Handover(sessions)
    times: list[float] = []
    await deal(url, games)
    try:
        await keeper.start()
        for _ in range(runs):
            victim = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--hold", url, "--ttl", str(ttl),
                *(["--here"] if here else []),
                stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            assert victim.stdout is not None
            assert await victim.stdout.readline() == b"held\n"
            while VICTIM_SHARD in keeper.held() or sessions.sessions:
                await asyncio.sleep(0.01)  # handed back: the survivor dropped the games
            await asyncio.sleep(random.uniform(0, ttl / 3))  # anywhere between renewals
            victim.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            await victim.wait()
            while len(sessions.sessions) < games:
                await asyncio.sleep(0.005)
            times.append(time.monotonic() - killed)
    finally:
        await keeper.stop()
        await sessions.close()
        await leases.close()
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ttls", default="15,2", help="times to live to measure, in seconds")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="games on the victim's shard")
    parser.add_argument("--hold", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--ttl", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold:
        await hold(args.hold, args.ttl, args.here)
        return
    base = os.environ.get(ENV)
    if not base:
        sys.exit(under_throwaway_server(__file__, sys.argv[1:]))
    print(f"takeover after SIGKILL, {args.games} games on the dead shard, {args.runs} runs each")
    for ttl in (float(t) for t in args.ttls.split(",")):
        for here, where in ((False, "another machine"), (True, "this machine")):
            async with scratch_database(base, "takeover") as url:
                times = await takeover(url, ttl, args.runs, args.games, here)
            median = statistics.median(times)
            print(
                f"  LEASE_SECONDS={ttl:g}, the dead process on {where}: median {median:.2f} s"
                f" ({median / ttl:.2f} x TTL), min {min(times):.2f} s, max {max(times):.2f} s"
            )


if __name__ == "__main__":
    asyncio.run(main())
