"""Storage figures: the time to commit one action through a session, and the time to load
1,000 unfinished games back at start-up.

    .venv/bin/python benchmarks/bench_storage.py [--actions N] [--games N]

Targets: commit median under 5 ms; reload of 1,000 games under 2 s. The database is a real
file in a temporary folder, with the bot's own settings (WAL, synchronous=FULL,
secure_delete). A commit includes applying to a copy of the game, the snapshot, the write
and the frozen per-player views of the event.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.rummy import Game, action_to_json, preset
from bot.rummy.players import random_action
from bot.sessions import Session, SessionManager
from bot.storage import Database
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats

PRESETS = ("classic", "parlett", "500")


def seats(count: int, first_user: int) -> list[NewSeat]:
    return [NewSeat.human(first_user + i, f"Player {i}") for i in range(count)]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def deal(manager: SessionManager, channel: int) -> Session:
    """A dealt game through the lobby, as people make one."""
    host = channel * 10
    lobby = await manager.create_lobby(
        guild_id=1,
        channel_id=channel,
        host_id=host,
        host_name="Player 0",
        ruleset=preset(PRESETS[channel % 3]),
        seed=channel,
    )
    for seat in seats(2 + channel % 3, host)[1:]:
        assert seat.user_id is not None
        await lobby.join(seat.user_id, seat.display_name)
    await lobby.start(host, moderator=False)
    return lobby


async def bench_commit(folder: Path, actions: int) -> None:
    manager = await SessionManager.open(folder / "commit.sqlite3")
    rng = random.Random(1)
    sessions: list[Session] = []
    samples: list[float] = []
    channel = 0
    try:
        while len(samples) < actions:
            sessions = [s for s in sessions if not s.closed]
            while len(sessions) < 20:
                channel += 1
                sessions.append(await deal(manager, channel))
            session = rng.choice(sessions)
            game = session.game  # the benchmark plays for everyone
            assert game is not None
            assert game.current_player is not None
            action = random_action(game, rng)
            start = time.perf_counter()
            await session.apply(game.current_player, action, turn=session.turn)
            samples.append(time.perf_counter() - start)
    finally:
        await manager.close()

    print(
        f"commit one action through a session ({len(samples)} actions, {channel} games):"
        f" median {statistics.median(samples) * 1e3:.2f} ms,"
        f" p99 {percentile(samples, 0.99) * 1e3:.2f} ms,"
        f" max {max(samples) * 1e3:.2f} ms (target: median < 5 ms)"
    )


async def store_unfinished_games(path: Path, count: int) -> int:
    """Store ``count`` games part-way through, each with its log and latest snapshot.

    The games are played in memory and written straight through the repository, in batches,
    because committing each action separately would only make the set-up slow.
    """
    rng = random.Random(2)
    db = await Database.open(path)
    actions = 0
    try:
        for batch in range(0, count, 100):
            async with db.unit() as repo:
                for number in range(batch, min(batch + 100, count)):
                    ruleset = preset(PRESETS[number % 3])
                    placed = assign_seats(seats(2 + number % 3, number * 10))
                    game = Game.new(ruleset, [s.player_id for s in placed], seed=number)
                    record = await repo.create_game(
                        guild_id=1 + number % 7,
                        channel_id=number,
                        host_id=number * 10,
                        ruleset=ruleset.to_json(),
                        seed=game.seed,
                        seats=placed,
                        snapshot=game.to_json(),
                        at=utc_now(),
                    )
                    played = []
                    for _ in range(rng.randint(20, 120)):
                        action = random_action(game, rng)
                        game.apply(action)
                        if game.is_over:
                            break
                        played.append(action)
                    if game.is_over:  # keep it unfinished: step back before the last action
                        game = Game.replay(ruleset, game.players, game.seed, played)
                    # Only the snapshot after the last action is ever read back.
                    snapshot = game.to_json()
                    for seq, action in enumerate(played, start=1):
                        await repo.append_action(
                            record.id, seq, action_to_json(action), snapshot, utc_now()
                        )
                    actions += len(played)
    finally:
        await db.close()
    return actions


async def bench_reload(folder: Path, count: int) -> None:
    path = folder / "reload.sqlite3"
    actions = await store_unfinished_games(path, count)
    size = sum(p.stat().st_size for p in folder.glob("reload.sqlite3*")) / 1e6
    samples: list[float] = []
    for _ in range(3):
        start = time.perf_counter()
        manager = await SessionManager.open(path)
        loaded = await manager.load_active()
        samples.append(time.perf_counter() - start)
        await manager.close()
        assert loaded == count, loaded
    print(
        f"load {count} unfinished games at start-up ({actions} stored actions, {size:.1f} MB):"
        f" median {statistics.median(samples):.3f} s, best {min(samples):.3f} s over 3 runs"
        " (open + migrate check + load_active; target < 2 s)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as folder:
        await bench_commit(Path(folder), args.actions)
        await bench_reload(Path(folder), args.games)


if __name__ == "__main__":
    asyncio.run(main())
