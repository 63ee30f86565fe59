"""``python -m bot`` with ``SHARD_COUNT=2`` against a two-shard Discord: one process runs both
shards, and a game in a server of each shard is played through slash commands and the
buttons of the hand DMs (which Discord delivers on shard 0 whatever the server)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.discord.fake import Channel, FakeDiscord, User
from tests.discord.test_process import answered, hand_dm, running_bot, tables, with_button
from tests.waiting import eventually


async def play_a_turn(fake: FakeDiscord, channel: Channel, users: list[User]) -> None:
    """The player to move draws and discards by the buttons of their hand DM; the table in
    the game's channel shows the discard."""
    await eventually(lambda: with_button(fake, users, "rummy:do:draw:") is not None)
    found = with_button(fake, users, "rummy:do:draw:")
    assert found is not None
    user, dm, draw = found
    click = await fake.click(user, dm, draw)
    await click.response()
    await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
    menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
    component = dm.component(menu)
    assert component is not None
    pick = await fake.select(user, dm, menu, [component["options"][0]["value"]])
    await pick.response()
    await eventually(lambda: bool(tables(fake, channel)))
    await eventually(lambda: "discarded" in tables(fake, channel)[-1].content)
    other = users[1] if user is users[0] else users[0]
    await eventually(lambda: with_button(fake, [other], "rummy:do:draw:") is not None)


@pytest.mark.fake(shards=2, max_concurrency=2, rate_limits=True)
async def test_one_process_runs_both_shards_and_plays_a_game_in_a_server_of_each(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    first = fake.add_guild("First", shard=0)
    second = fake.add_guild("Second", shard=1)
    here, there = first.add_text_channel("rummy"), second.add_text_channel("rummy")
    players = {
        here.id: [fake.add_user("ann"), fake.add_user("bob")],
        there.id: [fake.add_user("cat"), fake.add_user("dan")],
    }
    env = {
        "DATABASE_PATH": str(tmp_path / "rummy.sqlite3"),
        "SHARD_COUNT": "2",
        "LOG_LEVEL": "WARNING",
    }
    log = tmp_path / "bot.log"
    with running_bot(fake, env, log):
        await fake.wait_ready(30)
        assert fake.identify_count == 2  # one connection per shard
        await eventually(lambda: bool(fake.commands()), 30)
        for channel in (here, there):
            host, guest = players[channel.id]
            assert "Rummy table" in await answered(
                fake, host, channel, "rummy new", variant="classic"
            )
            assert "seat" in await answered(fake, guest, channel, "rummy join")
            assert "dealt" in await answered(fake, host, channel, "rummy start")
        everyone = [user for seated in players.values() for user in seated]
        await eventually(lambda: all(hand_dm(fake, user) for user in everyone))
        await asyncio.gather(
            play_a_turn(fake, here, players[here.id]), play_a_turn(fake, there, players[there.id])
        )
        assert fake.connected_shards == {0, 1}
    assert "Traceback" not in log.read_text(errors="replace")


@pytest.mark.fake(shards=2, rate_limits=False)
async def test_too_few_shards_stop_the_start_in_one_line(fake: FakeDiscord, tmp_path: Path) -> None:
    env = {"DATABASE_PATH": str(tmp_path / "rummy.sqlite3"), "SHARD_COUNT": "1"}
    log = tmp_path / "bot.log"
    with running_bot(fake, env, log) as process:
        assert await asyncio.to_thread(process.wait, 30) == 2
    output = log.read_text(errors="replace")
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if " ERROR " in line]
    assert len(errors) == 1, output
    assert "Discord refused the shards (code 4011" in errors[0]
    assert "check SHARD_COUNT and SHARD_IDS" in errors[0]
