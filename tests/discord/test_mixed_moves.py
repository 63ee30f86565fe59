"""Typed commands and DM controls mixed within a turn: whatever path the last move took,
the hand DM offers what its owner may do now."""

from __future__ import annotations

import logging

from bot.rummy import preset
from bot.sessions import SessionStatus
from tests.discord.fake import ApiError, RequestRecord, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, dm_has, on_turn
from tests.waiting import PATIENCE, eventually

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


async def test_a_typed_draw_brings_the_meld_and_discard_menus_to_the_hand_dm(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        await _open(table, "classic", seed=7)
        session = table.session()
        turn = session.view(None).turn
        user = _current(table)
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{turn}"))
        assert "drew" in await table.text(user, "draw", source="stock")
        await eventually(dm_has(table, user, "rummy:pick:discard:", f":{turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        assert not any(c.startswith("rummy:do:draw:") for c in dm.custom_ids())
        # The menu the typed draw brought finishes the turn from the DM.
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        seq = session.seq
        await (
            await table.fake.select(user, dm, menu, [component["options"][0]["value"]])
        ).response()
        await eventually(lambda: session.seq > seq)
        assert not on_turn(session, turn)


async def test_a_typed_deep_take_brings_the_meld_it_requires_to_the_hand_dm(
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
                await eventually(dm_has(table, user, "rummy:pick:meld:", f":{view.turn}"))
                dm = table.hand_dm(user)
                assert dm is not None
                assert not any(c.startswith("rummy:do:") for c in dm.custom_ids())
                return
            assert "drew" in await table.text(user, "draw", source="stock")
            choices = await fake.autocomplete(user, table.here, "discard", focused="card", card="")
            assert "discarded" in await table.text(user, "discard", card=choices[0]["value"])
        raise AssertionError("no deep take was offered")


async def test_a_stale_dm_control_pressed_brings_its_message_up_to_date(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    """Discord did not take the DM's update after a typed draw (it stays as it was): the
    Draw button pressed there is refused, and its answer shows the menus of the turn."""
    async with bots.table("ann", "bob") as table:
        await _open(table, "classic", seed=7)
        fake, session = table.fake, table.session()
        turn = session.view(None).turn
        user = _current(table)
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        refused: list[RequestRecord] = []

        def dm_edits(record: RequestRecord) -> ApiError | None:
            if record.method == "PATCH" and record.path.endswith(f"/messages/{dm.id}"):
                refused.append(record)
                return ApiError(403, 50001, "Missing Access")
            return None

        fake.faults.append(dm_edits)
        assert "drew" in await table.text(user, "draw", source="stock")
        await eventually(lambda: bool(refused))
        fake.faults.clear()
        draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
        ix = await fake.click(user, dm, draw)
        await ix.response()
        await eventually(dm_has(table, user, "rummy:pick:discard:", f":{turn}"))
        await ix.wait_until(lambda i: any("already" in m.content for m in i.messages), PATIENCE)
        assert not any(c.startswith("rummy:do:draw:") for c in dm.custom_ids())
        assert {r.levelname for r in cog_problems} == {"WARNING"}, cog_problems
        cog_problems.clear()
