"""Clicks on a hand DM reach the process that owns the game (real PostgreSQL, the fake
Discord with two shards, two bots in this process).

Discord sends every DM interaction to shard 0. Here the game's server is on shard 1, owned
by process B; process A runs shard 0 and so receives the DM clicks. A hands each click to B
through the database; B applies it and answers it through the interaction's token within
Discord's 3 s. When B is gone or silent, A says so and the click is never applied, not even
once B is back.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.__main__ import EXTENSIONS
from bot.app import RummyBot
from bot.cluster.forwarding import OWNER_CUTOFF, Forwarder, forwarding_for
from bot.cluster.leases import LeaseKeeper
from bot.sessions import SessionManager, SessionStatus
from bot.storage import PostgresStore
from bot.storage.leases import Leases, owner_url
from bot.values.shards import Ownership, StaticOwnership
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord, Interaction, User
from tests.discord.helpers import Table, answered, cog_problems, deal, dm_has
from tests.waiting import eventually

__all__ = ["cog_problems"]
pytestmark = pytest.mark.postgres_only

SHARDS = 2
TTL = 3.0
SILENT = "not answering"


@dataclass
class Process:
    bot: RummyBot
    sessions: SessionManager
    forwarder: Forwarder
    keeper: LeaseKeeper | None


@dataclass
class Cluster:
    fake: FakeDiscord
    factory: BotFactory
    url: str

    @contextlib.asynccontextmanager
    async def process(
        self, name: str, shard: int, guild_id: int, ttl: float = TTL
    ) -> AsyncIterator[Process]:
        """A bot process on ``shard`` only. Shard 1's holds a lease (the fencing lets it
        write its games); shard 0's owns its shard statically, so it never takes shard 1
        over when that lease ends."""
        store = await PostgresStore.open(owner_url(self.url, name))
        leases: Leases | None = None
        keeper: LeaseKeeper | None = None
        ownership: Ownership = StaticOwnership(SHARDS, frozenset({shard}))
        if shard == 1:
            leases = await Leases.open(self.url)
            keeper = LeaseKeeper(
                leases, owner=name, shard_count=SHARDS, shard_ids=frozenset({shard}), ttl=ttl
            )
            await keeper.start()
            ownership = keeper
        sessions = SessionManager(store, ownership=ownership)
        try:
            await sessions.load_active()
            bot = RummyBot(
                sessions,
                dev_guild_id=guild_id,
                guild_ready_timeout=0.05,
                extensions=EXTENSIONS,
                shard_count=SHARDS,
                shard_ids=[shard],
            )
            forwarder = forwarding_for(bot.intake, store, ownership, sessions.by_game)
            assert forwarder is not None
            bot.forwarder = forwarder
            await self.factory(bot, ready=False)
            await self.fake.wait_ready(shards=[shard])
            await eventually(bot.is_ready)
            await eventually(forwarder.listening.is_set)
            try:
                yield Process(bot, sessions, forwarder, keeper)
            finally:
                await bot.close()
        finally:
            if keeper is not None:
                await keeper.stop()
            await sessions.close()
            if leases is not None:
                await leases.close()

    @contextlib.asynccontextmanager
    async def dealt_game(
        self, owner_ttl: float = TTL
    ) -> AsyncIterator[tuple[Table, Process, Process]]:
        """A game of two dealt in a server of shard 1 and played by its process ``b``; the
        players' DM clicks arrive at process ``a`` (shard 0's, which also syncs the commands).
        Yields the table, then the owner and the receiver."""
        guild = self.fake.add_guild("Cards", shard=1)
        channel = guild.add_text_channel("rummy")
        players = [self.fake.add_user("ann"), self.fake.add_user("bob")]
        async with (
            self.process("b", 1, guild.id, ttl=owner_ttl) as owner,
            self.process("a", 0, guild.id) as receiver,
        ):
            table = Table(self.fake, owner.bot, owner.sessions, guild, channel, players)
            await deal(table)
            yield table, owner, receiver


@pytest.fixture
def cluster(fake: FakeDiscord, bot_factory: BotFactory, pg_url: str) -> Cluster:
    return Cluster(fake, bot_factory, pg_url)


async def dm_draw(table: Table) -> tuple[User, Interaction]:
    """The player on turn presses Draw on their hand DM."""
    session = table.session()
    view = session.view(None)
    assert view.current is not None
    user = next(u for u in table.players if str(u.id) == view.current)
    await eventually(dm_has(table, user, "rummy:do:draw:", f":{view.turn}"))
    dm = table.hand_dm(user)
    assert dm is not None
    draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
    return user, await table.fake.click(user, dm, draw)


@pytest.mark.fake(shards=SHARDS)
async def test_a_dm_click_is_forwarded_to_the_owner_and_answered_there(
    cluster: Cluster, fake: FakeDiscord
) -> None:
    async with cluster.dealt_game() as (table, owner, receiver):
        session = table.session()
        assert receiver.sessions.by_game(session.game_id) is None
        before = session.seq
        hand = {str(u.id): len(session.view(str(u.id)).hand) for u in table.players}
        user, click = await dm_draw(table)
        assert (await click.response()).deferred
        assert click.rejected == []  # answered in time: the fake refuses a late answer
        await eventually(lambda: session.seq == before + 1)
        await eventually(lambda: answered(fake, click))
        await fake.redeliver(click)  # delivered twice: handed on and applied once
        await eventually(lambda: receiver.bot.intake.repeats == 1)
        assert session.seq == before + 1
        assert click.rejected == []
        assert (receiver.forwarder.forwarded, owner.forwarder.applied) == (1, 1)
        assert receiver.forwarder.failed == 0
        assert session.status is SessionStatus.ACTIVE
        assert len(session.view(str(user.id)).hand) == hand[str(user.id)] + 1


@pytest.mark.fake(shards=SHARDS)
async def test_a_click_whose_owner_is_gone_fails_and_is_never_applied(
    cluster: Cluster, fake: FakeDiscord
) -> None:
    async with cluster.dealt_game() as (table, owner, receiver):
        assert owner.keeper is not None
        session = table.session()
        before = session.seq
        await owner.keeper.stop()  # its lease ends: nobody holds shard 1
        _, click = await dm_draw(table)
        answer = await click.response()
        assert answer.ephemeral
        assert SILENT in answer.content
        assert receiver.forwarder.failed == 1
        assert receiver.forwarder.forwarded == 0

        # The owner comes back: the failed click stays undone, the next one is applied.
        await owner.keeper.start()
        await eventually(lambda: 1 in owner.forwarder.ownership.held())
        _, again = await dm_draw(table)
        assert (await again.response()).deferred
        await eventually(lambda: session.seq == before + 1)
        await eventually(lambda: answered(fake, again))
        assert session.seq == before + 1
        assert owner.forwarder.applied == 1


@pytest.mark.fake(shards=SHARDS)
async def test_a_click_the_owner_does_not_claim_in_time_fails_and_is_never_applied(
    cluster: Cluster, fake: FakeDiscord
) -> None:
    async with cluster.dealt_game() as (table, owner, receiver):
        session = table.session()
        before = session.seq
        await owner.forwarder.close()  # alive and holding its lease, but not listening
        _, click = await dm_draw(table)
        answer = await click.response()
        assert answer.ephemeral
        assert SILENT in answer.content
        assert click.rejected == []  # answered in time: the fake refuses a late answer
        assert click.latency is not None
        assert click.latency > OWNER_CUTOFF  # the receiver waited for a claim, then gave up
        assert (receiver.forwarder.forwarded, receiver.forwarder.failed) == (1, 1)

        # Listening again, the owner finds nothing waiting: the click is never applied.
        owner.forwarder.start()
        await eventually(owner.forwarder.listening.is_set)
        _, again = await dm_draw(table)
        assert (await again.response()).deferred
        await eventually(lambda: session.seq == before + 1)
        await eventually(lambda: answered(fake, again))
        assert owner.forwarder.applied == 1
