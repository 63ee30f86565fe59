"""Shards in the fake Discord: the count it asks for, IDENTIFY checked as Discord does, and
each server's events and interactions on its own shard's connection, DMs on shard 0."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.test_fake_bot import ProbeBot
from tests.waiting import eventually


class ShardedProbe(ProbeBot, commands.AutoShardedBot):
    """The probe bot on some of the shards; it notes the interactions it received."""

    def __init__(self, shard_count: int | None = None, shard_ids: list[int] | None = None) -> None:
        super().__init__()
        if shard_count is not None:  # else asked of Discord
            self.shard_count = shard_count
        self.shard_ids = shard_ids
        self.seen: list[int | None] = []

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(interaction.guild_id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """The fake has no identify limit; discord.py would wait 5 s between shards."""


async def identify(fake: FakeDiscord, shard: object) -> tuple[int | None, str]:
    """IDENTIFY with ``shard`` (left out when None); the close code and the first event."""
    d: dict[str, object] = {"token": fake.token, "intents": 1, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_str(json.dumps({"op": 2, "d": d}))
        msg = await ws.receive(5)
        first = json.loads(msg.data).get("t", "") if msg.type == aiohttp.WSMsgType.TEXT else ""
        if msg.type == aiohttp.WSMsgType.TEXT:
            await ws.close()
        return ws.close_code if msg.type != aiohttp.WSMsgType.TEXT else None, first


async def test_gateway_bot_answers_the_configured_count() -> None:
    async with FakeDiscord(shards=3) as fake, aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {fake.token}"}
        async with http.get(f"{fake.api_base}/gateway/bot", headers=auth) as response:
            body = await response.json()
    assert body["shards"] == 3


async def test_identify_is_checked_as_discord_does() -> None:
    async with FakeDiscord(shards=2) as fake:
        assert await identify(fake, None) == (4011, "")  # sharding required
        assert await identify(fake, [0, 1]) == (4011, "")  # too few shards
        assert await identify(fake, [2, 2]) == (4010, "")  # id outside the count
        assert await identify(fake, [-1, 2]) == (4010, "")
        assert await identify(fake, [0, 3]) == (4010, "")  # not the fake's count
        assert await identify(fake, "0,2") == (4010, "")
        assert await identify(fake, [1, 2]) == (None, "READY")
    async with FakeDiscord() as fake:
        assert await identify(fake, None) == (None, "READY")  # one shard: none needed
        assert await identify(fake, [0, 1]) == (None, "READY")
        assert await identify(fake, [1, 1]) == (4010, "")


def test_guilds_made_for_a_shard_are_routed_to_it() -> None:
    fake = FakeDiscord(shards=4)
    for shard in (3, 0, 2, 1, 1):
        guild = fake.add_guild(shard=shard)
        assert (guild.id >> 22) % 4 == shard == fake.shard_of(guild)
    assert len(fake.guilds) == 5
    assert fake.shard_of(None) == 0
    with pytest.raises(ValueError, match="outside"):
        fake.add_guild(shard=4)


@pytest.mark.fake(shards=2)
async def test_each_process_gets_only_its_shards_servers_and_dms_go_to_shard_0(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    first = fake.add_guild("First", shard=0)
    second = fake.add_guild("Second", shard=1)
    alice = fake.add_user("alice")
    zero: ShardedProbe = await bot_factory(ShardedProbe(2, [0]), ready=False)
    one: ShardedProbe = await bot_factory(ShardedProbe(2, [1]), ready=False)
    await fake.wait_ready()
    await eventually(lambda: zero.is_ready() and one.is_ready())
    assert fake.connected_shards == {0, 1}
    assert [g.id for g in zero.guilds] == [first.id]
    assert [g.id for g in one.guilds] == [second.id]

    here = second.add_text_channel("table")
    await eventually(lambda: one.get_channel(here.id) is not None)
    assert zero.get_channel(here.id) is None  # the event went to shard 1 only

    for channel in (first.add_text_channel("t"), here, fake.dm_channel(alice)):
        answer = await (await fake.slash(alice, channel, "meld", cards="7h")).response()
        assert answer.content == "melded 7h"
    assert zero.seen == [first.id, None]
    assert one.seen == [second.id]

    later = fake.add_guild("Later", shard=1)
    await eventually(lambda: one.get_guild(later.id) is not None)
    assert zero.get_guild(later.id) is None


@pytest.mark.fake(shards=2)
async def test_a_process_on_one_shard_leaves_the_other_unserved(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    other = fake.add_guild("Other", shard=1)
    alice = fake.add_user("alice")
    await bot_factory(ShardedProbe(2, [0]), ready=False)
    await fake.wait_ready(shards=[0])
    assert not fake.connected
    with pytest.raises(TimeoutError):  # the interaction waits for shard 1's connection
        await asyncio.wait_for(
            fake.slash(alice, other.add_text_channel("t"), "meld", cards="7h"), 0.5
        )


@pytest.mark.fake(shards=2)
async def test_one_process_may_run_every_shard_and_resume_one(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guilds = [fake.add_guild(f"g{shard}", shard=shard) for shard in (0, 1)]
    alice = fake.add_user("alice")
    bot: ShardedProbe = await bot_factory(ShardedProbe(), ready=False)
    await fake.wait_ready(sessions=2)
    await eventually(bot.is_ready)
    assert bot.shard_count == 2  # asked of GET /gateway/bot
    assert sorted(g.id for g in bot.guilds) == sorted(g.id for g in guilds)
    await fake.disconnect(4000, shard=1)
    await fake.wait_ready()
    await eventually(lambda: fake.resume_count == 1)
    assert fake.identify_count == 2
    channel = guilds[1].add_text_channel("t")
    assert (await (await fake.slash(alice, channel, "meld", cards="7h")).response()).content == (
        "melded 7h"
    )
    assert bot.seen == [guilds[1].id]
