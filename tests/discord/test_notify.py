"""What people are told, and what it costs: the table and the DMs say every move since a
player's last turn; each turn begins with exactly one notification (a new DM, or one
mention with closed DMs); the notify-only-when-away choice; and the calls under Discord's
global rate limit per ordinary turn, one move at a time (nothing for the bot to fold
together), counted as the fake saw them."""

from __future__ import annotations

import logging
import statistics
import time
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.rummy import Discard, DrawStock, preset
from bot.sessions import SessionStatus
from tests.discord.fake import FakeDiscord, Message, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    discard_from_dm,
    display_calm,
    dm_has,
    draw_from_dm,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

FOUR = ("ann", "bob", "cat", "dan")


async def _open(table: Table, seed: int, target: int = 500) -> None:
    host = table.players[0]
    await table.sessions.create_lobby(
        guild_id=table.guild.id,
        channel_id=table.channel.id,
        host_id=host.id,
        host_name=host.name,
        ruleset=preset("classic", target=target),
        seed=seed,
    )
    for user in table.players[1:]:
        assert "seat" in await table.text(user, "rummy join")
    assert "dealt" in await table.text(host, "rummy start")
    await eventually(lambda: table.table_message() is not None)


def _user(table: Table, player: str) -> User:
    return next(u for u in table.players if str(u.id) == player)


async def _button_turn(table: Table) -> tuple[str, str]:
    """The current player draws from the stock and discards the first card offered, from
    their DM; returns who played and what the DM said when their turn began."""
    session = table.session()
    view = session.view(None)
    assert view.current is not None
    user = _user(table, view.current)
    await eventually(dm_has(table, user, "rummy:do:", f":{view.turn}"))
    dm = table.hand_dm(user)
    assert dm is not None
    said = dm.content
    draw = next(c for c in dm.custom_ids() if c.startswith(("rummy:do:draw:", "rummy:do:end:")))
    seq = session.seq
    await (await table.fake.click(user, dm, draw)).response()
    await eventually(lambda: session.seq > seq)
    if session.status is SessionStatus.ACTIVE and session.view(None).turn == view.turn:
        await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        seq = session.seq
        value = component["options"][0]["value"]
        await (await table.fake.select(user, dm, menu, [value])).response()
        await eventually(lambda: session.seq > seq)
    await eventually(lambda: any(e.seq >= session.seq for e in table.events))
    return view.current, said


@pytest.fixture
async def four(bots: Bots) -> AsyncIterator[Table]:
    async with bots.table(*FOUR) as found:
        found.sessions.add_listener(found.record)
        yield found


async def test_table_and_dms_show_every_move_since_each_players_last_turn(
    four: Table, cog_problems: list[logging.LogRecord]
) -> None:
    table = four
    await _open(table, seed=7)
    names = {str(u.id): u.name for u in table.players}
    played: list[tuple[str, str]] = []
    """(player, their turn's line as the others must read it), in order."""
    for _ in range(10):
        start = len(table.events)
        player, said = await _button_turn(table)
        moves = [e for e in table.events[start:] if e.actor == player]
        drew = [e for e in moves if isinstance(e.action, DrawStock)]
        threw = [e.action for e in moves if isinstance(e.action, Discard)]
        assert drew
        assert len(threw) == 1
        card = threw[0].card.face_text
        played.append((player, f"• {names[player]}: drew from the stock, discarded {card}"))
        # The turn's DM, sent when it began, said every turn since this player's last one,
        # and every player's cards and score.
        before = [p for p, _ in played[:-1]]
        mine = max((i for i, p in enumerate(before) if p == player), default=-1)
        for _, line in played[mine + 1 : -1]:
            assert line in said
        assert "Scores: " in said
        assert all(f"{name} " in said for name in FOUR)
        # The table, once the turn is over: every turn since the next player's last one,
        # and the order of play.
        view = table.session().view(None)
        current = view.current
        assert current is not None
        await eventually(lambda: played[-1][1] in getattr(table.table_message(), "content", ""))
        shown = table.table_message()
        assert shown is not None
        text = shown.content
        last = max((i for i, (p, _) in enumerate(played) if p == current), default=-1)
        for _, line in played[last + 1 :]:
            assert line in text
        seats = [s.player for s in view.seats]
        i = seats.index(current)
        order = f"{names[seats[i - 1]]} → **{names[current]}** → {names[seats[(i + 1) % 4]]}"
        assert order in text
    # A DM names no command that cannot be used there.
    for user in table.players:
        for message in table.fake.dms(user, deleted=True):
            assert "/layoff" not in message.content
            assert "/swap" not in message.content


