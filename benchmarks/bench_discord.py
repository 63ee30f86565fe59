"""Many concurrent games against the fake Discord, with its rate limits on.

The bot runs as a separate process (``python -m bot``) pointed at the fake; each game is
driven by two simulated players who read their hand DMs and press its buttons and menus,
or (every other game with ``--path both``, the default) who play by slash commands
(``/draw source:stock``, then ``/discard``), like people would. First a minute at human
pace (a move every 5 to 20 s per game), then at each move rate of ``--rates``; for each,
per path: the API calls under the global rate limit per ordinary turn (a draw from the
stock, then a discard; median and mean over the turns, each turn counting its game's calls
until the game's next turn begins), the median and 99th percentile from an interaction's
arrival to its answer, and the 99th percentile until the move is shown (a move within a
turn: the mover's hand; a turn's last move: the table too, and the next player's hand
offering their turn); and the bot's memory per live game.

    .venv/bin/python benchmarks/bench_discord.py --games 200 --rates 40,50,60 --seconds 30
    .venv/bin/python benchmarks/bench_discord.py --games 200 --rates 40,80,120,160 --seconds 20

``--hard N`` seats a hard computer player in N of the games (it thinks in the bot's process
pool while the people of every game keep clicking) and first measures, in this process, how
long a hard move takes through that pool.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
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
    slash: bool = False
    """The players move by slash commands (else by their DM buttons and menus)."""
    answers: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    turns: int = 0
    stuck: int = 0
    hard: bool = False
    starts: list[tuple[float, bool]] = field(default_factory=list)
    """When each turn began (its first move was made) and whether it is ordinary (a draw
    from the stock, then a discard)."""
    last_turn: int = -1
    """The turn number of the last draw made (slash players: the next move is a discard)."""
    drawer: User | None = None


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


def turn_of(custom_id: str) -> int:
    return int(custom_id.rsplit(":", 1)[1])


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
    """The player to move makes the next move; False when nobody can move yet."""
    if game.slash:
        return await _slash_move(fake, game)
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
            game.starts.append((started, draw.startswith("rummy:do:draw:")))
            ix = await fake.click(user, dm, draw)
            ends = draw.startswith("rummy:do:end:")
        else:
            assert discard is not None
            component = dm.component(discard)
            assert component is not None
            ix = await fake.select(user, dm, discard, [component["options"][0]["value"]])
            game.turns += 1
            ends = True
        await ix.response(30)
        if ix.latency is not None:
            game.answers.append(ix.latency)
        _watch(fake, game, ix.created, table, table_edits, dm, dm_edits, user, ends)
        # The next move needs the hand to show this one (its buttons come with it).
        deadline = started + 30
        while time.monotonic() < deadline and not (dm.edits > dm_edits or dm.deleted):
            await asyncio.sleep(0.02)
        return True
    return False


async def _slash_move(fake: FakeDiscord, game: Game) -> bool:
    """/draw source:stock when a player's hand DM offers this turn's draw, then
    /discard with the first card autocomplete offers."""
    user = game.drawer
    table = table_message(fake, game.channel)
    table_edits = table.edits if table is not None else 0
    if user is None:
        for candidate in game.players:
            dm = hand_dm(fake, candidate)
            draw = pick(dm, "rummy:do:draw:") if dm is not None else None
            if draw is not None and turn_of(draw) > game.last_turn:
                game.last_turn = turn_of(draw)
                game.starts.append((time.monotonic(), True))
                ix = await fake.slash(candidate, game.channel, "draw", source="stock")
                await ix.response(30)
                await ix.wait_until(lambda i: any(m.content for m in i.messages), 30)
                if ix.latency is not None:
                    game.answers.append(ix.latency)
                game.drawer = candidate
                return True
        return False
    choices = await fake.autocomplete(user, game.channel, "discard", focused="card", card="")
    dm = hand_dm(fake, user)
    assert dm is not None
    assert choices
    ix = await fake.slash(user, game.channel, "discard", card=choices[0]["value"])
    await ix.response(30)
    await ix.wait_until(lambda i: any(m.content for m in i.messages), 30)
    if ix.latency is not None:
        game.answers.append(ix.latency)
    game.turns += 1
    game.drawer = None
    _watch(fake, game, ix.created, table, table_edits, dm, dm.edits, user, True)
    return True


WATCHERS: set[asyncio.Task[None]] = set()


def _watch(
    fake: FakeDiscord,
    game: Game,
    created: float,
    table: Message | None,
    table_edits: int,
    dm: Message,
    dm_edits: int,
    mover: User,
    ends: bool,
) -> None:
    watch = asyncio.create_task(
        shown(fake, game, created, table, table_edits, dm, dm_edits, mover, ends)
    )
    WATCHERS.add(watch)
    watch.add_done_callback(WATCHERS.discard)


async def shown(
    fake: FakeDiscord,
    game: Game,
    created: float,
    table: Message | None,
    table_edits: int,
    dm: Message,
    dm_edits: int,
    mover: User,
    ends: bool,
) -> None:
    """Record when the move is shown: a move within the turn when the mover's hand shows it;
    the turn's last move when the table does too and the next player's hand offers them
    their turn."""
    deadline = created + 60
    other = next(u for u in game.players if u is not mover)
    while time.monotonic() < deadline:
        hand_done = dm.edits > dm_edits or dm.deleted or game.slash
        done = hand_done
        if ends:
            now_table = table_message(fake, game.channel)
            table_done = now_table is not None and (
                now_table is not table or now_table.edits > table_edits
            )
            nxt = hand_dm(fake, other)
            draw = (pick(nxt, "rummy:do:draw:") or pick(nxt, "rummy:do:end:")) if nxt else None
            done = hand_done and table_done and draw is not None
        if done:
            game.shown.append(time.monotonic() - created)
            return
        await asyncio.sleep(0.05)


async def drive(
    fake: FakeDiscord, game: Game, interval: float, until: float, human: bool = False
) -> None:
    """Moves at random times, ``interval`` seconds apart on average (a Poisson process),
    or, ``human``, 5 to 20 s apart: a move that is late because the last one was slow to
    show goes as soon as it can."""
    rng = random.Random(game.channel.id)

    def gap() -> float:
        return rng.uniform(5.0, 20.0) if human else rng.expovariate(1 / interval)

    due = time.monotonic() + (rng.uniform(0.0, 20.0) if human else gap())
    while due < until:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        while not await one_move(fake, game):
            game.stuck += 1
            if time.monotonic() > until:
                return
            await asyncio.sleep(0.05)
        due += gap()


def places(fake: FakeDiscord, game: Game) -> set[str]:
    """The channel ids a game's calls go to: its channel, the thread it plays in (started
    from its lobby message), and its players' DMs."""
    ids = {game.channel.id, *(t.id for t in fake.threads(game.channel))}
    ids.update(fake.dm_channel(user).id for user in game.players)
    return {str(i) for i in ids}


