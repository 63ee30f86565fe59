"""A process asked to play a move in a game whose shard another process has just taken
over (its lease was lost before it noticed): the fencing refuses the write, the person is
told in their words that the game moved and to try again, and the game is unchanged."""

from __future__ import annotations

import psycopg
import pytest

from tests.discord.test_forwarding import SHARDS, Cluster, cluster

__all__ = ["cluster"]  # the fixture

pytestmark = pytest.mark.postgres_only

MOVED = "handed to another process"


@pytest.mark.fake(shards=SHARDS)
async def test_a_move_after_the_lease_was_taken_is_refused_in_words(cluster: Cluster) -> None:
    # A long lease: the process does not learn of the loss before the move arrives.
    async with cluster.dealt_game(owner_ttl=600) as (table, _, _):
        session = table.session()
        before, current = session.seq, session.view(None).current
        async with await psycopg.AsyncConnection.connect(cluster.url, autocommit=True) as conn:
            await conn.execute(
                "UPDATE shard_leases SET owner = 'elsewhere', generation = generation + 1"
                " WHERE shard_id = 1"
            )
        user = next(u for u in table.players if str(u.id) == current)
        answer = await table.answer(user, "draw", source="stock")
        assert answer.ephemeral
        assert MOVED in answer.content
        assert session.seq == before
        assert session.view(None).current == current
