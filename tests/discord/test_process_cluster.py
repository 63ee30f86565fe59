"""The whole cluster at once: two ``python -m bot`` processes on one PostgreSQL, two shards
each (``SHARD_COUNT=4``, ``SHARD_IDS`` 0,1 and 2,3), a game in a server of every shard.
Every hand-DM click reaches shard 0's process, as on Discord, which hands those of the other
process's games on; one of them is delivered twice and applied once. The second process is
SIGKILLed mid-turn (its player has drawn and not discarded yet); the first takes its shards
over and the turn goes on from the drawn card; every move acknowledged before the kill is in
the stored games."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import psycopg
import pytest

from tests.discord.fake import Channel, FakeDiscord, Guild, User
from tests.discord.test_process import answered, hand_dm, running_bot, tables, with_button
from tests.discord.test_process_shards import play_a_turn
from tests.waiting import PATIENCE, eventually

pytestmark = pytest.mark.postgres_only

HANDED_ON = "handed on by the process that received it; answered here"


async def stored_moves(url: str) -> dict[int, int]:
    """Each live game's count of stored moves, by server."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute(
            "SELECT guild_id, action_count FROM games WHERE status = 'active'"
        )
        return {int(guild): int(count) for guild, count in await cursor.fetchall()}


async def open_game(fake: FakeDiscord, channel: Channel, host: User, guest: User) -> None:
    assert "Rummy table" in await answered(fake, host, channel, "rummy new", variant="classic")
    assert "seat" in await answered(fake, guest, channel, "rummy join")
    assert "dealt" in await answered(fake, host, channel, "rummy start")


@pytest.mark.fake(shards=4, max_concurrency=4, rate_limits=False)
async def test_two_processes_of_two_shards_forward_clicks_and_survive_a_kill(
    fake: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    guilds: list[Guild] = [fake.add_guild(f"Shard {k}", shard=k) for k in range(4)]
    channels = [guild.add_text_channel("rummy") for guild in guilds]
    players = [[fake.add_user(f"p{k}a"), fake.add_user(f"p{k}b")] for k in range(4)]
    acknowledged = {guild.id: 0 for guild in guilds}
    env = {
        "DATABASE_URL": pg_url,
        "SHARD_COUNT": "4",
        # Renewal rounds 4 s apart, each allowed 4 s: a loaded machine keeps its leases (a
        # dead process of this machine is taken over at the next round all the same).
        "LEASE_SECONDS": "12",
        "LOG_LEVEL": "DEBUG",
        "DISCORD_LOG_LEVEL": "WARNING",
    }
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    with (
        running_bot(fake, {**env, "SHARD_IDS": "0,1"}, first_log) as first,
        running_bot(fake, {**env, "SHARD_IDS": "2,3"}, second_log) as second,
    ):
        await eventually(lambda: fake.connected_shards == {0, 1, 2, 3}, 30)
        await eventually(lambda: bool(fake.commands()), 30)
        for channel, (host, guest) in zip(channels, players, strict=True):
            await open_game(fake, channel, host, guest)
        everyone = [user for pair in players for user in pair]
        await eventually(lambda: all(hand_dm(fake, user) for user in everyone))

        # A turn in every game by DM buttons: all clicks arrive on shard 0's process.
        await asyncio.gather(
            *(play_a_turn(fake, c, p) for c, p in zip(channels, players, strict=True))
        )
        for guild in guilds:
            acknowledged[guild.id] += 2  # a draw and a discard
        assert HANDED_ON in second_log.read_text(errors="replace")

        # In a game of the second process: a draw, delivered twice, applied once.
        channel, pair, guild = channels[2], players[2], guilds[2]
        await eventually(lambda: with_button(fake, pair, "rummy:do:draw:") is not None)
        found = with_button(fake, pair, "rummy:do:draw:")
        assert found is not None
        user, dm, draw = found
        click = await fake.click(user, dm, draw)
        assert (await click.response()).deferred
        await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
        await fake.redeliver(click)
        acknowledged[guild.id] += 1
        await asyncio.sleep(0.5)  # time for the repeat to be dropped, or wrongly applied
        assert click.rejected == []  # the repeat was never answered a second time
        assert await stored_moves(pg_url) == acknowledged

        # The second process dies between that draw and its discard.
        second.kill()
        await asyncio.to_thread(second.wait, PATIENCE)
        taken = "shards [2, 3] taken over; 2 unfinished games loaded"
        await eventually(lambda: taken in first_log.read_text(errors="replace"), 30)
        await eventually(lambda: fake.connected_shards == {0, 1, 2, 3}, 30)

        # The drawn card is there: the same player discards by the same menu.
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        pick = await fake.select(user, dm, menu, [component["options"][0]["value"]])
        await pick.response()
        await eventually(lambda: "discarded" in tables(fake, channel)[-1].content)
        acknowledged[guild.id] += 1
        assert pick.rejected == []

        # Every game goes on in the surviving process, its own and those taken over.
        await asyncio.gather(
            *(play_a_turn(fake, c, p) for c, p in zip(channels, players, strict=True))
        )
        for each in guilds:
            acknowledged[each.id] += 2
        assert await stored_moves(pg_url) == acknowledged

        first.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(first.wait, 30) == 0
    survivor, dead = (log.read_text(errors="replace") for log in (first_log, second_log))
    assert "Traceback" not in survivor + dead
    assert "was delivered again; the repeat is dropped" in survivor
    assert "did not claim it" not in survivor
    assert "no live owner" not in survivor
