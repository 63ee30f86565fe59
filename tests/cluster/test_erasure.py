"""A person's erasure with two processes on one PostgreSQL, each holding one shard: the
process asked erases what it may and asks the other for the live games of its shard; a
request for a shard nobody holds waits for the process that takes it."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from bot.cluster.erasure import ErasureRelay, erasure_relay_for
from bot.cluster.leases import LeaseKeeper
from bot.sessions import Brains, SessionManager
from bot.storage import GameStatus, PostgresStore
from bot.storage.pg_connection import PgConnection
from bot.values.seats import NewSeat
from tests.cluster.test_takeover import process
from tests.sessions.conftest import ANN, BOB, CAT, play, start_game
from tests.sessions.test_forget import ANN_NAME, everything
from tests.waiting import eventually

pytestmark = pytest.mark.postgres_only

HERE = 0 << 22 | 5  # a server of shard 0 of 2 (process a)
THERE = 1 << 22 | 5  # a server of shard 1 of 2 (process b)


@contextlib.asynccontextmanager
async def relaying(
    pg_url: str, name: str, shard: int
) -> AsyncIterator[tuple[SessionManager, LeaseKeeper, ErasureRelay]]:
    """A bot process holding ``shard`` of 2, whose erasures reach the other's."""
    async with process(pg_url, name, shard, Brains(delay=3600)) as (sessions, keeper):
        await sessions.load_shards(keeper.held())  # as the launcher does
        relay = erasure_relay_for(sessions)
        assert relay is not None
        relay.start()
        try:
            await eventually(lambda: relay.listening.is_set())
            yield sessions, keeper, relay
        finally:
            await relay.close()


async def _rows(pg_url: str) -> list[tuple[str, tuple[object, ...]]]:
    store = await PostgresStore.open(pg_url)
    try:
        async with store.transaction() as conn:
            assert isinstance(conn, PgConnection)
            return await everything(conn)
    finally:
        await store.close()


def _traces(rows: list[tuple[str, tuple[object, ...]]]) -> list[str]:
    return [
        table
        for table, row in rows
        if str(ANN) in " ".join(map(str, row)) or ANN_NAME in " ".join(map(str, row))
    ]


async def test_an_erasure_reaches_the_live_games_of_the_other_process(pg_url: str) -> None:
    ann = NewSeat.human(ANN, ANN_NAME)
    async with relaying(pg_url, "a", 0) as (a, _, _), relaying(pg_url, "b", 1) as (b, _, b_relay):
        mine = await start_game(a, 10, [ann, NewSeat.human(BOB, "Bob")], guild=HERE)
        theirs = await start_game(b, 20, [NewSeat.human(BOB, "Bob"), ann], guild=THERE)
        lobby = await b.create_lobby(
            guild_id=THERE, channel_id=21, host_id=ANN, host_name=ANN_NAME, ruleset=mine.ruleset
        )
        await lobby.join(CAT, "Cat")
        over = await start_game(b, 22, [ann, NewSeat.human(CAT, "Cat")], guild=THERE, target=1)
        await play(over, 2000, random.Random(3))
        assert over.closed  # finished: in the league of b's server
        await b.set_notify_when_away(ANN, True)
        assert "league_players" in _traces(await _rows(pg_url))

        report = await a.forget_user(ANN)

        assert report.abandoned_games == (mine.game_id, theirs.game_id)
        assert report.league_rows == 1
        assert a.get(10) is None
        await eventually(lambda: b_relay.carried_out == 1)
        assert b.get(20) is None
        assert lobby.player_of(ANN) is None
        assert b.get(21) is lobby  # the lobby goes on without her, under Cat
        assert lobby.host_id == CAT
        stopped = await b.stored_game(theirs.game_id)
        assert stopped is not None
        assert stopped.status is GameStatus.ABANDONED
        rows = await _rows(pg_url)
        assert _traces(rows) == []
        assert not [row for table, row in rows if table == "erasure_requests"]


async def test_a_request_for_a_shard_without_holder_waits_for_its_taker(pg_url: str) -> None:
    before = await SessionManager.open(pg_url)  # before any process held a lease
    try:
        game = await start_game(
            before, 20, [NewSeat.human(BOB, "Bob"), NewSeat.human(ANN, ANN_NAME)], guild=THERE
        )
    finally:
        await before.close()
    async with relaying(pg_url, "a", 0) as (a, _, _):
        report = await a.forget_user(ANN)
        assert report.abandoned_games == (game.game_id,)  # to be ended by shard 1's holder
        rows = await _rows(pg_url)
        assert [row[:2] for table, row in rows if table == "erasure_requests"] == [(ANN, 1)]
        kept = await a.stored_game(game.game_id)
        assert kept is not None
        assert kept.status is GameStatus.ACTIVE  # nobody holds shard 1 yet

        async with relaying(pg_url, "b", 1) as (b, _, b_relay):
            await eventually(lambda: b_relay.carried_out == 1)
            assert b.get(20) is None
        stopped = await a.stored_game(game.game_id)
        assert stopped is not None
        assert stopped.status is GameStatus.ABANDONED
        assert _traces(await _rows(pg_url)) == []
