"""A thread per game, end to end through the fake Discord: the lobby stays in the channel, the
game (table, summaries, pings, commands) lives in a thread started from the lobby message,
which is archived at the end; without a thread the game plays in the channel as before."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
import pytest

from bot.sessions import Session, SessionStatus
from tests.discord.fake import Channel, Message
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    deal,
    dm_exists,
    dm_shows,
    play_to_end,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def channel_posts(table: Table) -> list[Message]:
    return [m for m in table.fake.messages(table.channel) if m.author.id == table.fake.bot_user.id]


def is_archived(thread: Channel) -> Callable[[], bool]:
    return lambda: thread.archived


async def test_a_game_opened_in_a_channel_plays_in_its_thread_from_lobby_to_result(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        lobby = (await table.answer(ann, "rummy new", variant="classic", target=1)).message
        assert lobby is not None
        assert lobby.channel is table.channel
        thread = table.here
        assert thread.id == lobby.id  # started from the lobby message
        assert thread.parent is table.channel
        assert thread.name == f"Rummy: Classic Rummy with {ann.name}"
        # Open: the lobby keeps its buttons; the game's commands work inside the thread.
        assert "Press Join" in lobby.content
        assert any(":join:" in c for c in lobby.custom_ids())
        assert "seat" in await table.text(bob, "rummy join")
        await eventually(lambda: "bob" in lobby.content)
        assert "dealt" in await table.text(ann, "rummy start")
        # Dealt: one line in the channel saying where the game is, no buttons.
        await eventually(lambda: f"is being played in <#{thread.id}>" in lobby.content)
        assert lobby.custom_ids() == []
        assert "\n" not in lobby.content
        await eventually(lambda: table.table_message() is not None)
        session = table.session()
        assert session.channel_id == thread.id
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED
        # The end: the thread is archived once everything is shown, the result is on the
        # lobby message and the game's pictures are in the thread.
        await eventually(is_archived(thread))
        assert "Game over." in lobby.content
        assert f"was played in <#{thread.id}>" in lobby.content
        assert any(m.content.startswith("**Game over.**") for m in table.fake.messages(thread))
        assert any("Round 1 is over." in m.content for m in table.fake.messages(thread))
        assert "Winner" in (getattr(table.table_message(), "content", ""))
        # The channel holds the lobby message only.
        assert channel_posts(table) == [lobby]


@pytest.mark.parametrize("refusal", ["permission", "discord"])
async def test_a_game_whose_thread_is_refused_plays_in_the_channel_and_says_so_once(
    bots: Bots, refusal: str
) -> None:
    async with bots.table("ann", "bob") as table:
        table.threads = False  # the test follows the game in the channel
        if refusal == "permission":
            deny = discord.Permissions(create_public_threads=True)
            table.guild.set_overwrite(table.channel, table.guild.bot_role, deny=deny)
        else:
            table.guild.max_active_threads = 0  # Discord answers 160006
        await deal(table, target=1)
        assert table.fake.threads(table.channel) == []
        session = table.session()
        assert session.channel_id == table.channel.id
        notices = [m for m in channel_posts(table) if "could not start a thread" in m.content]
        assert len(notices) == 1
        said = notices[0].content
        assert "plays here in the channel" in said
        assert ("Create Public Threads" in said) == (refusal == "permission")
        await play_to_end(table)
        await eventually(
            lambda: any("Game over." in m.content for m in table.fake.messages(table.channel))
        )
        assert table.table_message() is not None
        lobby = next(m for m in channel_posts(table) if "Rummy table" in m.content)
        assert "(started)" in lobby.content  # as it always was without a thread
        assert len([m for m in channel_posts(table) if "thread" in m.content]) == 1


async def test_threads_off_and_several_threaded_games_from_one_channel(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", "cat") as table:
        ann, bob, cat = table.players
        fake, channel = table.fake, table.channel
        # Only someone with Manage Server changes the server's settings.
        refused = await fake.slash(ann, channel, "rummy settings", threads="off")
        await refused.wait_until(lambda i: any(m.content for m in i.messages))
        assert "Manage Server" in refused.messages[-1].content
        assert refused.messages[-1].ephemeral
        # Two tables opened in one channel: a thread each, the channel stays free.
        await table.answer(ann, "rummy new", variant="classic")
        first = table.here
        second_ix = await fake.slash(cat, channel, "rummy new", variant="parlett")
        second_lobby = (await second_ix.response()).message
        assert second_lobby is not None
        await eventually(lambda: table.sessions.get(second_lobby.id) is not None)
        assert [t.id for t in fake.threads(channel)] == [first.id, second_lobby.id]
        # In the channel a game command cannot tell which game is meant.
        which = await fake.slash(bob, channel, "rummy join")
        await which.wait_until(lambda i: any(m.content for m in i.messages))
        assert "use the command in the game's thread" in which.messages[-1].content
        # In a thread, it is that thread's game; a second table there is refused.
        joined = await fake.slash(bob, first, "rummy join")
        await joined.wait_until(lambda i: any("seat" in m.content for m in i.messages))
        busy = await fake.slash(bob, first, "rummy new", variant="500")
        await busy.wait_until(lambda i: any(m.content for m in i.messages))
        assert "already" in busy.messages[-1].content
        for game, host in ((first, ann), (fake.threads(channel)[1], cat)):
            cancel = await fake.slash(host, game, "rummy cancel")
            await cancel.wait_until(lambda i: any("cancelled" in m.content for m in i.messages))
            await eventually(is_archived(game))
        # The owner turns threads off: the next table plays in the channel.
        await table.threads_off()
        shown = await table.text(table.guild.owner, "rummy settings")
        assert "without a thread" in shown
        await deal(table)
        assert table.session().channel_id == channel.id
        assert len(fake.threads(channel)) == 2
        assert table.table_message() is not None
        assert table.table_message() in fake.messages(channel)


async def test_a_restart_in_the_middle_of_a_threaded_game_carries_on_in_its_thread(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table, target=1)
        for user in table.players:
            await eventually(dm_exists(table, user))
        thread = table.here
        assert thread.is_thread
        current = table.session().view(None).current
        mover = next(u for u in table.players if str(u.id) == current)
        assert "drew" in await table.text(mover, "draw", source="stock")
        card = await table.fake.autocomplete(mover, thread, "discard", focused="card", card="")
        assert "discarded" in await table.text(mover, "discard", card=card[0]["value"])
        await eventually(lambda: "discarded" in getattr(table.table_message(), "content", ""))
        for user in table.players:  # everything shown before the bot stops
            hand = table.session().view(str(user.id)).hand
            await eventually(dm_shows(table, user, hand))
        # The player now to move was told with a fresh hand message, the old one deleted.
        other = next(u for u in table.players if u is not mover)
        await eventually(lambda: any(m.deleted for m in table.fake.dms(other, deleted=True)))
        lobby = channel_posts(table)[0]
        posted = table.table_message()
        assert posted is not None
    async with bots.restart(table) as again:
        session = again.session()
        assert session.channel_id == thread.id
        assert session.lobby_channel_id == table.channel.id
        # The table message from before the restart is edited on; none is posted anew
        # (until a round ends: a new deal posts the table below the round's summary).
        before = posted.content
        assert "drew" in await again.text(other, "draw", source="stock")
        card = await again.fake.autocomplete(other, thread, "discard", focused="card", card="")
        assert "discarded" in await again.text(other, "discard", card=card[0]["value"])
        await eventually(lambda: getattr(again.table_message(), "content", before) != before)
        tables = [
            m.id
            for m in again.fake.messages(thread)
            if any(a.filename == "table.png" for a in m.attachments)
        ]
        assert tables == [posted.id]
        await play_to_end(again)
        await eventually(lambda: "Game over." in lobby.content)
        await eventually(is_archived(thread))


async def _dm_turn(table: Table) -> None:
    """The current player draws from the stock and discards, from their hand DM."""
    session = table.session()
    view = session.view(None)
    user = next(u for u in table.players if str(u.id) == view.current)
    await eventually(lambda: _dm_with(table, user, f"rummy:do:draw:{session.game_id}:{view.turn}"))
    dm = table.hand_dm(user)
    assert dm is not None
    seq = session.seq
    await (
        await table.fake.click(user, dm, f"rummy:do:draw:{session.game_id}:{view.turn}")
    ).response()
    await eventually(lambda: session.seq > seq)
    menu = f"rummy:pick:discard:{session.game_id}:{view.turn}"
    await eventually(lambda: _dm_with(table, user, menu))
    component = dm.component(menu)
    assert component is not None
    seq = session.seq
    await (await table.fake.select(user, dm, menu, [component["options"][0]["value"]])).response()
    await eventually(lambda: session.seq > seq)


def _dm_with(table: Table, user: object, custom_id: str) -> bool:
    dm = table.hand_dm(user)  # type: ignore[arg-type]
    return dm is not None and custom_id in dm.custom_ids()


async def _dealt_in_thread(table: Table) -> tuple[Channel, Session, Message]:
    """A game dealt in its thread: the thread, the session and the table message."""
    await deal(table)
    shown = table.table_message()
    assert shown is not None
    return table.here, table.session(), shown


async def test_the_table_follows_its_thread_through_archive_and_unarchive(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """A moderator (or Discord's quiet timer) archives the game's thread: the bot reopens it
    to edit the table, as the thread's creator may."""
    async with bots.table("ann", "bob") as table:
        thread, session, shown = await _dealt_in_thread(table)
        table.guild.set_thread_archived(thread, True)
        await _dm_turn(table)
        turn = session.view(None).turn
        await eventually(lambda: f"turn {turn}" in shown.content)
        assert table.table_message() is shown
        assert not thread.archived


def _tables_in(table: Table, channel: Channel) -> list[Message]:
    return [
        m
        for m in table.fake.messages(channel)
        if any(a.filename == "table.png" for a in m.attachments)
    ]


async def test_a_locked_thread_shows_the_table_in_the_channel_until_it_is_reopened(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """A moderator locks and archives the game's thread, which the bot (without Manage
    Threads) may not reopen: the table is posted in the lobby's channel with a note saying
    why, and follows the game there; once the thread is reopened, the table in the thread
    shows the game again and the channel's copy goes."""
    async with bots.table("ann", "bob") as table:
        thread, session, shown = await _dealt_in_thread(table)
        thread.locked = True
        table.guild.set_thread_archived(thread, True)
        await _dm_turn(table)
        turn = session.view(None).turn
        await eventually(lambda: bool(_tables_in(table, table.channel)))
        (copy,) = _tables_in(table, table.channel)
        await eventually(lambda: f"turn {turn}" in copy.content)
        assert "is locked" in copy.content
        assert f"<#{thread.id}>" in copy.content
        assert thread.archived
        assert f"turn {turn}" not in shown.content
        await _dm_turn(table)
        turn = session.view(None).turn
        await eventually(lambda: f"turn {turn}" in copy.content)
        assert _tables_in(table, table.channel) == [copy]
        thread.locked = False
        table.guild.set_thread_archived(thread, False)
        await eventually(lambda: f"turn {turn}" in shown.content)
        await eventually(lambda: copy.deleted)
        assert "is locked" not in shown.content
        assert _tables_in(table, thread) == [shown]
    assert all(r.levelname == "WARNING" for r in cog_problems), cog_problems
    cog_problems.clear()


async def test_a_lobby_whose_thread_was_deleted_says_so_and_keeps_no_buttons(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, _ = table.players
        lobby = (await table.answer(ann, "rummy new", variant="classic")).message
        assert lobby is not None
        thread = table.here
        assert thread is not table.channel
        assert lobby.custom_ids()
        table.guild.delete_thread(thread)
        await eventually(lambda: "thread was deleted" in lobby.content)
        assert lobby.custom_ids() == []
        assert table.sessions.get(thread.id) is None
        assert not table.sessions.opened_in(table.channel.id)
