"""Games follow their channel, their server and their members: a deleted channel or thread,
or the bot removed from the server, ends the game with no league effect, nothing more is
sent and it is not loaded again; a banned member's seat goes to a computer player and the
game goes on. A test-only pace makes a timer minute last a fifth of a second, so a game
that was not ended would be played on by its timers while the test watches."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from datetime import timedelta
from pathlib import Path

from bot.sessions import Brains, SessionManager
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal, start_bot
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

PACE = 0.2
"""Seconds a timer minute lasts here."""


def _writes(fake: FakeDiscord, since: float) -> list[str]:
    """The requests that would send or change something on Discord, made since ``since``."""
    return [
        f"{r.method} {r.path}"
        for r in fake.counted_requests(since)
        if r.method in ("POST", "PATCH", "PUT", "DELETE")
    ]


def _stored(path: Path) -> tuple[list[str], int]:
    """The stored games' statuses and how many league rows there are."""
    with sqlite3.connect(path) as db:
        statuses = [row[0] for row in db.execute("SELECT status FROM games")]
        (league,) = db.execute("SELECT count(*) FROM league_players").fetchone()
    return statuses, int(league)


async def _ended_quietly(table: Table, bots: Bots, *, erasing: bool = False) -> None:
    """The table's game is over with nothing sent after it, with no league effect.
    ``erasing``: the server's data may be erased meanwhile."""
    fake = table.fake
    await eventually(lambda: table.sessions.get(table.here.id) is None)
    since = time.monotonic()
    await asyncio.sleep(6 * PACE)  # three turns' time: a timer would have played
    assert _writes(fake, since) == []
    statuses, league = _stored(bots.path)
    assert statuses == ["abandoned"] or (erasing and statuses == [])
    assert league == 0


async def test_a_deleted_channel_ends_its_game(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.timing.minute = PACE
        await deal(table, timer=1)
        table.guild.delete_channel(table.channel)
        await _ended_quietly(table, bots)
    restarted = await SessionManager.open(bots.path)
    try:
        assert await restarted.load_active() == 0
    finally:
        await restarted.close()


async def test_a_deleted_thread_ends_its_game(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Cards")
    thread = guild.add_thread(guild.add_text_channel("rummy"), "game")
    users = [fake.add_user("ann"), fake.add_user("bob")]
    async with bots.seat(guild, thread, users) as table:
        table.threads = False  # opened inside a thread, the game plays in that thread
        table.sessions.timing.minute = PACE
        await deal(table, timer=1)
        guild.delete_channel(thread)
        await _ended_quietly(table, bots)


async def test_the_bot_removed_from_the_server_ends_its_games_and_erases_it_later(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.timing.minute = PACE
        await deal(table, timer=1)
        table.bot.server_grace = timedelta(seconds=10 * PACE)  # longer than the watch below
        fake.remove_guild(table.guild)
        await _ended_quietly(table, bots, erasing=True)
        await eventually(lambda: _stored(bots.path) == ([], 0))
    with sqlite3.connect(bots.path) as db:
        assert db.execute("SELECT count(*) FROM guild_departures").fetchone() == (0,)


async def test_the_bot_added_back_within_the_grace_period_keeps_the_servers_data(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
        fake.remove_guild(table.guild)
        await eventually(lambda: table.sessions.get(table.here.id) is None)
        with sqlite3.connect(bots.path) as db:
            await eventually(
                lambda: db.execute("SELECT count(*) FROM guild_departures").fetchone() == (1,)
            )
        fake.readd_guild(table.guild)
        with sqlite3.connect(bots.path) as db:
            await eventually(
                lambda: db.execute("SELECT count(*) FROM guild_departures").fetchone() == (0,)
            )
        assert await table.sessions.erase_departed(timedelta(0)) == ()
    assert _stored(bots.path) == (["abandoned"], 0)


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_game_at_start_up(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
    table.guild.delete_channel(table.channel)
    async with bots.restart(table) as table:
        await eventually(lambda: table.sessions.get(table.here.id) is None)
    assert _stored(bots.path) == (["abandoned"], 0)


async def test_a_banned_member_loses_the_seat_to_a_computer_and_the_game_goes_on(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", brains=Brains(delay=0)) as table:
        await deal(table)
        session = table.session()
        game = session.game
        assert game is not None
        first = game.current_player
        assert first is not None
        banned = next(u for u in table.players if str(u.id) == first)
        table.guild.remove_member(banned, banned=True)
        await eventually(lambda: session.seq > 0)
        seat = next(s for s in session.seats if s.player_id == first)
        assert seat.stand_in == "normal"
        assert session.computer_level(first) == "normal"
        assert table.sessions.get(table.here.id) is session


async def test_with_the_members_intent_a_member_who_leaves_loses_the_seat(
    fake: FakeDiscord, bot_factory: BotFactory, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    users = [fake.add_user("ann"), fake.add_user("bob")]
    sessions = await SessionManager.open(bots.path, brains=Brains(delay=0))
    try:
        bot = await start_bot(fake, bot_factory, sessions, guild, members_intent=True)
        try:
            assert bot.intents.members
            table = Table(fake, bot, sessions, guild, channel, users)
            await deal(table)
            session = table.session()
            assert session.game is not None
            first = session.game.current_player
            assert first is not None
            guild.remove_member(next(u for u in users if str(u.id) == first))
            await eventually(lambda: session.computer_level(first) == "normal")
            await eventually(lambda: session.seq > 0)  # the turn was played by the computer
        finally:
            await bot.close()
    finally:
        await sessions.close()
