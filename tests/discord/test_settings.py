"""A server's settings (``/rummy settings``, Manage Server) and a person's own
(``/rummy preferences``), through the fake Discord: stored, applied, kept across a restart."""

from __future__ import annotations

import logging

from rendering import render_hand, render_table, sorted_hand
from tests.discord.helpers import Bots, bots, cog_problems, deal, dm_exists, hand_of
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def test_a_server_s_defaults_open_its_tables_and_survive_a_restart(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        owner = table.guild.owner
        said = await table.text(owner, "rummy settings", variant="parlett", jokers=True, timer=5)
        assert said.startswith("Saved."), said
        assert "Parlett's Basic Rummy" in said
        assert "jokers: yes" in said
        assert "a turn may take 5 min" in said
        # Options alone add to the default game's house rules, checked like /rummy new's.
        said = await table.text(owner, "rummy settings", target=300)
        assert "jokers: yes" in said, said
        assert "target: 300" in said, said
        refused = await table.text(owner, "rummy settings", ace_always_low=True)
        assert "Saved." not in refused
        shown = await table.text(owner, "rummy settings")
        assert "target: 300" in shown
        assert "ace_always_low" not in shown
    async with bots.seat(table.guild, table.channel, table.players) as again:
        ann, bob = again.players
        shown = await again.text(ann, "rummy settings")
        assert "Manage Server" in shown
        assert "Parlett" not in shown
        await again.answer(ann, "rummy new")
        opened = again.session()
        assert opened.ruleset.name == "parlett"
        assert opened.ruleset.jokers_per_deck > 0
        assert opened.ruleset.target == 300
        assert opened.turn_timer == 5
        assert "Saved." in await again.text(again.guild.owner, "rummy settings", threads="off")
        again.threads = False
        assert "cancel" in (await again.text(ann, "rummy cancel")).lower()
        # The host's own options win; another variant takes none of the house rules.
        await again.answer(bob, "rummy new", variant="classic", timer=0)
        other = again.session()
        assert (other.ruleset.name, other.turn_timer) == ("classic", 0)
        assert other.ruleset.target != 300
    assert not cog_problems


async def test_only_the_chosen_role_opens_tables_and_only_managers_choose(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        dealers = table.guild.add_role("dealers")
        table.guild.set_member_roles(ann, [dealers])
        refused = await table.text(bob, "rummy settings", role=dealers)
        assert "Manage Server" in refused
        assert "Anyone may open" in await table.text(table.guild.owner, "rummy settings")
        said = await table.text(table.guild.owner, "rummy settings", role=dealers)
        assert f"Only members of <@&{dealers.id}>" in said
        answer = await table.answer(bob, "rummy new", variant="classic")
        assert answer.ephemeral
        assert answer.message is not None
        assert f"only members of <@&{dealers.id}> may open a table" in answer.message.content
        assert table.sessions.get(table.channel.id) is None
        assert not table.sessions.opened_in(table.channel.id)
        await table.answer(ann, "rummy new", variant="classic")
        assert table.session().host_id == ann.id
        assert "cancel" in (await table.text(ann, "rummy cancel")).lower()
        # People who manage the server always may; @everyone gives the tables back to all.
        await table.answer(table.guild.owner, "rummy new", variant="classic")
        assert table.session().host_id == table.guild.owner.id
        assert "cancel" in (await table.text(table.guild.owner, "rummy cancel")).lower()
        everyone = table.guild.everyone
        said = await table.text(table.guild.owner, "rummy settings", role=everyone)
        assert "Anyone may open" in said
        await table.answer(bob, "rummy new", variant="classic")
        assert table.session().host_id == bob.id
    assert not cog_problems


async def test_a_person_s_look_changes_only_their_own_pictures_and_hand_order(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        shown = await table.text(ann, "rummy preferences")
        assert "two colours" in shown
        assert "dark" in shown
        assert "by suit" in shown
        said = await table.text(ann, "rummy preferences", deck="four_colours", theme="light")
        assert said.startswith("Saved.")
        assert "four colours" in said
        assert "light" in said
        said = await table.text(ann, "rummy preferences", sort="rank", notify="when_away")
        assert "by rank" in said
        assert "four colours" in said
        assert "two minutes away" in said
        await deal(table)
        for user in table.players:
            await eventually(dm_exists(table, user))
        session = table.session()
        ann_view, bob_view = session.view(str(ann.id)), session.view(str(bob.id))
        ann_dm, bob_dm = table.hand_dm(ann), table.hand_dm(bob)
        assert ann_dm is not None
        assert bob_dm is not None
        mine = render_hand(ann_view, sort_by="rank", theme="light", four_colour=True)
        assert ann_dm.attachment("hand.png").data == mine
        assert mine != render_hand(ann_view)
        assert bob_dm.attachment("hand.png").data == render_hand(bob_view)
        # The numbered cards of the text follow each person's order, like their picture.
        assert hand_of(ann_dm.content) == sorted_hand(ann_view.hand, "rank")
        assert hand_of(bob_dm.content) == sorted_hand(bob_view.hand, "suit")
        # Their own answers too: the hand on request and the table they ask to see.
        ix = await table.fake.slash(ann, table.here, "hand")
        await ix.wait_until(lambda i: any(m.attachments for m in i.messages))
        asked = next(m for m in ix.messages if m.attachments)
        assert asked.attachment("hand.png").data == mine
        assert hand_of(asked.content) == sorted_hand(ann_view.hand, "rank")
        ix = await table.fake.slash(ann, table.here, "rummy status")
        await ix.wait_until(lambda i: any(m.attachments for m in i.messages))
        status = next(m for m in ix.messages if m.attachments)
        table_view, names = session.view(None), dict(session.names)
        light = render_table(table_view, names=names, theme="light", four_colour=True)
        assert status.attachment("table.png").data == light
        # The shared table keeps the server's look.
        posted = table.table_message()
        assert posted is not None
        assert posted.attachment("table.png").data != light
    async with bots.restart(table) as again:
        shown = await again.text(ann, "rummy preferences")
        assert "four colours" in shown
        assert "light" in shown
        assert "by rank" in shown
    assert not cog_problems
