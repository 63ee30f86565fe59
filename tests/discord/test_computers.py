"""Computer players through Discord: seated with /rummy addbot or the lobby button, they
play their turns by themselves and are announced like anyone; /hint helps the person."""

from __future__ import annotations

import logging

from bot.sessions import Brains, Session, SessionStatus
from tests.discord.fake import FakeDiscord, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    dm_shows,
    on_turn,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def _active(session: Session) -> bool:
    return session.status is SessionStatus.ACTIVE


async def _my_turn_comes(session: Session, me: str) -> bool:
    """Wait while the computers play; False once the game is over."""
    await eventually(lambda: not _active(session) or session.view(None).current == me, 30)
    return _active(session)


async def _my_turn(table: Table, user: User) -> None:
    """One turn by slash commands: the stock, every meld autocomplete offers, a discard."""
    fake, channel, session = table.fake, table.here, table.session()
    me = str(user.id)
    turn = session.view(None).turn
    await eventually(dm_shows(table, user, session.view(me).hand))
    if not session.view(None).stock_size:
        assert "ended the round" in await table.text(user, "endround")
        return
    assert "drew" in await table.text(user, "draw", source="stock")
    for _ in range(10):
        if not on_turn(session, turn):
            return
        choices = await fake.autocomplete(user, channel, "meld", focused="cards", cards="")
        if not choices:
            break
        assert "melded" in await table.text(user, "meld", cards=choices[0]["value"])
    if not on_turn(session, turn):
        return
    choices = await fake.autocomplete(user, channel, "discard", focused="card", card="")
    assert choices
    assert "discarded" in await table.text(user, "discard", card=choices[0]["value"])


async def test_one_person_and_three_computers_play_a_game_to_the_end(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=0)) as table:
        (ann,) = table.players
        bob = fake.add_user("bob")
        opened = await table.answer(ann, "rummy new", variant="classic", target=1)
        lobby = opened.message
        assert lobby is not None
        refused = await table.text(bob, "rummy addbot", level="easy")
        assert "host" in refused
        assert "took a seat" in await table.text(ann, "rummy addbot", level="easy")
        assert "took a seat" in await table.text(ann, "rummy addbot", level="normal")
        click = await fake.click(ann, lobby, lobby.button("Add computer player")["custom_id"])
        await click.response()
        await eventually(lambda: "Computer 3 (normal)" in lobby.content)
        assert "Computer 1 (easy), Computer 2 (normal)" in lobby.content
        assert [s.level for s in table.session().seats] == [None, "easy", "normal", "normal"]
        assert "dealt" in await table.text(ann, "rummy start")
        session = table.session()
        me = str(ann.id)
        hinted = False
        while await _my_turn_comes(session, me):
            if not hinted:
                hint = await table.answer(ann, "hint")
                assert hint.ephemeral
                assert "Suggested move: " in hint.content
                assert "Then discard " in hint.content
                hinted = True
            await _my_turn(table, ann)
        assert session.status is SessionStatus.FINISHED
        assert hinted
        # The computers' moves were announced on the table like anyone's.
        await eventually(lambda: "Computer" in getattr(table.table_message(), "content", ""))
        await eventually(
            lambda: any(
                "scores.png" in [a.filename for a in m.attachments]
                for m in fake.messages(table.here)
            ),
        )
        await eventually(lambda: table.here.archived)  # the game's thread, once it is over
        history = await table.text(ann, "league history")
        assert "Computer 1" in history
        card = await table.sessions.services.league.player_card(table.guild.id, ann.id)
        assert card is not None
        assert card.games == 1
        assert card.rated_games == 0


async def test_a_hint_is_only_for_your_turn(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    brains = Brains(delay=3600)  # the computer never gets to move here
    async with bots.table("ann", brains=brains) as table:
        (ann,) = table.players
        await table.answer(ann, "rummy new", variant="classic")
        await table.text(ann, "rummy addbot")
        await table.text(ann, "rummy start")
        session = table.session()
        if session.view(None).current == str(ann.id):
            await _my_turn(table, ann)
        assert session.view(None).current == "cpu-1"
        said = await table.text(ann, "hint")
        assert "your turn" in said


async def test_a_hard_computer_thinks_in_its_process_through_a_whole_game(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    brains = Brains(delay=0, hard_budget=0.05)
    async with bots.table("ann", brains=brains) as table:
        (ann,) = table.players
        opened = await table.answer(ann, "rummy new", variant="classic", target=1)
        assert "took a seat" in await table.text(ann, "rummy addbot", level="hard")
        lobby = opened.message
        assert lobby is not None
        await eventually(lambda: "Computer 1 (hard)" in lobby.content)
        assert "dealt" in await table.text(ann, "rummy start")
        session = table.session()
        while await _my_turn_comes(session, str(ann.id)):
            await _my_turn(table, ann)
        assert session.status is SessionStatus.FINISHED
        assert brains.warmed
        assert brains.hard_times  # its moves came back from the pool
