"""Two ``python -m bot`` processes on one PostgreSQL, one shard each: the one running a
game's server is SIGKILLed mid-game, the other takes its shard over within the lease's time
to live (connecting Discord again with both shards) and the game goes on there with the
same buttons; stopped by SIGTERM, it gives its leases up."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_process import answered, hand_dm, running_bot
from tests.discord.test_process_shards import play_a_turn
from tests.waiting import PATIENCE, eventually

pytestmark = pytest.mark.postgres_only


@pytest.mark.fake(shards=2, max_concurrency=2, rate_limits=False)
async def test_a_killed_process_game_goes_on_in_the_other(
    fake: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    guild = fake.add_guild("Second", shard=1)
    channel = guild.add_text_channel("rummy")
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    env = {
        "DATABASE_URL": pg_url,
        "SHARD_COUNT": "2",
        # Renewal rounds 4 s apart, each allowed 4 s: a loaded machine keeps its leases (a
        # dead process of this machine is taken over at the next round all the same).
        "LEASE_SECONDS": "12",
        "LOG_LEVEL": "INFO",
        "DISCORD_LOG_LEVEL": "WARNING",
    }
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    with (
        running_bot(fake, {**env, "SHARD_IDS": "0"}, first_log) as first,
        running_bot(fake, {**env, "SHARD_IDS": "1"}, second_log) as second,
    ):
        await eventually(lambda: fake.connected_shards == {0, 1}, 30)
        await eventually(lambda: bool(fake.commands()), 30)
        assert "Rummy table" in await answered(fake, ann, channel, "rummy new", variant="classic")
        assert "seat" in await answered(fake, bob, channel, "rummy join")
        assert "dealt" in await answered(fake, ann, channel, "rummy start")
        await eventually(lambda: bool(hand_dm(fake, ann) and hand_dm(fake, bob)))

        second.kill()
        await asyncio.to_thread(second.wait, PATIENCE)
        taken = "shards [1] taken over; 1 unfinished games loaded"
        await eventually(lambda: taken in first_log.read_text(errors="replace"), 30)
        await eventually(lambda: fake.connected_shards == {0, 1}, 30)
        await play_a_turn(fake, channel, [ann, bob])

        first.send_signal(signal.SIGTERM)  # a clean stop gives the leases up, last
        assert await asyncio.to_thread(first.wait, 30) == 0
    output = first_log.read_text(errors="replace")
    assert "Traceback" not in output
    assert "shards [1] taken over; 1 unfinished games loaded" in output
    assert "lease of shard 1 released (generation 2)" in output
