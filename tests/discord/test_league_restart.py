"""The league after a finished game, and a game that carries on across a restart of the bot."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from bot.sessions import SessionStatus
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    deal,
    dm_has,
    play_to_end,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


@contextlib.asynccontextmanager
async def _dealt(bots: Bots) -> AsyncIterator[Table]:
    """Ann and bob, dealt a game to 1 point: its first round ends it, so it is quick to play."""
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        await deal(table, target=1)
        yield table


async def test_the_league_shows_a_finished_game(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with _dealt(bots) as table:
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
        assert "Classic Rummy" in history
        assert "ann" in history
        refused = await table.answer(bob, "league newseason")
        await eventually(lambda: "Manage Server" in refused.content)
        assert refused.ephemeral
        owner = table.guild.owner
        assert "Season 2 has begun" in await table.text(owner, "league newseason")
        empty = await table.text(ann, "league table")
        assert "No league games" in empty


async def test_a_game_carries_on_after_a_restart_with_the_same_buttons(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with _dealt(bots) as table:
        ann, bob = table.players
        session = table.session()
        view = session.view(None)
        current = ann if view.current == str(ann.id) else bob
        await eventually(dm_has(table, current, "rummy:do:draw:", f":{view.turn}"))
        dm = table.hand_dm(current)
        assert dm is not None
        draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))

    async with bots.restart(table) as table:
        again = table.session()
        assert again.status is SessionStatus.ACTIVE
        before = again.seq
        click = await fake.click(current, dm, draw)
        assert (await click.response()).deferred
        await eventually(lambda: again.seq == before + 1)
        await eventually(lambda: "Just drawn" in dm.content)
        # The table shows the turn once it is over (a table message after the restart).
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        pick = await fake.select(current, dm, menu, [component["options"][0]["value"]])
        assert (await pick.response()).deferred
        await eventually(lambda: again.seq == before + 2)
        await eventually(
            lambda: "drew from the stock" in getattr(table.table_message(), "content", "")
        )
