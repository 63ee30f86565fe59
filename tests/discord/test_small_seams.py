"""Small things where features meet: what a table, a DM or an answer says once two of them
have acted on the same game."""

from __future__ import annotations

import logging

from bot.sessions import Brains
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.sessions.conftest import store_of
from tests.waiting import PATIENCE, eventually

__all__ = ["bots", "cog_problems"]


def _table_text(table: Table) -> str:
    shown = table.table_message()
    return "" if shown is None else shown.content


async def test_during_a_stand_in_turn_the_table_names_the_computer_not_the_person(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", brains=Brains(delay=60)) as table:
        await deal(table)
        session = table.session()
        current = session.view(None).current
        assert current is not None
        user = next(u for u in table.players if str(u.id) == current)
        await session.miss_turn(current, limit=1, stand_in="normal")
        await eventually(lambda: f"Turn: 🤖 {user.name}" in _table_text(table))
        assert f"<@{user.id}>" not in _table_text(table)


async def test_a_second_take_a_seat_by_the_one_it_seated_says_they_are_seated(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=60)) as table:
        (ann,) = table.players
        await table.answer(ann, "rummy new", variant="classic", open_seats=True)
        await table.text(ann, "rummy addbot", level="easy")
        await table.text(ann, "rummy start")
        await eventually(lambda: table.table_message() is not None)
        shown = table.table_message()
        assert shown is not None
        await eventually(lambda: any(":seat:take:" in c for c in shown.custom_ids()))
        cat = fake.add_user("cat")
        take = shown.button("Take a seat")["custom_id"]
        clicks = [await fake.click(cat, shown, take), await fake.click(cat, shown, take)]
        said = []
        for ix in clicks:
            await ix.wait_until(lambda i: any(m.content for m in i.messages), PATIENCE)
            said.append(ix.messages[-1].content)
        assert any("You took over the seat of" in x for x in said), said
        assert not any("already started" in x for x in said), said
        assert table.session().player_of(cat.id) is not None


SUPPRESS_NOTIFICATIONS = 1 << 12


async def test_at_the_first_deal_only_the_player_who_starts_is_notified(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        current = session.view(None).current
        for user in table.players:
            await eventually(lambda: table.hand_dm(user) is not None)  # noqa: B023
            dm = table.hand_dm(user)
            assert dm is not None
            silent = bool(dm.flags & SUPPRESS_NOTIFICATIONS)
            assert silent is (str(user.id) != current), (user.name, dm.content)


async def test_a_settings_change_the_database_refuses_says_the_settings_are_unchanged(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann") as table:
        (ann,) = table.players
        store = store_of(table.sessions)
        async with store.transaction() as conn:
            for name, target in (("server", "server_settings"), ("mine", "personal_settings")):
                await conn.execute(
                    f"CREATE TRIGGER refuse_{name} BEFORE INSERT ON {target}"
                    " BEGIN SELECT RAISE(ABORT, 'refused'); END"
                )
        said = await table.text(table.guild.owner, "rummy settings", threads="off")
        assert "The settings are unchanged" in said, said
        said = await table.text(ann, "rummy preferences", theme="light")
        assert "The settings are unchanged" in said, said
        assert not any("game" in x.getMessage() for x in cog_problems)
        assert len(cog_problems) == 2
        cog_problems.clear()


async def test_settings_refuse_an_option_of_another_variant_in_rummy_new_s_words(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann") as table:
        (ann,) = table.players
        new = await table.text(ann, "rummy new", variant="500", ten_for_three=True)
        said = await table.text(
            table.guild.owner, "rummy settings", variant="500", ten_for_three=True
        )
        assert said == new, (said, new)
        assert "game_target" not in said, said
        assert "discard_to_go_out" not in said, said
        assert (await table.sessions.services.server_settings.of(table.guild.id)).variant != "500"
