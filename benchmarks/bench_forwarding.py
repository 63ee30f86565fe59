"""The answer time of a click forwarded to its game's owner, against a local one.

Two bots run in this process on one PostgreSQL and the fake Discord with two shards: A on
shard 0 (it receives every DM click, as on Discord), B on shard 1. Each has a game in a
server of its own shard. A player presses a move button on their hand DM, alternately in
A's game (answered by A: local) and in B's (A forwards it through the database; B claims it
and answers). The buttons are of a finished turn, so the game does not move on and every
click takes the same path: the bot defers, the session refuses the stale turn, a private
follow-up says so. Measured: from the fake's delivery of the interaction to its first
accepted answer (what Discord's 3 s apply to), median and 99th percentile of each.

    export RUMMY_TEST_POSTGRES=postgresql://user:password@host/database
    .venv/bin/python benchmarks/bench_forwarding.py --clicks 200

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
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.__main__ import EXTENSIONS  # noqa: E402
from bot.app import RummyBot  # noqa: E402
from bot.cluster.forwarding import Forwarder, forwarding_for  # noqa: E402
from bot.cluster.leases import LeaseKeeper  # noqa: E402
from bot.sessions import SessionManager  # noqa: E402
from bot.storage import PostgresStore  # noqa: E402
from bot.storage.leases import Leases, owner_url  # noqa: E402
from bot.storage.scratch import scratch_database  # noqa: E402
from tests.discord.fake import FakeDiscord, User, patch_discord  # noqa: E402
from tests.discord.helpers import Table, deal  # noqa: E402
from tests.postgres import server_or_throwaway  # noqa: E402
from tests.waiting import eventually  # noqa: E402

SHARDS = 2


@contextlib.asynccontextmanager
async def process(
    fake: FakeDiscord, url: str, shard: int
) -> AsyncIterator[tuple[RummyBot, SessionManager, Forwarder]]:
    """One bot process on ``shard``, holding its lease (shard 0's registers the commands,
    globally)."""
    name = f"bench-{shard}"
    store = await PostgresStore.open(owner_url(url, name))
    leases = await Leases.open(url)
    keeper = LeaseKeeper(leases, owner=name, shard_count=SHARDS, shard_ids=frozenset({shard}))
    await keeper.start()
    sessions = SessionManager(store, ownership=keeper)
    bot = RummyBot(
        sessions,
        guild_ready_timeout=0.05,
        extensions=EXTENSIONS,
        shard_count=SHARDS,
        shard_ids=[shard],
    )
    forwarder = forwarding_for(bot.intake, store, keeper, sessions.by_game)
    assert forwarder is not None
    bot.forwarder = forwarder
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_ready(30, shards=[shard])
        await eventually(bot.is_ready, 30)
        await eventually(forwarder.listening.is_set, 30)
        yield bot, sessions, forwarder
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
            await asyncio.wait_for(task, 10)
        await keeper.stop()
        await sessions.close()
        await leases.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def stale_click(fake: FakeDiscord, table: Table, user: User) -> float:
    """``user`` presses Draw of a turn long gone on a hand DM; the first answer's latency."""
    session = table.session()
    custom_id = f"rummy:do:draw:{session.game_id}:{session.view(None).turn + 1000}"
    ix = await fake.forged_click(user, fake.dm_channel(user), custom_id)
    await ix.response(5)
    await ix.followups(1, 5)  # the refusal: the click is over before the next one
    assert ix.latency is not None
    return ix.latency


async def main(args: argparse.Namespace) -> None:
    base = args.postgres
    async with scratch_database(base, "bench_fwd") as url, FakeDiscord(shards=SHARDS) as fake:
        with patch_discord(fake):
            local_guild = fake.add_guild("Local", shard=0)
            remote_guild = fake.add_guild("Remote", shard=1)
            ann, bob = fake.add_user("ann"), fake.add_user("bob")
            async with (
                process(fake, url, 1) as (bot_b, sessions_b, owner),
                process(fake, url, 0) as (bot_a, sessions_a, receiver),
            ):
                tables = {
                    "local": Table(
                        fake,
                        bot_a,
                        sessions_a,
                        local_guild,
                        local_guild.add_text_channel("t"),
                        [ann, bob],
                    ),
                    "forwarded": Table(
                        fake,
                        bot_b,
                        sessions_b,
                        remote_guild,
                        remote_guild.add_text_channel("t"),
                        [ann, bob],
                    ),
                }
                for table in tables.values():
                    await deal(table)
                times: dict[str, list[float]] = {kind: [] for kind in tables}
                for i in range(args.warmup + args.clicks):
                    for kind, table in tables.items():
                        latency = await stale_click(fake, table, (ann, bob)[i % 2])
                        if i >= args.warmup:
                            times[kind].append(latency)
                assert receiver.forwarded == owner.applied == args.warmup + args.clicks
                assert receiver.failed == 0
    for kind, values in times.items():
        print(
            f"{kind:>9} click, first answer: p50 {statistics.median(values) * 1000:.1f} ms,"
            f" p99 {pct(values, 0.99) * 1000:.1f} ms ({len(values)} clicks)"
        )
    ratio = statistics.median(times["forwarded"]) / statistics.median(times["local"])
    extra = statistics.median(times["forwarded"]) - statistics.median(times["local"])
    print(f"forwarded / local, medians: {ratio:.2f} (+{extra * 1000:.1f} ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=200, help="clicks of each kind measured")
    parser.add_argument("--warmup", type=int, default=10, help="clicks of each kind not measured")
    parser.add_argument("--postgres", help="PostgreSQL URL (default: RUMMY_TEST_POSTGRES)")
    args = parser.parse_args()
    args.postgres = server_or_throwaway(__file__, args.postgres)
    asyncio.run(main(args))