def _dm_count(fake: FakeDiscord, user: User) -> int:
    return len(fake.dms(user, deleted=True))


async def test_each_turn_begins_with_exactly_one_new_dm(
    four: Table, cog_problems: list[logging.LogRecord]
) -> None:
    """A whole round by the DM buttons (draws and discards until the stock runs out and
    the round is ended), then the first turns of the next: every player got one new DM per
    turn of theirs, and the deal's DM for those who did not start; no mention anywhere."""
    table = four
    fake = table.fake
    await _open(table, seed=11)
    first = table.session().view(None).current
    turns: Counter[str] = Counter()
    rounds = 0
    while rounds < 1 or sum(turns.values()) < 30:
        player, _ = await _button_turn(table)
        turns[player] += 1
        rounds = len(table.session().view(None).rounds)
        if sum(turns.values()) > 80:
            break
    assert rounds >= 1, "the round never ended"
    current = table.session().view(None).current
    assert current is not None
    turns[current] += 1  # their turn has begun: its DM must be there
    await eventually(dm_has(table, _user(table, current), "rummy:do:"))
    await display_calm(table)
    for user in table.players:
        player = str(user.id)
        dealt = 0 if player == first else 1
        assert _dm_count(fake, user) == turns[player] + dealt, user.name
        assert not any(m.pinged(user) for m in fake.messages(table.channel, deleted=True))
    # Every player's DM said how the round ended and what it meant for them.
    for user in table.players:
        seen = [v for m in fake.dms(user, deleted=True) for v in (*m.versions, m.content)]
        told = [v for v in seen if "Round 1 is over." in v]
        assert told, user.name
        assert any("Your points: " in v and "New deal." in v for v in told), user.name
    # Only the newest hand message of each player shows a picture; older ones are gone or
    # tidied to their line.
    for user in table.players:
        kept = fake.dms(user)
        assert all(not m.attachments for m in kept[:-1])
        assert all(m.content.count("\n") <= 2 for m in kept[:-1])


