"""Forwarded clicks on a real PostgreSQL, below Discord: one interaction is handed on once
and taken once, the owner's listening connection comes back after it drops, and a click
too old to be answered in time is left to its receiver."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import discord
import psycopg
import pytest

from bot.cluster.forwarding import OWNER_CUTOFF, Forwarder
from bot.cluster.intake import Intake
from bot.storage import GameStatus, PostgresStore
from bot.storage.forwarded import LISTENER_NAME, ForwardedClicks, GamePlace, channel_of
from bot.values.seats import NewSeat, assign_seats
from bot.values.shards import StaticOwnership
from tests.waiting import eventually

pytestmark = pytest.mark.postgres_only
_counter = itertools.count(1)


def snowflake(age: float = 0.0) -> int:
    """A new interaction id created ``age`` seconds ago."""
    ms = int((time.time() - age) * 1000) - discord.utils.DISCORD_EPOCH
    return ms << 22 | next(_counter)


def click(interaction_id: int, game_id: int = 7) -> dict[str, Any]:
    """A DM click's INTERACTION_CREATE payload, as Discord sends it."""
    return {
        "id": str(interaction_id),
        "application_id": "1",
        "type": 3,
        "token": f"token-{interaction_id}",
        "version": 1,
        "channel_id": "5",
        "channel": {"id": "5", "type": 1},
        "user": {"id": "9", "username": "ann", "discriminator": "0", "avatar": None},
        "locale": "en-US",
        "data": {"custom_id": f"rummy:do:draw:{game_id}:1", "component_type": 2},
        "entitlements": [],
        "attachment_size_limit": 10 << 20,
    }


class Recorder(discord.Client):
    """A client (never connected) that notes the interactions its parser dispatches."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.seen: list[int] = []

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "interaction":
            self.seen.append(args[0].id)


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[PostgresStore]:
    opened = await PostgresStore.open(pg_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clicks(store: PostgresStore) -> ForwardedClicks:
    return ForwardedClicks(store.pool, store.url)


async def test_one_interaction_is_handed_on_once_and_taken_once(
    clicks: ForwardedClicks,
) -> None:
    listener = clicks.listener()
    await listener.connect()
    try:
        await listener.follow({1})
        first = snowflake()
        assert await clicks.forward(first, 1, click(first))
        assert not await clicks.forward(first, 1, click(first))  # a second receiver, a repeat
        heard = [p async for p in listener.payloads(0.5)]
        assert heard == [str(first)]  # the id only, once
        assert await clicks.waiting({1}) == [first]
        assert await clicks.waiting({0}) == []
        taken = await clicks.claim(first)
        assert taken is not None
        assert taken["id"] == str(first)
        assert await clicks.claim(first) is None
    finally:
        await listener.close()


async def test_a_games_place_is_its_server_and_its_shards_live_holder(
    clicks: ForwardedClicks, store: PostgresStore
) -> None:
    guild = 1 << 22 | 5  # on shard 1 of 2
    async with store.unit() as repo:
        record = await repo.create_game(
            guild_id=guild,
            channel_id=3,
            host_id=1,
            ruleset={},
            seed=1,
            seats=assign_seats([NewSeat.human(1, "Ann")]),
            snapshot=None,
            at=datetime.now(UTC),
            status=GameStatus.LOBBY,
        )
    assert await clicks.place_of(record.id, 2) == GamePlace(guild, None)  # nobody holds it
    async with store.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO shard_leases VALUES (0, 2, 'other', 1, now() + interval '1 minute'),"
            " (1, 2, 'owner', 1, now() + interval '1 minute')"
        )
    assert await clicks.place_of(record.id, 2) == GamePlace(guild, "owner")
    async with store.pool.connection() as conn:
        await conn.execute("UPDATE shard_leases SET expires_at = now() WHERE shard_id = 1")
    assert await clicks.place_of(record.id, 2) == GamePlace(guild, None)  # it ran out
    assert await clicks.place_of(record.id + 1, 2) is None  # no such game
    async with store.pool.connection() as conn:
        await conn.execute("DELETE FROM shard_leases")
    async with store.unit() as repo:
        await repo.abandon_game(record.id, datetime.now(UTC))
    assert await clicks.place_of(record.id, 2) is None  # over


async def test_old_rows_are_pruned(clicks: ForwardedClicks, store: PostgresStore) -> None:
    old, new = snowflake(), snowflake()
    await clicks.forward(old, 0, click(old))
    await clicks.forward(new, 0, click(new))
    async with store.pool.connection() as conn:
        await conn.execute(
            "UPDATE forwarded_clicks SET created_at = now() - interval '2 minutes'"
            " WHERE interaction_id = %s",
            (old,),
        )
    assert await clicks.prune(60) == 1
    assert await clicks.waiting({0}) == [new]


async def test_the_owner_listens_again_after_its_connection_drops(
    clicks: ForwardedClicks, pg_url: str
) -> None:
    client = Recorder()
    intake = Intake(client)
    forwarder = Forwarder(
        intake, clicks, StaticOwnership(2, frozenset({1})), is_local=lambda game: True
    )
    forwarder.start()
    try:
        await eventually(forwarder.listening.is_set)
        before = snowflake()
        await clicks.forward(before, 1, click(before))
        await eventually(lambda: client.seen == [before])

        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as admin:
            cur = await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s AND datname = current_database()",
                (LISTENER_NAME,),
            )
            assert [r[0] for r in await cur.fetchall()] == [True]
        await eventually(lambda: not forwarder.listening.is_set())
        await eventually(forwarder.listening.is_set)

        after = snowflake()
        await clicks.forward(after, 1, click(after))
        await eventually(lambda: client.seen == [before, after])
        assert forwarder.applied == 2
    finally:
        await forwarder.close()


async def test_a_click_too_old_to_answer_is_left_to_its_receiver(
    clicks: ForwardedClicks,
) -> None:
    client = Recorder()
    forwarder = Forwarder(
        Intake(client), clicks, StaticOwnership(2, frozenset({1})), is_local=lambda game: True
    )
    forwarder.start()
    try:
        await eventually(forwarder.listening.is_set)
        late, young = snowflake(age=OWNER_CUTOFF + 0.1), snowflake()
        await clicks.forward(late, 1, click(late))
        await clicks.forward(young, 1, click(young))
        await eventually(lambda: client.seen == [young])
        assert await clicks.waiting({1}) == [late]  # for its receiver to answer as failed
        assert forwarder.applied == 1
    finally:
        await forwarder.close()


async def test_a_channel_per_shard() -> None:
    assert channel_of(0) == "rummy_shard_0"
    assert channel_of(12) == "rummy_shard_12"
