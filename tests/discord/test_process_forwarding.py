"""Two ``python -m bot`` processes on one PostgreSQL, one shard each, the game in a server of
shard 1: every hand-DM click reaches shard 0's process (as on Discord), which hands it to
the game's process; the turn is played by DM buttons and menus all the same, and a click
delivered twice is applied once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_process import answered, hand_dm, running_bot, tables, with_button
from tests.waiting import eventually

pytestmark = pytest.mark.postgres_only


@pytest.mark.fake(shards=2, max_concurrency=2, rate_limits=False)
async def test_dm_clicks_on_the_other_process_game_are_played_there(
    fake: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    guild = fake.add_guild("Second", shard=1)
    channel = guild.add_text_channel("rummy")
    users = [fake.add_user("ann"), fake.add_user("bob")]
    env = {"DATABASE_URL": pg_url, "SHARD_COUNT": "2", "LOG_LEVEL": "INFO"}
    logs = [tmp_path / "shard0.log", tmp_path / "shard1.log"]
    with (
        running_bot(fake, {**env, "SHARD_IDS": "0"}, logs[0]),
        running_bot(fake, {**env, "SHARD_IDS": "1"}, logs[1]),
    ):
        await eventually(lambda: fake.connected_shards == {0, 1}, 30)
        await eventually(lambda: bool(fake.commands()), 30)
        assert "Rummy table" in await answered(fake, users[0], channel, "rummy new")
        assert "seat" in await answered(fake, users[1], channel, "rummy join")
        assert "dealt" in await answered(fake, users[0], channel, "rummy start")
        await eventually(lambda: all(hand_dm(fake, u) for u in users))

        await eventually(lambda: with_button(fake, users, "rummy:do:draw:") is not None)
        found = with_button(fake, users, "rummy:do:draw:")
        assert found is not None
        user, dm, draw = found
        hand_before = dm.content
        click = await fake.click(user, dm, draw)
        assert (await click.response()).deferred  # answered by the game's process, in time
        await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
        await fake.redeliver(click)  # once more: dropped by the process that received it
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        pick = await fake.select(user, dm, menu, [component["options"][0]["value"]])
        await pick.response()
        await eventually(lambda: bool(tables(fake, channel)))
        await eventually(lambda: "discarded" in tables(fake, channel)[-1].content)
        assert dm.content != hand_before
        assert click.rejected == []  # the repeat was never answered (no second answer)
        assert pick.rejected == []
    receiver, owner = (log.read_text(errors="replace") for log in logs)
    assert "Traceback" not in receiver + owner
    assert "did not claim it" not in receiver
    assert "no live owner" not in receiver
    assert "delivered again" in receiver
