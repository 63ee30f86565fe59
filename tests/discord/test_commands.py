"""The lobby commands, permissions, words in the person's language, kick, status and rules."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import discord
import pytest

from bot.sessions import SessionStatus
from tests.discord.helpers import Bots, Table, bots, cog_problems
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


@pytest.fixture
async def table(bots: Bots) -> AsyncIterator[Table]:
    async with bots.table("ann", "bob", locale="fr") as found:
        found.sessions.add_listener(found.record)
        yield found


async def test_the_bot_names_the_channel_permission_it_lacks(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    ann = table.players[0]
    table.guild.set_overwrite(
        table.channel, table.guild.bot_role, deny=discord.Permissions(attach_files=True)
    )
    answer = await table.answer(ann, "rummy new", variant="classic")
    assert answer.ephemeral
    assert "Attach Files" in answer.content
    assert table.sessions.get(table.channel.id) is None


async def test_replies_follow_the_person_and_the_table_follows_the_server(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    ann = table.players[0]
    french = await table.fake.slash(ann, table.channel, "draw", source="stock", locale="fr")
    await french.wait_until(lambda i: any(m.content for m in i.messages))
    assert "Aucune partie dans ce salon" in french.messages[-1].content
    english = await table.text(ann, "draw", source="stock")
    assert "There is no game in this channel" in english
    lobby = await table.answer(ann, "rummy new", variant="parlett", jokers=False)
    # The server speaks French: the lobby everyone reads is in French.
    assert "Table de rami" in lobby.content
    assert "Sans jokers" in lobby.content
    assert {b["label"] for b in lobby.message.buttons()} == {  # type: ignore[union-attr]
        "Rejoindre",
        "Quitter",
        "Ajouter un joueur ordinateur",
        "Commencer",
        "Annuler",
    }


async def test_host_kicks_and_status_and_rules_answer_privately(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    fake = table.fake
    ann, bob = table.players
    carol = fake.add_user("carol", guilds=[table.guild])
    lobby = (await table.answer(ann, "rummy new", variant="500", limit_layoffs=True)).message
    assert lobby is not None
    join = await fake.click(bob, lobby, next(c for c in lobby.custom_ids() if ":join:" in c))
    assert (await join.response()).type == 6
    await eventually(lambda: "bob" in lobby.content)
    refused = await table.text(carol, "rummy kick", player=bob)
    assert "Only the host" in refused
    kicked = await table.text(ann, "rummy kick", player=bob)
    assert "bob" in kicked
    await eventually(lambda: "bob" not in lobby.content)
    status = await table.answer(bob, "rummy status")
    assert status.ephemeral
    rules = await table.text(bob, "rummy rules")
    assert "One lay-off per turn, and only once you have melded this round" in rules
    await fake.click(bob, lobby, next(c for c in lobby.custom_ids() if ":join:" in c))
    await eventually(lambda: "bob" in lobby.content)
    start = await fake.click(ann, lobby, next(c for c in lobby.custom_ids() if ":start:" in c))
    await start.response()
    # The game plays in its thread: the lobby message says so in one line.
    await eventually(lambda: "se joue dans" in lobby.content)
    assert f"<#{table.here.id}>" in lobby.content
    assert lobby.components == [] or not lobby.custom_ids()
    assert table.session().status is SessionStatus.ACTIVE
    await eventually(lambda: table.table_message() is not None)
    status = await table.answer(bob, "rummy status")
    await eventually(lambda: "Stock" in status.content)
    assert any(a.filename == "table.png" for a in status.attachments)
