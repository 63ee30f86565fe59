"""Seats that change hands in a running game, through Discord: a player leaves with the
Leave button of their hand (after confirming) and the game goes on to its end; someone not
seated takes over a computer's seat from the table message and plays it; a person whose seat
a stand-in holds takes it back from their DM; and the league rates none of these games."""

from __future__ import annotations

import logging

from bot.sessions import Brains, SessionStatus
from bot.values.league import NEWCOMER
from tests.discord.fake import FakeDiscord
from tests.discord.fake.model import Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal, play_to_end
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


def _said(fake: FakeDiscord, table: Table, text: str) -> bool:
    return any(text in m.content for m in fake.messages(table.here))


def _dm_with(fake: FakeDiscord, user: User, marker: str) -> Message | None:
    found = [m for m in fake.dms(user) if any(marker in c for c in m.custom_ids())]
    return found[-1] if found else None


def _table_text(table: Table) -> str:
    shown = table.table_message()
    return "" if shown is None else shown.content


def _offers_a_seat(table: Table) -> bool:
    shown = table.table_message()
    return shown is not None and any(":seat:take:" in c for c in shown.custom_ids())


async def _deal_with_a_computer(table: Table, **options: object) -> None:
    """The table's one person opens a classic game to 5 with ``options``, adds an easy
    computer player and deals."""
    host = table.players[0]
    await table.answer(host, "rummy new", variant="classic", target=5, **options)
    await table.text(host, "rummy addbot", level="easy")
    await table.text(host, "rummy start")
    await eventually(lambda: table.table_message() is not None)


async def test_a_player_leaves_by_the_button_and_the_game_goes_on_to_its_end(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", brains=Brains(delay=0)) as table:
        await deal(table, target=5)
        session = table.session()
        ann, bob = table.players
        leaver = ann if session.view(None).current == str(ann.id) else bob
        await eventually(lambda: _dm_with(fake, leaver, ":seat:leave:") is not None)
        hand = _dm_with(fake, leaver, ":seat:leave:")
        assert hand is not None
        # The first click only asks.
        asked = await fake.click(leaver, hand, hand.button("Leave the game")["custom_id"])
        confirm = (await asked.response()).message
        assert confirm is not None
        assert confirm.ephemeral
        assert "Leave the game?" in confirm.content
        assert session.player_of(leaver.id) is not None
        sure = await fake.click(leaver, confirm, confirm.button("Leave")["custom_id"])
        await sure.wait_until(lambda i: any("You left" in m.content for m in i.messages))
        assert session.player_of(leaver.id) is None
        await eventually(lambda: _said(fake, table, f"{leaver.name} left; a computer plays"))
        await eventually(lambda: f"🤖 {leaver.name}" in _table_text(table))  # marked
        # Their hand message says so, without controls.
        await eventually(lambda: any("You left the game" in m.content for m in fake.dms(leaver)))
        left = next(m for m in fake.dms(leaver) if "You left the game" in m.content)
        assert not left.custom_ids()
        # They cannot sit down again; the computer plays the seat, the other person plays on.
        assert "You left this game" in await table.text(leaver, "rummy join")
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED
        card = await table.sessions.services.league.player_card(table.guild.id, leaver.id)
        assert card is not None
        assert (card.games, card.wins, card.forfeits, card.rated_games) == (1, 0, 1, 0)
        said = await table.text(leaver, "league player")
        assert "forfeits (games left before their end): 1" in said, said


async def test_someone_takes_over_a_computer_seat_from_the_table_and_plays(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=0)) as table:
        # The host lets people take over the computer players they add.
        await _deal_with_a_computer(table, open_seats=True)
        cat = fake.add_user("cat")
        shown = table.table_message()
        assert shown is not None
        took = await fake.click(cat, shown, shown.button("Take a seat")["custom_id"])
        await took.wait_until(lambda i: any("seat of Computer 1" in m.content for m in i.messages))
        session = table.session()
        assert session.player_of(cat.id) == "cpu-1"
        await eventually(lambda: _said(fake, table, "cat takes over the seat of Computer 1"))
        # No computer holds a seat any more: the table offers none, and a late joiner is
        # queued for the next game.
        await eventually(lambda: not _offers_a_seat(table))
        dan = fake.add_user("dan")
        queued = await table.text(dan, "rummy join")
        assert "in the queue for the next game here" in queued
        table.players.append(cat)
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED
        card = await table.sessions.services.league.player_card(table.guild.id, cat.id)
        assert card is not None
        assert (card.games, card.rated_games) == (1, 0)


async def test_take_my_seat_back_from_the_dm_and_the_game_moves_no_rating(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob", brains=Brains(delay=0)) as table:
        await deal(table, target=5)
        session = table.session()
        ann, bob = table.players
        away = ann if session.view(None).current == str(ann.id) else bob
        player = str(away.id)
        seq = session.seq
        # What the turn timer does after missed turns: a stand-in takes the seat (and moves).
        await session.miss_turn(player, limit=1, stand_in="normal")
        await eventually(lambda: session.seq > seq)
        await eventually(lambda: _dm_with(fake, away, ":seat:back:") is not None)
        held = _dm_with(fake, away, ":seat:back:")
        assert held is not None
        assert "A computer is playing for you" in held.content
        assert not any(":do:" in c or ":pick:" in c for c in held.custom_ids())
        await eventually(lambda: _said(fake, table, "missed three turns"))
        assert "Take my seat back" in await table.text(away, "draw", source="stock")
        back = await fake.click(away, held, held.button("Take my seat back")["custom_id"])
        await back.wait_until(lambda i: any("took your seat back" in m.content for m in i.messages))
        assert session.computer_level(player) is None
        await eventually(lambda: _said(fake, table, "is back"))
        await play_to_end(table)
        assert session.status is SessionStatus.FINISHED
        for user in (ann, bob):
            card = await table.sessions.services.league.player_card(table.guild.id, user.id)
            assert card is not None
            assert (card.games, card.rated_games) == (1, 0)
            assert (card.mu, card.sigma) == (NEWCOMER.mu, NEWCOMER.sigma)


async def test_the_last_person_leaving_ends_the_game_without_league_effect(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=0)) as table:
        (ann,) = table.players
        await _deal_with_a_computer(table)
        session = table.session()
        said = await table.text(ann, "rummy leave")
        assert "Nobody else was playing, so the game ended" in said, said
        assert session.closed
        assert session.status is SessionStatus.ABANDONED
        assert table.sessions.get(table.here.id) is None
        await eventually(lambda: "cancelled" in _table_text(table))
        card = await table.sessions.services.league.player_card(table.guild.id, ann.id)
        assert card is None or (card.games, card.forfeits) == (0, 0), card


async def test_by_default_nobody_takes_over_a_computer_the_host_added(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", brains=Brains(delay=60)) as table:
        await _deal_with_a_computer(table)
        session = table.session()
        await eventually(lambda: _table_text(table) != "")
        assert not _offers_a_seat(table)
        cat = fake.add_user("cat")
        queued = await table.text(cat, "rummy join")
        assert "in the queue for the next game here" in queued, queued
        assert session.player_of(cat.id) is None
