"""Typed commands and DM controls mixed within a turn: whatever path the last move took,
the hand DM offers what its owner may do now, or brings itself up to date when one of its
controls is pressed, at no call under Discord's global rate limit."""

from __future__ import annotations

import logging
import time

from bot.rummy import preset
from bot.sessions import SessionStatus
from tests.discord.fake import Interaction, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    discard_from_dm,
    display_calm,
    dm_has,
    draw_from_dm,
    on_turn,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def _open(table: Table, variant: str, seed: int) -> None:
    users = table.players
    await table.sessions.create_lobby(
        guild_id=table.guild.id,
        channel_id=table.channel.id,
        host_id=users[0].id,
        host_name=users[0].name,
        ruleset=preset(variant),
        seed=seed,
    )
    for user in users[1:]:
        assert "seat" in await table.text(user, "rummy join")
    assert "dealt" in await table.text(users[0], "rummy start")
    await eventually(lambda: table.table_message() is not None)


def _current(table: Table) -> User:
    current = table.session().view(None).current
    return next(u for u in table.players if str(u.id) == current)


async def _finish_from_dm(table: Table, user: User, turn: int) -> None:
    await discard_from_dm(table, user, turn)
    assert not on_turn(table.session(), turn)


async def _press_stale_draw(table: Table, user: User) -> Interaction:
    """The Draw button of the user's hand DM, pressed after they drew by a typed command:
    refused, and its answer says so."""
    dm = table.hand_dm(user)
    assert dm is not None
    draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
    ix = await table.fake.click(user, dm, draw)
    await ix.response()
    await ix.wait_until(lambda i: any("already" in m.content for m in i.messages))
    return ix


async def test_a_typed_draw_brings_the_menus_to_a_dm_whose_controls_were_used(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """Ann pressed her DM's controls in her last turn: the typed draw of this one brings
    the meld and discard menus to her new hand DM through that press's interaction."""
    async with bots.table("ann", "bob") as table:
        await _open(table, "classic", seed=7)
        session, fake = table.session(), table.fake
        ann, bob = table.players
        for user in (_current(table), next(u for u in (ann, bob) if u != _current(table))):
            turn = session.view(None).turn
            await eventually(dm_has(table, user, "rummy:do:draw:", f":{turn}"))
            await draw_from_dm(table, user)
            await _finish_from_dm(table, user, turn)
        user = _current(table)
        turn = session.view(None).turn
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{turn}"))
        await display_calm(table)
        since = time.monotonic()
        assert "drew" in await table.text(user, "draw", source="stock")
        await eventually(dm_has(table, user, "rummy:pick:discard:", f":{turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        assert not any(c.startswith("rummy:do:draw:") for c in dm.custom_ids())
        assert not fake.counted_requests(since)
        await _finish_from_dm(table, user, turn)


async def test_a_stale_dm_control_pressed_after_a_typed_draw_brings_the_turns_menus(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """Ann never used her DM's controls: her typed draw leaves them as they were (changing
    them would cost a rate-limited call). Its Draw button pressed there is refused, and its
    answer shows the menus of the turn, which finish it."""
    async with bots.table("ann", "bob") as table:
        await _open(table, "classic", seed=7)
        fake, session = table.fake, table.session()
        turn = session.view(None).turn
        user = _current(table)
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        assert "drew" in await table.text(user, "draw", source="stock")
        await display_calm(table)
        assert dm_has(table, user, "rummy:do:draw:", f":{turn}")()
        since = time.monotonic()
        await _press_stale_draw(table, user)
        await eventually(dm_has(table, user, "rummy:pick:discard:", f":{turn}"))
        assert not any(c.startswith("rummy:do:draw:") for c in dm.custom_ids())
        assert not fake.counted_requests(since)
        await _finish_from_dm(table, user, turn)


async def test_a_typed_deep_take_and_a_stale_press_bring_the_meld_it_requires(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("p0", "p1") as table:
        await _open(table, "500", seed=4)
        session, fake = table.session(), table.fake
        for _ in range(60):
            assert session.status is SessionStatus.ACTIVE
            view = session.view(None)
            user = _current(table)
            await eventually(dm_has(table, user, "rummy:do:", f":{view.turn}"))
            depths = await fake.autocomplete(
                user, table.here, "draw", focused="depth", source="discard", depth=""
            )
            deep = [c["value"] for c in depths if int(c["value"]) > 1]
            if deep:
                said = await table.text(user, "draw", source="discard", depth=deep[-1])
                assert "took" in said, said
                await _press_stale_draw(table, user)
                await eventually(dm_has(table, user, "rummy:pick:meld:", f":{view.turn}"))
                dm = table.hand_dm(user)
                assert dm is not None
                assert not any(c.startswith("rummy:do:") for c in dm.custom_ids())
                return
            assert "drew" in await table.text(user, "draw", source="stock")
            choices = await fake.autocomplete(user, table.here, "discard", focused="card", card="")
            assert "discarded" in await table.text(user, "discard", card=choices[0]["value"])
        raise AssertionError("no deep take was offered")
