"""``/rummy forget-me`` with two ``python -m bot`` processes on one PostgreSQL, one shard
each: the person sits in a game in a server of each shard and asks in the first process's
server; the answer counts both games, and the second process ends its own within seconds.
Nothing of the person is left in the stored seats, and no request is left waiting."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import psycopg
import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_process import running_bot
from tests.discord.test_process_cluster import open_game
from tests.waiting import eventually, eventually_async

pytestmark = pytest.mark.postgres_only


async def stored(url: str, user_id: int) -> tuple[int, int, int]:
    """Games in play, seats of ``user_id``, and erasure requests waiting."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute(
            "SELECT (SELECT count(*) FROM games WHERE status = 'active'),"
            " (SELECT count(*) FROM seats WHERE user_id = %s),"
            " (SELECT count(*) FROM erasure_requests)",
            (user_id,),
        )
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


@pytest.mark.fake(shards=2, max_concurrency=2, rate_limits=False)
async def test_forget_me_ends_the_game_the_other_process_plays(
    fake: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    guilds = [fake.add_guild(f"Shard {k}", shard=k) for k in range(2)]
    channels = [guild.add_text_channel("rummy") for guild in guilds]
    zeb, bob, cat = fake.add_user("zeb"), fake.add_user("bob"), fake.add_user("cat")
    env = {"DATABASE_URL": pg_url, "SHARD_COUNT": "2", "LOG_LEVEL": "INFO"}
    logs = tmp_path / "first.log", tmp_path / "second.log"
    with (
        running_bot(fake, {**env, "SHARD_IDS": "0"}, logs[0]) as first,
        running_bot(fake, {**env, "SHARD_IDS": "1"}, logs[1]) as second,
    ):
        await eventually(lambda: fake.connected_shards == {0, 1}, 30)
        await eventually(lambda: bool(fake.commands()), 30)
        await open_game(fake, channels[0], zeb, bob)
        await open_game(fake, channels[1], cat, zeb)
        assert await stored(pg_url, zeb.id) == (2, 2, 0)

        ix = await fake.slash(zeb, channels[0], "rummy forget-me")
        asked = await ix.response()
        assert asked.ephemeral
        assert asked.message is not None
        button = asked.message.button("Forget me")
        click = await fake.click(zeb, asked.message, button["custom_id"])
        await click.response()
        await click.wait_until(lambda i: any(m.content for m in i.messages))
        assert click.messages[-1].content.startswith("Done: 2 games in progress ended")

        async def erased() -> bool:  # the second process's part, done in its own time
            return await stored(pg_url, zeb.id) == (0, 0, 0)

        await eventually_async(erased)

        for process in (first, second):
            process.send_signal(signal.SIGTERM)
        for process in (first, second):
            assert await asyncio.to_thread(process.wait, 30) == 0
    first_text, second_text = (log.read_text(errors="replace") for log in logs)
    assert "Traceback" not in first_text + second_text
    assert "erased a person for another process: 1 live games ended here" in second_text
