"""Many concurrent games against the fake Discord, with its rate limits on.

The bot runs as a separate process (``python -m bot``) pointed at the fake; each game is
driven by two simulated players who read their hand DMs and press its buttons and menus,
like people would. Prints, per move rate: the median and 99th percentile from an
interaction's arrival to its answer, the 99th percentile until the table and the hand show
the move, the API calls under the global rate limit per ordinary turn (draw plus discard),
and the bot's memory per live game.

    .venv/bin/python benchmarks/bench_discord.py --games 200 --rates 40 --seconds 30
    .venv/bin/python benchmarks/bench_discord.py --games 200 --rates 40,80,120,160 --seconds 20

``--hard N`` seats a hard computer player in N of the games (it thinks in the bot's process
pool while the people of every game keep clicking) and first measures, in this process, how
long a hard move takes through that pool.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.discord.fake import Channel, FakeDiscord, Message, User  # noqa: E402


@dataclass
class Game:
    channel: Channel
    players: tuple[User, User]
    answers: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    turns: int = 0
    stuck: int = 0
    hard: bool = False


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def hand_dm(fake: FakeDiscord, user: User) -> Message | None:
    found = [m for m in fake.dms(user) if m.content.startswith("Your hand")]
    return found[-1] if found else None


_TABLES: dict[int, Message] = {}


def table_message(fake: FakeDiscord, channel: Channel) -> Message | None:
    known = _TABLES.get(channel.id)
    if known is not None and not known.deleted:
        return known
    threads = fake.threads(channel)  # the game plays in the thread of its lobby message
    where = threads[-1] if threads else channel
    found = [
        m for m in fake.messages(where) if any(a.filename == "table.png" for a in m.attachments)
    ]
    if found:
        _TABLES[channel.id] = found[-1]
    return found[-1] if found else None


def pick(message: Message, prefix: str) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith(prefix)), None)


async def setup_game(fake: FakeDiscord, game: Game) -> None:
    host, guest = game.players
    steps: tuple[tuple[User, str, dict[str, Any]], ...] = (
        (host, "rummy new", {"variant": "classic", "target": 100000, "timer": 0}),
        (guest, "rummy join", {}),
        *(((host, "rummy addbot", {"level": "hard"}),) if game.hard else ()),
        (host, "rummy start", {}),
    )
    for user, command, options in steps:
        ix = await fake.slash(user, game.channel, command, options=options)
        await ix.response(30)
        await ix.wait_until(lambda i: any(m.content for m in i.messages), 30)
        if command == "rummy new":
            # People follow the game into the thread Discord shows under the lobby message.
            await ix.wait_until(lambda i: any(m.thread for m in i.messages), 30)
    deadline = time.monotonic() + 60
    while (
        not any(hand_dm(fake, u) for u in game.players) or table_message(fake, game.channel) is None
    ):
        if time.monotonic() > deadline:
            raise RuntimeError(f"game in {game.channel.name} was not dealt")
        await asyncio.sleep(0.1)


async def one_move(fake: FakeDiscord, game: Game) -> bool:
    """The player to move presses the next button; False when nobody can move yet."""
    for user in game.players:
        dm = hand_dm(fake, user)
        if dm is None:
            continue
        draw = pick(dm, "rummy:do:draw:") or pick(dm, "rummy:do:end:")
        discard = pick(dm, "rummy:pick:discard:")
        if draw is None and discard is None:
            continue
        started = time.monotonic()
        table = table_message(fake, game.channel)
        table_edits = table.edits if table is not None else 0
        dm_edits = dm.edits
        if draw is not None:
            ix = await fake.click(user, dm, draw)
        else:
            assert discard is not None
            component = dm.component(discard)
            assert component is not None
            ix = await fake.select(user, dm, discard, [component["options"][0]["value"]])
            game.turns += 1
        await ix.response(30)
        if ix.latency is not None:
            game.answers.append(ix.latency)
        watch = asyncio.create_task(shown(fake, game, ix.created, table, table_edits, dm, dm_edits))
        WATCHERS.add(watch)
        watch.add_done_callback(WATCHERS.discard)
        # The next move needs the hand to show this one (its buttons come with it).
        deadline = started + 30
        while time.monotonic() < deadline and not (dm.edits > dm_edits or dm.deleted):
            await asyncio.sleep(0.02)
        return True
    return False


WATCHERS: set[asyncio.Task[None]] = set()


async def shown(
    fake: FakeDiscord,
    game: Game,
    created: float,
    table: Message | None,
    table_edits: int,
    dm: Message,
    dm_edits: int,
) -> None:
    """Record when both the table and the mover's hand show a move."""
    deadline = created + 60
    while time.monotonic() < deadline:
        now_table = table_message(fake, game.channel)
        table_done = now_table is not None and (
            now_table is not table or now_table.edits > table_edits
        )
        if table_done and (dm.edits > dm_edits or dm.deleted):
            game.shown.append(time.monotonic() - created)
            return
        await asyncio.sleep(0.05)


async def drive(fake: FakeDiscord, game: Game, interval: float, until: float) -> None:
    """Moves at random times, ``interval`` seconds apart on average (a Poisson process):
    a move that is late because the last one was slow to show goes as soon as it can."""
    rng = random.Random(game.channel.id)
    due = time.monotonic() + rng.expovariate(1 / interval)
    while due < until:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        while not await one_move(fake, game):
            game.stuck += 1
            if time.monotonic() > until:
                return
            await asyncio.sleep(0.05)
        due += rng.expovariate(1 / interval)


IGNORED: set[str] = set()
"""Channel ids of games with a computer player: it never stops playing, so they never
settle."""