async def test_with_closed_dms_each_turn_begins_with_one_mention(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    fake = bots.fake
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    users = [fake.add_user(name, dm_open=False) for name in FOUR]
    async with bots.seat(guild, channel, users) as table:
        table.sessions.add_listener(table.record)
        await _open(table, seed=11)
        session = table.session()
        turns: Counter[str] = Counter()

        def mentions(user: User) -> list[Message]:
            return [m for m in fake.messages(channel, deleted=True) if m.pinged(user)]

        for _ in range(12):
            view = session.view(None)
            assert view.current is not None
            user = _user(table, view.current)
            turns[view.current] += 1
            await eventually(lambda u=user: len(mentions(u)) >= turns[str(u.id)])  # type: ignore[misc]
            assert "drew" in await table.text(user, "draw", source="stock")
            choices = await fake.autocomplete(user, channel, "discard", focused="card", card="")
            assert "discarded" in await table.text(user, "discard", card=choices[0]["value"])
        current = session.view(None).current
        assert current is not None
        turns[current] += 1
        await display_calm(table)
        for user in users:
            told = mentions(user)
            assert len(told) == turns[str(user.id)], user.name
            assert all(m.button("Show my hand") for m in told)
        assert not any(fake.dms(u, deleted=True) for u in users)


async def test_notified_only_when_away(bots: Bots, cog_problems: list[logging.LogRecord]) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        fake = table.fake
        ann, bob = table.players
        said = await table.text(ann, "rummy notify", when="when_away")
        assert "only after two minutes" in said
        assert await table.sessions.notified_when_away() == {ann.id}
        await _open(table, seed=3)
        for _ in range(2):
            await _button_turn(table)
        await display_calm(table)
        # From now on ann has just played when her turn begins: it comes as a quiet edit.
        quiet = _dm_count(fake, ann)
        bobs = _dm_count(fake, bob)
        for _ in range(4):
            await _button_turn(table)
        await display_calm(table)
        assert _dm_count(fake, ann) == quiet
        assert _dm_count(fake, bob) == bobs + 2
        said = await table.text(ann, "rummy notify", when="every_turn")
        assert "new message" in said
        assert await table.sessions.notified_when_away() == set()
        for _ in range(4):
            await _button_turn(table)
        await display_calm(table)
        assert _dm_count(fake, ann) == quiet + 2


def _counted(fake: FakeDiscord, since: float) -> int:
    return len(fake.counted_requests(since))


async def _typed_move(table: Table, user: User, command: str, **options: str) -> None:
    said = await table.text(user, command, **options)
    assert ("drew" if command == "draw" else "discarded") in said, said


async def _typed_discard(table: Table, user: User) -> None:
    choices = await table.fake.autocomplete(user, table.channel, "discard", focused="card", card="")
    await _typed_move(table, user, "discard", card=choices[0]["value"])


@pytest.mark.fake(rate_limits=True)
async def test_a_turn_costs_two_calls_by_buttons_and_at_most_three_typed_or_mixed(
    four: Table, cog_problems: list[logging.LogRecord]
) -> None:
    """One move at a time, the bot done with each before the next (as at human pace),
    each seat played its own way: by the DM's controls; typed, followed by a seat that
    types too (a game played by commands only); typed, followed by a seat that mixes; and
    mixed, a DM draw then a typed discard, or a typed draw then the DM's discard menu.
    After every player's first turn, each turn's calls under the global limit."""
    table = four
    fake = table.fake
    await _open(table, seed=21)
    session = table.session()
    seats = [s.player for s in session.view(None).seats]
    ways = dict(zip(seats, ("buttons", "typed", "typed", "mixed"), strict=True))
    spent: dict[str, list[int]] = {"buttons": [], "typed": [], "mixed": []}
    mixed = 0
    for n in range(16):
        await display_calm(table)
        view = session.view(None)
        assert view.current is not None
        user = _user(table, view.current)
        await eventually(dm_has(table, user, "rummy:do:draw:", f":{view.turn}"))
        await display_calm(table)
        since = time.monotonic()
        way = ways[view.current]
        if way == "buttons":
            await _button_turn(table)
        elif way == "typed":
            await _typed_move(table, user, "draw", source="stock")
            await display_calm(table)
            await _typed_discard(table, user)
        elif mixed % 2 == 0:
            mixed += 1
            await draw_from_dm(table, user)
            await display_calm(table)
            await _typed_discard(table, user)
        else:
            mixed += 1
            await _typed_move(table, user, "draw", source="stock")
            # This player's DM controls are in use: the typed draw brings their menus.
            await discard_from_dm(table, user, view.turn)
        nxt = session.view(None)
        assert nxt.current is not None
        await eventually(dm_has(table, _user(table, nxt.current), "rummy:do:", f":{nxt.turn}"))
        await display_calm(table)
        if n >= 4 and not nxt.rounds:
            spent[way].append(_counted(fake, since))
    assert mixed >= 2, mixed
    assert statistics.median(spent["buttons"]) <= 2, spent
    assert spent["typed"], spent
    assert max(spent["typed"]) <= 3, spent
    assert spent["mixed"], spent
    assert max(spent["mixed"]) <= 3, spent


async def test_after_a_deal_the_table_is_the_newest_message(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        await _open(table, seed=55)
        first = table.table_message()
        assert first is not None
        session = table.session()
        while session.status is SessionStatus.ACTIVE and not session.view(None).rounds:
            await _button_turn(table)
        assert session.status is SessionStatus.ACTIVE, session.status
        await eventually(lambda: table.table_message() is not first)
        await eventually(lambda: first.deleted)
        await display_calm(table)
        assert table.fake.messages(table.channel)[-1] is table.table_message()
