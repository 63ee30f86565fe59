"""Erasure people can use: /rummy forget-me and /rummy forget-server through Discord, each
confirmed with a button in an answer only the asker sees; afterwards the database file and
its write-ahead log hold no byte of the person's name or id."""

from __future__ import annotations

import logging
import struct
from pathlib import Path

from tests.discord.fake import FakeDiscord, Response, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.sessions.conftest import store_of
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

NAME = "Zebulon Quaxworth"


async def _confirm(table: Table, user: User, asked: Response, label: str) -> str:
    """Click the confirmation button of an ephemeral answer; the text of the final answer."""
    assert asked.ephemeral
    assert asked.message is not None
    button = asked.message.button(label)
    ix = await table.fake.click(user, asked.message, button["custom_id"])
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    return ix.messages[-1].content


def _traces(path: Path, user: User) -> list[str]:
    """Which of the person's name and id (as text and as SQLite's 8-byte integer) are in
    the database file or its write-ahead log."""
    needles = {
        "name": NAME.encode(),
        "id text": str(user.id).encode(),
        "id integer": struct.pack(">q", user.id),
    }
    found = []
    for file in (path, path.with_name(path.name + "-wal")):
        if file.exists():
            data = file.read_bytes()
            found += [
                f"{what} in {file.name}" for what, needle in needles.items() if needle in data
            ]
    return found


async def test_forget_me_erases_the_person_down_to_the_bytes(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table(NAME, "bob") as table:
        await deal(table)
        zeb, bob = table.players
        assert _traces(bots.path, zeb)  # the person is stored, by name and id
        asked = await table.answer(zeb, "rummy forget-me")
        assert "cannot be undone" in asked.content
        done = await _confirm(table, zeb, asked, "Forget me")
        assert done.startswith("Done: 1 game in progress ended, 1 seat renamed")
        thread = table.thread
        await eventually(lambda: table.sessions.get(table.here.id) is None)
        if thread is not None:
            # The ended game's thread is archived; what follows is typed in the channel.
            await eventually(lambda: thread.archived)
        assert _traces(bots.path, zeb) == []
        assert "No league games" in await table.text(bob, "league table")
    assert _traces(bots.path, zeb) == []


async def test_forget_server_needs_manage_server_and_erases_the_server(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table(NAME, "bob") as table:
        await deal(table)
        zeb, _ = table.players
        refused = await table.answer(zeb, "rummy forget-server")
        assert refused.ephemeral
        assert "Manage Server" in refused.content
        owner = table.guild.owner
        asked = await table.answer(owner, "rummy forget-server")
        done = await _confirm(table, owner, asked, "Erase this server's data")
        assert done == "Done: 1 game of this server and its league are erased."
        assert table.sessions.get(table.here.id) is None
        assert _traces(bots.path, zeb) == []


async def test_an_erasure_the_database_refuses_says_what_it_did_and_a_retry_finishes_it(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """The game in progress is ended, then the database refuses the erasure's writes: the
    answer says the game ended and the erasure is not finished (not that nothing changed),
    the ended table no longer names the person, and asking again finishes it."""
    async with bots.table(NAME, "bob") as table:
        await deal(table)
        zeb, _ = table.players
        thread = table.here
        store = store_of(table.sessions)
        async with store.transaction() as conn:
            await conn.execute(
                "CREATE TRIGGER refuse BEFORE UPDATE OF user_id ON seats"
                " BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        asked = await table.answer(zeb, "rummy forget-me")
        said = await _confirm(table, zeb, asked, "Forget me")
        assert said.startswith("Not finished: 1 game in progress ended"), said
        assert "The game is unchanged" not in said
        assert [r.getMessage() for r in cog_problems] == ["could not finish an erasure"]
        cog_problems.clear()
        shown = next(
            m
            for m in reversed(fake.messages(thread))
            if any(a.filename == "table.png" for a in m.attachments)
        )
        await eventually(lambda: "cancelled" in shown.content.lower())
        assert NAME not in shown.content
        async with store.transaction() as conn:
            await conn.execute("DROP TRIGGER refuse")
        asked = await table.answer(zeb, "rummy forget-me")
        said = await _confirm(table, zeb, asked, "Forget me")
        assert said.startswith("Done: 0 games in progress ended, 1 seat renamed"), said
        assert not _traces(bots.path, zeb)


async def test_a_lobby_called_off_by_an_erasure_is_no_game_in_progress(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table(NAME) as table:
        (zeb,) = table.players
        await table.answer(zeb, "rummy new", variant="classic")
        asked = await table.answer(zeb, "rummy forget-me")
        said = await _confirm(table, zeb, asked, "Forget me")
        assert said.startswith("Done: 0 games in progress ended"), said
        assert table.sessions.get(table.here.id) is None


async def test_after_forget_me_no_message_or_thread_of_the_ended_game_names_the_person(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """The host of a game in its thread asks to be forgotten: the ended game's table, its
    lobby message and its thread's name no longer name them, by name or by mention."""
    async with bots.table(NAME, "bob") as table:
        await deal(table)
        zeb, _ = table.players
        thread = table.here
        assert NAME in thread.name
        asked = await table.answer(zeb, "rummy forget-me")
        assert "ended" in await _confirm(table, zeb, asked, "Forget me")
        await eventually(lambda: thread.archived)
        shown = table.table_message()
        assert shown is not None
        await eventually(lambda: "cancelled" in shown.content)
        assert NAME not in thread.name
        assert "deleted player" in thread.name
        for message in (*table.fake.messages(thread), *table.fake.messages(table.channel)):
            assert NAME not in message.content
            assert f"<@{zeb.id}>" not in message.content


async def test_a_lobby_whose_host_is_forgotten_is_named_for_its_new_host(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table(NAME, "bob") as table:
        zeb, bob = table.players
        lobby = (await table.answer(zeb, "rummy new", variant="classic")).message
        assert lobby is not None
        assert "seat" in await table.text(bob, "rummy join")
        thread = table.here
        assert NAME in thread.name
        asked = await table.answer(zeb, "rummy forget-me")
        assert "Done" in await _confirm(table, zeb, asked, "Forget me")
        await eventually(lambda: "with bob" in thread.name)
        assert NAME not in lobby.content
        assert not thread.archived
