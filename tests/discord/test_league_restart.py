"""The league after a finished game, and a game that carries on across a restart of the bot."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.sessions import SessionManager, SessionStatus
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import (
    Table,
    cog_problems,
    dm_has,
    eventually,
    play_to_end,
    start_bot,
)

__all__ = ["cog_problems"]


async def _open(fake: FakeDiscord, bot_factory: BotFactory, path: Path) -> Table:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    sessions = await SessionManager.open(path)
    bot = await start_bot(fake, bot_factory, sessions, guild)
    table = Table(fake, bot, sessions, guild, channel, [ann, bob])
    sessions.add_listener(table.record)
    await table.answer(ann, "rummy new", variant="classic", target=1)
    await table.text(bob, "rummy join")
    await table.text(ann, "rummy start")
    await eventually(lambda: table.table_message() is not None)
    return table


async def test_the_league_shows_a_finished_game(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    table = await _open(fake, bot_factory, tmp_path / "rummy.sqlite3")
    try:
        ann, bob = table.players
        await play_to_end(table)
        assert table.session is not None
        standings = await table.answer(ann, "league table")
        assert standings.message is not None
        await eventually(lambda: "ann" in standings.content and "bob" in standings.content)
        assert not standings.ephemeral
        assert any(a.filename == "league.png" for a in standings.attachments)
        card = await table.answer(ann, "league player", user=bob)
        await eventually(lambda: "bob: rank" in card.content)
        assert any(a.filename == "player.png" for a in card.attachments)
        history = await table.text(bob, "league history")
        assert "classic" in history
        assert "ann" in history
        refused = await table.answer(bob, "league newseason")
        await eventually(lambda: "Manage Server" in refused.content)
        assert refused.ephemeral
        owner = table.guild.owner
        assert "Season 2 has begun" in await table.text(owner, "league newseason")
        empty = await table.text(ann, "league table")
        assert "No league games" in empty
    finally:
        await table.bot.close()
        await table.sessions.close()


async def test_a_game_carries_on_after_a_restart_with_the_same_buttons(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    path = tmp_path / "rummy.sqlite3"
    table = await _open(fake, bot_factory, path)
    ann, bob = table.players
    session = table.session()
    view = session.view(None)
    current = ann if view.current == str(ann.id) else bob
    await eventually(dm_has(table, current, "rummy:do:draw:", f":{view.turn}"))
    dm = table.hand_dm(current)
    assert dm is not None
    draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
    await table.bot.close()
    await table.sessions.close()

    sessions = await SessionManager.open(path)
    try:
        assert await sessions.load_active() == 1
        bot = await start_bot(fake, bot_factory, sessions, table.guild)
        again = sessions.get(table.channel.id)
        assert again is not None
        assert again.status is SessionStatus.ACTIVE
        before = again.seq
        click = await fake.click(current, dm, draw)
        assert (await click.response()).deferred
        await eventually(lambda: again.seq == before + 1)
        await eventually(lambda: "Just drawn" in dm.content)
        # The table shows the move (a table message after the restart).
        await eventually(
            lambda: "drew from the stock" in getattr(table.table_message(), "content", "")
        )
        await bot.close()
    finally:
        await sessions.close()