def calls_per_turn(fake: FakeDiscord, games: list[Game], since: float, until: float) -> list[int]:
    """Calls under the global limit each ordinary turn caused: a game's calls between the
    start of one of its turns and the start of its next (turns begun in the window)."""
    owner = {place: game for game in games for place in places(fake, game)}
    calls: dict[int, list[float]] = {id(g): [] for g in games}
    for record in fake.counted_requests(since):
        parts = record.path.split("/")
        if len(parts) > 2 and parts[1] == "channels" and parts[2] in owner:
            calls[id(owner[parts[2]])].append(record.at)
    counts: list[int] = []
    for game in games:
        starts = [(at, ordinary) for at, ordinary in game.starts if since <= at <= until]
        times = calls[id(game)]
        for (begin, ordinary), (end, _) in itertools.pairwise(starts):
            if ordinary:
                counts.append(sum(1 for at in times if begin <= at < end))
    return counts


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
                slash=args.path == "slash" or (args.path == "both" and i % 2 == 1),
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
                interval = args.games / args.rates[0] if args.rates else 1.0
                until = time.monotonic() + args.warmup
                await asyncio.gather(
                    *(drive(fake, g, interval, until, human=args.human > 0) for g in games)
                )
                await settle(fake)
            phases: list[tuple[str, float | None]] = []
            if args.human > 0:
                phases.append(("human pace (a move every 5-20 s per game)", None))
            phases.extend((f"rate {rate:g}/s", rate) for rate in args.rates)
            for label, rate in phases:
                for g in games:
                    g.answers.clear()
                    g.shown.clear()
                    g.starts.clear()
                    g.turns = 0
                since = time.monotonic()
                seconds = args.human if rate is None else args.seconds
                until = since + seconds
                interval = args.games / rate if rate else 1.0
                await asyncio.gather(
                    *(drive(fake, g, interval, until, human=rate is None) for g in games)
                )
                elapsed = time.monotonic() - since
                await asyncio.gather(*WATCHERS)
                await settle(fake)
                moved = sum(len(g.answers) for g in games)
                limited = sum(1 for r in fake.requests if r.at >= since and r.limited)
                print(
                    f"{label} (achieved {moved / elapsed:.1f} moves/s,"
                    f" {len(games)} games, {limited} answered 429):"
                )
                for name, slash in (("DM buttons and menus", False), ("slash commands", True)):
                    chosen = [g for g in games if g.slash is slash]
                    if not chosen:
                        continue
                    answers = [a for g in chosen for a in g.answers]
                    shown = [x for g in chosen for x in g.shown]
                    per_turn = calls_per_turn(fake, chosen, since, since + elapsed)
                    routes: dict[str, int] = {}
                    owned = {place for g in chosen for place in places(fake, g)}
                    for r in fake.counted_requests(since):
                        parts = r.path.split("/")
                        if len(parts) > 2 and parts[2] in owned:
                            routes[r.route] = routes.get(r.route, 0) + 1
                    print(
                        f"  {name}: calls under the global limit per ordinary turn: median"
                        f" {statistics.median(per_turn) if per_turn else float('nan'):g},"
                        f" mean {statistics.fmean(per_turn) if per_turn else float('nan'):.2f}"
                        f" ({len(per_turn)} turns); answer median"
                        f" {statistics.median(answers) * 1000:.0f} ms,"
                        f" p99 {pct(answers, 0.99) * 1000:.0f} ms; shown p99"
                        f" {pct(shown, 0.99) * 1000:.0f} ms"
                    )
                    print(
                        "    calls:",
                        ", ".join(
                            f"{n} {k}" for k, n in sorted(routes.items(), key=lambda x: -x[1])
                        ),
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
    parser.add_argument(
        "--rates", type=lambda s: [float(x) for x in s.split(",") if x], default=[40.0]
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=60.0,
        help="seconds of play first (everyone past a first turn)",
    )
    parser.add_argument(
        "--human", type=float, default=60.0, help="seconds at human pace first (0: none)"
    )
    parser.add_argument(
        "--path", choices=("dm", "slash", "both"), default="both", help="how the players move"
    )
    parser.add_argument("--hard", type=int, default=0, help="games with a hard computer player")
    parser.add_argument("--hard-moves", type=int, default=30, help="hard moves timed first")
    asyncio.run(main(parser.parse_args()))