async def settle(fake: FakeDiscord, quiet: float = 2.0, most: float = 120.0) -> None:
    """Wait until the bot has sent nothing for ``quiet`` seconds (its backlog is done)."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        last = max(
            (r.at for r in fake.requests if not any(c in r.path for c in IGNORED)), default=0.0
        )
        if time.monotonic() - last > quiet:
            return
        await asyncio.sleep(0.2)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def hard_move_times(moves: int) -> list[float]:
    """Seconds per hard move through the pool (round trip included), from a game of a
    person playing safe moves against a hard computer player, with the usual pause
    before each computer move (during the first, the pool starts)."""
    from bot.rummy import preset
    from bot.rummy.computer import safe_action
    from bot.sessions import Brains, SessionManager, SessionStatus

    brains = Brains()
    folder = Path(tempfile.mkdtemp(prefix="bench-hard-"))
    manager = await SessionManager.open(folder / "rummy.sqlite3", brains=brains)
    try:
        session = await manager.create_lobby(
            guild_id=1, channel_id=2, host_id=3, host_name="p", ruleset=preset("classic")
        )
        await session.add_computer(3, "hard", moderator=False)
        await session.start(3, moderator=False)
        while len(brains.hard_times) < moves and session.status is SessionStatus.ACTIVE:
            legal = session.legal_actions("3")
            if legal:
                await session.apply("3", safe_action(session.view("3"), legal))
            else:
                await asyncio.sleep(0.01)
        return list(brains.hard_times)
    finally:
        await manager.close()


async def main(args: argparse.Namespace) -> None:
    if args.hard:
        times = await hard_move_times(args.hard_moves)
        print(
            f"hard move through the pool: median {statistics.median(times) * 1000:.0f} ms,"
            f" max {max(times) * 1000:.0f} ms ({len(times)} moves)"
        )
    async with FakeDiscord(rate_limits=True) as fake:
        guild = fake.add_guild("Bench")
        games = [
            Game(
                guild.add_text_channel(f"table-{i}"),
                (fake.add_user(f"host{i}"), fake.add_user(f"guest{i}")),
            )
            for i in range(args.games)
        ]
        for game in games[: args.hard]:
            game.hard = True
            IGNORED.add(str(game.channel.id))
            IGNORED.update(str(fake.dm_channel(u).id) for u in game.players)
        folder = Path(tempfile.mkdtemp(prefix="bench-discord-"))
        env = {
            **os.environ,
            **fake.env(),
            "DATABASE_PATH": str(folder / "rummy.sqlite3"),
            "DEV_GUILD_ID": str(guild.id),
            "LOG_LEVEL": "WARNING",
        }
        log = (folder / "bot.log").open("w")
        bot = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            await fake.wait_ready(60)
            while not fake.commands(guild):
                await asyncio.sleep(0.1)
            base = rss_kib(bot.pid)
            gate = asyncio.Semaphore(20)

            async def setup(game: Game) -> None:
                async with gate:
                    await setup_game(fake, game)

            began = time.monotonic()
            await asyncio.gather(*(setup(g) for g in games))
            for game in games[: args.hard]:
                IGNORED.update(str(t.id) for t in fake.threads(game.channel))
            await settle(fake)
            live = rss_kib(bot.pid)
            print(
                f"{args.games} games dealt in {time.monotonic() - began:.1f} s;"
                f" bot memory {live / 1024:.1f} MiB,"
                f" {(live - base) / args.games:.1f} KiB per live game"
            )
            if args.warmup > 0:
                # Every player moves once or twice first: the steady state is what is measured.
                interval = args.games / args.rates[0]
                until = time.monotonic() + args.warmup
                await asyncio.gather(*(drive(fake, g, interval, until) for g in games))
                await settle(fake)
            for rate in args.rates:
                for g in games:
                    g.answers.clear()
                    g.shown.clear()
                    g.turns = 0
                since = time.monotonic()
                until = since + args.seconds
                interval = args.games / rate
                await asyncio.gather(*(drive(fake, g, interval, until) for g in games))
                elapsed = time.monotonic() - since
                await asyncio.gather(*WATCHERS)
                counted = [r for r in fake.counted_requests(since) if r.at <= since + elapsed]
                moved = sum(len(g.answers) for g in games)
                answers = [a for g in games for a in g.answers]
                shown = [s for g in games for s in g.shown]
                turns = sum(g.turns for g in games)
                # Calls the moves caused, including those sent after the window closed.
                counted = fake.counted_requests(since)
                limited = sum(1 for r in fake.requests if r.at >= since and r.limited)
                await settle(fake)
                print(
                    f"rate {rate}/s (achieved {moved / elapsed:.1f} moves/s):"
                    f" answer median {statistics.median(answers) * 1000:.0f} ms,"
                    f" p99 {pct(answers, 0.99) * 1000:.0f} ms;"
                    f" table+hand shown p99 {pct(shown, 0.99) * 1000:.0f} ms;"
                    f" {len(counted) / max(turns, 1):.2f} rate-limited calls per turn"
                    f" ({turns} turns, {limited} answered 429)"
                )
                routes: dict[str, int] = {}
                for r in counted:
                    routes[r.route] = routes.get(r.route, 0) + 1
                print(
                    "  calls:",
                    ", ".join(f"{n} {k}" for k, n in sorted(routes.items(), key=lambda x: -x[1])),
                )
            print(f"bot memory at the end {rss_kib(bot.pid) / 1024:.1f} MiB")
        finally:
            bot.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                bot.wait(10)
            log.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rates", type=lambda s: [float(x) for x in s.split(",")], default=[40.0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--hard", type=int, default=0, help="games with a hard computer player")
    parser.add_argument("--hard-moves", type=int, default=30, help="hard moves timed first")
    asyncio.run(main(parser.parse_args()))
