"""How soon a game moves on after a fault: a database that refused every write for a while,
and a hard player's worker process that died.

    .venv/bin/python benchmarks/bench_recovery.py [--outages 1,3,10] [--kills 5]

Outages: a computer player is to move when the database starts refusing writes for the
given seconds; printed is how late its move is committed after the database answers again
(the session's pauses between tries double from 0.5 s to 30 s, so lateness grows with the
outage, by design). Kills: the median time of a hard move planned just after its pool's
worker was killed (a new pool is started, then the move planned there), beside a hard move
in a warm pool.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.rummy import Game, preset  # noqa: E402
from bot.rummy.computer import make_player, safe_action  # noqa: E402
from bot.sessions import Brains, SessionManager, SessionStatus  # noqa: E402
from bot.storage import Database, open_store  # noqa: E402
from tests.sessions.faults import FaultyStore  # noqa: E402

HUMAN = 111


async def outage(folder: Path, seconds: float) -> float:
    """Seconds from the end of a ``seconds`` long refusal to the computer's move."""
    inner = await open_store(folder / f"outage-{seconds}.sqlite3")
    assert isinstance(inner, Database)
    store = FaultyStore(inner)
    manager = SessionManager(store, Brains(delay=0))
    try:
        session = await manager.create_lobby(
            guild_id=1,
            channel_id=2,
            host_id=HUMAN,
            host_name="Ann",
            ruleset=preset("classic"),
            seed=5,
        )
        await session.add_computer(HUMAN, "easy", moderator=False)
        await session.start(HUMAN, moderator=False)
        me = str(HUMAN)
        while session.view(None).current == me:
            await session.apply(me, safe_action(session.view(me), session.legal_actions(me)))
        store.refuse_until = time.monotonic() + seconds  # before the computer's first try
        seq = session.seq
        while session.seq == seq and session.status is SessionStatus.ACTIVE:
            await asyncio.sleep(0.005)
        return time.monotonic() - store.refuse_until
    finally:
        await manager.close()


async def hard_moves(kills: int) -> tuple[list[float], list[float]]:
    """Times of hard moves in a warm pool, and just after its worker was killed."""
    brains = Brains(hard_budget=0.2)
    game = Game.new(preset("classic"), ["a", "b"], seed=3)
    player = game.view(None).current
    assert player is not None
    warm: list[float] = []
    after_kill: list[float] = []
    try:
        for n in range(kills):
            brains.warm()
            while not brains.warmed:
                await asyncio.sleep(0.01)
            hard = make_player("hard", brains.hard_budget)
            start = time.perf_counter()
            await brains.choose(hard, game.view(player), game.legal_actions(player), n)
            warm.append(time.perf_counter() - start)
            for child in multiprocessing.active_children():
                if child.pid is not None:
                    os.kill(child.pid, signal.SIGKILL)
            await asyncio.sleep(0.2)  # the pool notices its worker's death
            start = time.perf_counter()
            await brains.choose(hard, game.view(player), game.legal_actions(player), n)
            after_kill.append(time.perf_counter() - start)
    finally:
        await brains.close()
    return warm, after_kill


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--outages", default="1,3,10", help="seconds, comma-separated")
    parser.add_argument("--kills", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for seconds in (float(x) for x in args.outages.split(",")):
            late = await outage(Path(folder), seconds)
            print(f"database refused writes {seconds:.0f} s: computer moved {late:.2f} s after")
    warm, after_kill = await hard_moves(args.kills)
    print(
        f"hard move, warm pool: median {statistics.median(warm) * 1000:.0f} ms; "
        f"just after its worker died: median {statistics.median(after_kill) * 1000:.0f} ms, "
        f"at most {max(after_kill) * 1000:.0f} ms ({args.kills} kills)"
    )


if __name__ == "__main__":
    asyncio.run(main())
