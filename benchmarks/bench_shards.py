"""How long a sharded bot takes to connect every shard: ``python -m bot`` against the fake
Discord with 1 or 4 shards, Discord's identify concurrency (``max_concurrency``) 1 or 4.

Discord lets each of ``max_concurrency`` buckets identify once every 5 s; discord.py waits
5 s before every identify but the first whatever that number, and the bot waits only when
the shard's bucket identified less than 5 s ago. Printed: the median seconds from the
process's start until the fake has every shard connected with its guilds, and the ratio to
one shard.

    .venv/bin/python benchmarks/bench_shards.py --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.discord.fake import FakeDiscord  # noqa: E402

CASES = ((1, 1), (4, 1), (4, 4))
"""(shards, max_concurrency)."""


async def time_to_ready(shards: int, concurrency: int) -> float:
    """Seconds from ``python -m bot``'s start to every shard ready, in the fake's eyes."""
    async with FakeDiscord(shards=shards, max_concurrency=concurrency, rate_limits=False) as fake:
        for shard in range(shards):
            fake.add_guild(f"server {shard}", shard=shard)
        with tempfile.TemporaryDirectory() as folder:
            env = {
                **os.environ,
                **fake.env(),
                "DATABASE_PATH": str(Path(folder) / "rummy.sqlite3"),
                "LOG_LEVEL": "WARNING",
                "RUMMY_ENV_FILE": "",
            }
            start = time.monotonic()
            process = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                await fake.wait_ready(120)
                return time.monotonic() - start
            finally:
                process.kill()
                process.wait()


async def main(runs: int) -> None:
    base: float | None = None
    for shards, concurrency in CASES:
        median = statistics.median([await time_to_ready(shards, concurrency) for _ in range(runs)])
        base = base or median
        print(
            f"{shards} shard(s), max_concurrency {concurrency}: {median:.2f} s to every shard"
            f" ready (median of {runs}; x{median / base:.1f} one shard's)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="starts per case (default 3)")
    asyncio.run(main(parser.parse_args().runs))
