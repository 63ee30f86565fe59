"""An interaction Discord delivers twice (a gateway replaying events after a reconnect) is
applied once and answered once: the repeat is dropped before discord.py dispatches it."""

from __future__ import annotations

from bot.sessions import SessionStatus
from tests.discord.helpers import Bots, answered, bots, cog_problems, deal, dm_has
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def test_a_hand_click_delivered_twice_is_applied_once(bots: Bots) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        view = session.view(None)
        assert session.status is SessionStatus.ACTIVE
        assert view.current is not None
        user = next(u for u in table.players if str(u.id) == view.current)
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{view.turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
        before, hand = session.seq, len(session.view(view.current).hand)

        click = await table.fake.click(user, dm, draw)
        assert (await click.response()).deferred
        await table.fake.redeliver(click)
        await eventually(lambda: table.bot.intake.repeats == 1)
        await eventually(lambda: answered(table.fake, click))

        assert session.seq == before + 1
        assert len(session.view(view.current).hand) == hand + 1
        assert click.rejected == []  # no second answer was even tried


async def test_a_command_delivered_twice_is_answered_once(bots: Bots) -> None:
    async with bots.table("ann") as table:
        ann = table.players[0]
        ix = await table.fake.slash(ann, table.channel, "rummy rules")
        await ix.response()
        await table.fake.redeliver(ix)
        await eventually(lambda: table.bot.intake.repeats == 1)
        assert ix.rejected == []
        assert len([m for m in ix.messages if m.content]) == 1
