"""SQLite against PostgreSQL in one run: played actions committed per second, and a played
action's p50/p99, with SQLite in one process and PostgreSQL shared by 1, 2 and 4 processes.

    .venv/bin/python benchmarks/bench_backends.py [--actions N] [--runs N]

Each process plays its own games (its own servers and channels) through a real
``SessionManager``: every action is applied, committed in its own unit of work and its
views frozen, as when people play. On PostgreSQL each process holds its shard's lease and
plays in a server of that shard, as the bot's processes do, so every game write passes the
fencing triggers; one more row runs a process with no lease at all (nothing fenced), for
the fencing's cost. The processes start playing together; the rate is every
process's actions over the time until the last one finished. Each figure is the median of
``--runs`` runs, each on a fresh database, every configuration run once per round; ratios
are to SQLite's.

PostgreSQL is the server named by ``RUMMY_TEST_POSTGRES`` (the tests' variable: a database
the benchmark may create databases in); unset, the benchmark starts a throwaway server with
``pg_virtualenv`` with fsync on, so commits are as durable as SQLite's (``synchronous=FULL``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cluster.leases import LeaseKeeper  # noqa: E402
from bot.rummy import preset  # noqa: E402
from bot.rummy.players import random_action  # noqa: E402
from bot.sessions import Session, SessionManager  # noqa: E402
from bot.storage.leases import Leases, owner_url  # noqa: E402
from tests.postgres import ENV, under_throwaway_server  # noqa: E402

PROCESS_COUNTS = (1, 2, 4)
GAMES_PER_PROCESS = 20


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def deal(manager: SessionManager, guild: int, channel: int) -> Session:
    """A dealt game of two to four people, through the lobby as people make one."""
    host = channel * 10
    lobby = await manager.create_lobby(
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        host_name="Player 0",
        ruleset=preset(("classic", "parlett", "500")[channel % 3]),
        seed=channel,
    )
    for i in range(1, 2 + channel % 3):
        await lobby.join(host + i, f"Player {i}")
    await lobby.start(host, moderator=False)
    return lobby


async def play(target: str, worker: int, actions: int, shards: int) -> None:
    """One process's part: deal its games, wait for the start line, play ``actions`` actions,
    print its latencies and elapsed time as one JSON line.

    With ``shards`` (PostgreSQL), the process holds the lease of shard ``worker - 1`` of
    ``shards`` and its server is on that shard, as a bot process of a cluster: every game
    write passes the fencing triggers. Without, no lease exists and nothing is fenced."""
    keeper: LeaseKeeper | None = None
    guild = 1_000 + worker
    if shards:
        owner = f"bench-{worker}"
        keeper = LeaseKeeper(
            await Leases.open(target),
            owner=owner,
            shard_count=shards,
            shard_ids=frozenset({worker - 1}),
        )
        await keeper.start()
        target = owner_url(target, owner)
        guild = (1_000 * shards + worker - 1) << 22  # on shard worker - 1
    manager = await SessionManager.open(target, ownership=keeper)
    rng = random.Random(worker)
    channel = worker * 1_000_000
    sessions: list[Session] = []
    samples: list[float] = []
    try:

        async def refill() -> None:
            nonlocal channel
            while len(sessions) < GAMES_PER_PROCESS:
                channel += 1
                sessions.append(await deal(manager, guild, channel))

        await refill()
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        began = time.perf_counter()
        while len(samples) < actions:
            sessions[:] = [s for s in sessions if not s.closed]
            await refill()
            session = rng.choice(sessions)
            game = session.game  # the benchmark plays for everyone
            assert game is not None
            assert game.current_player is not None
            action = random_action(game, rng)
            start = time.perf_counter()
            await session.apply(game.current_player, action, turn=session.turn)
            samples.append(time.perf_counter() - start)
        elapsed = time.perf_counter() - began
    finally:
        await manager.close()
        if keeper is not None:
            await keeper.stop()
            await keeper.leases.close()
    print(json.dumps({"samples": samples, "elapsed": elapsed}), flush=True)


def run_processes(target: str, count: int, actions: int, fenced: bool) -> tuple[float, list[float]]:
    """Start ``count`` players on ``target`` together; actions per second and latencies."""
    shards = str(count if fenced else 0)
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", str(i), "--target", target, "--shards", shards],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "BENCH_ACTIONS": str(actions)},
        )
        for i in range(1, count + 1)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, proc.returncode
        results.append(json.loads(out.strip().splitlines()[-1]))
    wall = max(r["elapsed"] for r in results)
    samples = [s for r in results for s in r["samples"]]
    return len(samples) / wall, samples


def fresh_postgres(server: str, name: str) -> str:
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base, _, _ = server.rpartition("/")
    return f"{base}/{name}"


def drop_postgres(server: str, name: str) -> None:
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def run_once(
    server: str, backend: str, count: int, fenced: bool, actions: int, run: int
) -> tuple[float, list[float]]:
    """One run of one configuration on a fresh database."""
    if backend == "SQLite":
        folder = tempfile.mkdtemp(prefix="bench-backends-")
        try:
            return run_processes(f"{folder}/rummy.sqlite3", 1, actions, fenced=False)
        finally:
            shutil.rmtree(folder)
    prefix = server.rpartition("/")[2] or "bench"
    name = f"{prefix}_bench_{count}_{int(fenced)}_{run}"
    target = fresh_postgres(server, name)
    try:
        asyncio.run(_migrate(target))
        return run_processes(target, count, actions, fenced)
    finally:
        drop_postgres(server, name)


def measure(server: str, actions: int, runs: int) -> None:
    # Beside the one fenced process, one with no lease at all: the fencing's cost.
    configs: list[tuple[str, int, bool]] = [("SQLite", 1, False), ("PostgreSQL", 1, False)]
    configs += [("PostgreSQL", n, True) for n in PROCESS_COUNTS]
    figures: dict[tuple[str, int, bool], list[tuple[float, float, float]]] = {
        config: [] for config in configs
    }
    for run in range(runs):  # every configuration once a round: the machine's drift is shared
        for backend, count, fenced in configs:
            rate, samples = run_once(server, backend, count, fenced, actions, run)
            figures[backend, count, fenced].append(
                (rate, percentile(samples, 0.5), percentile(samples, 0.99))
            )
    rows: list[tuple[str, float, float, float]] = []
    for (backend, count, fenced), found in figures.items():
        rows.append(
            (
                f"{backend}, {count} process{'es' if count > 1 else ''}"
                + ("" if fenced or backend == "SQLite" else ", unfenced"),
                statistics.median(f[0] for f in found),
                statistics.median(f[1] for f in found) * 1e3,
                statistics.median(f[2] for f in found) * 1e3,
            )
        )
    sqlite = rows[0]
    print(
        f"played actions, {actions} per process, medians of {runs} runs"
        " (ratios to SQLite in brackets):"
    )
    for label, rate, p50, p99 in rows:
        print(
            f"  {label:<36} {rate:7.0f} commits/s [{rate / sqlite[1]:.2f}]"
            f"  p50 {p50:6.2f} ms [{p50 / sqlite[2]:.2f}]"
            f"  p99 {p99:6.2f} ms [{p99 / sqlite[3]:.2f}]"
        )


async def _migrate(target: str) -> None:
    """Migrate before the processes start, so no process's first action pays for it."""
    await (await SessionManager.open(target)).close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=600, help="actions per process")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--target", help=argparse.SUPPRESS)
    parser.add_argument("--shards", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        asyncio.run(play(args.target, args.worker, int(os.environ["BENCH_ACTIONS"]), args.shards))
        return 0
    server = os.environ.get(ENV)
    if server:
        measure(server, args.actions, args.runs)
        return 0
    return under_throwaway_server(
        __file__, ["--actions", str(args.actions), "--runs", str(args.runs)]
    )


if __name__ == "__main__":
    sys.exit(main())
