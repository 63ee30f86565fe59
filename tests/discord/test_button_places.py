"""A button acts only where its game is: a click whose custom id names a game of another
server or channel, or a DM button pressed by someone not seated at its game, is refused
privately and changes nothing, whatever rights the clicker has where they clicked."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.sessions import SessionStatus
from cogs.ui import ids
from tests.discord.fake import Channel, FakeDiscord, Guild, User
from tests.discord.helpers import Bots, Table, bots, cog_problems
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

ELSEWHERE = "belongs to a game played elsewhere"


@pytest.fixture
async def table(fake: FakeDiscord, bots: Bots) -> AsyncIterator[Table]:
    mallory = fake.add_user("mallory")
    other = fake.add_guild("Other", owner=mallory)  # mallory's server: she has every right
    other.add_text_channel("games")
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    guild.add_text_channel("elsewhere")
    ann = fake.add_user("ann")
    bob = fake.add_user("bob")
    fake.add_user("carol")
    async with bots.seat(guild, channel, [ann, bob]) as found:
        found.sessions.add_listener(found.record)
        yield found


def named(fake: FakeDiscord, name: str) -> User:
    return next(u for u in fake.users.values() if u.name == name)


def channel_named(guild: Guild, name: str) -> Channel:
    return next(c for c in guild.channels.values() if c.name == name)


async def refused(table: Table, user: User, where: Channel, custom_id: str) -> str:
    """Press a button that must be refused: a private answer, and nothing committed."""
    before = len(table.events)
    ix = await table.fake.forged_click(user, where, custom_id)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    answer = ix.messages[-1]
    assert answer.ephemeral, answer.content
    await asyncio.sleep(0.05)
    assert len(table.events) == before
    return answer.content


async def test_buttons_act_only_on_a_game_of_their_place(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    fake = table.fake
    ann, bob = table.players
    carol, mallory = named(fake, "carol"), named(fake, "mallory")
    other = next(g for g in fake.guilds.values() if g.name == "Other")
    abroad = channel_named(other, "games")
    elsewhere = channel_named(table.guild, "elsewhere")

    lobby = (await table.answer(ann, "rummy new", variant="classic")).message
    assert lobby is not None
    session = table.session()
    game = session.game_id
    # Another server: its owner's rights there are no rights here.
    for verb in ("join", "addbot", "cancel"):
        assert ELSEWHERE in await refused(table, mallory, abroad, ids.lobby_id(verb, game))
    # Another channel of the game's server, by its owner.
    owner = table.guild.owner
    assert ELSEWHERE in await refused(table, owner, elsewhere, ids.lobby_id("join", game))
    # A lobby button pressed in a DM, even by the host.
    assert ELSEWHERE in await refused(
        table, ann, fake.dm_channel(ann), ids.lobby_id("cancel", game)
    )
    assert [seat.user_id for seat in session.seats] == [ann.id]

    # In its place the lobby works: the game plays in a thread, its lobby in the channel.
    joined = await fake.click(bob, lobby, lobby.button("Join")["custom_id"])
    await joined.response()
    await eventually(lambda: len(session.seats) == 2)
    await table.text(ann, "rummy start")
    await eventually(lambda: table.table_message() is not None)
    assert session.lobby_channel_id == table.channel.id != session.channel_id

    for where, who in ((abroad, mallory), (elsewhere, owner)):
        assert ELSEWHERE in await refused(table, who, where, ids.lobby_id("cancel", game))
    assert session.status is SessionStatus.ACTIVE
    # DM buttons are for the people seated at the game.
    turn = session.view(None).turn
    dm = fake.dm_channel(carol)
    assert "not playing" in await refused(table, carol, dm, ids.move_id("draw", game, turn))
    assert "not playing" in await refused(table, carol, dm, ids.hand_id(game))
    assert session.status is SessionStatus.ACTIVE
    assert session.view(None).turn == turn
