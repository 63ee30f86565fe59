"""Every refused request gets a short ephemeral answer and leaves the game as it was; closed
DMs and two clicks at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.sessions import SessionStatus
from tests.discord.fake import Channel, FakeDiscord, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    dm_has,
    hand_of,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


@pytest.fixture
async def table(fake: FakeDiscord, bots: Bots) -> AsyncIterator[Table]:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    guild.add_text_channel("elsewhere")
    ann = fake.add_user("ann")
    bob = fake.add_user("bob", dm_open=False)
    fake.add_user("carol")
    async with bots.seat(guild, channel, [ann, bob]) as found:
        found.sessions.add_listener(found.record)
        yield found


def user_named(fake: FakeDiscord, name: str) -> User:
    return next(u for u in fake.users.values() if u.name == name)


async def refused(
    table: Table, user: User, command: str, channel: Channel | None = None, **options: Any
) -> str:
    """Run a command that must be refused: the answer is ephemeral and nothing is committed."""
    before = len(table.events)
    ix = await table.fake.slash(user, channel or table.channel, command, **options)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    message = ix.messages[-1]
    assert message.ephemeral, message.content
    await asyncio.sleep(0.05)
    assert len(table.events) == before
    return message.content


async def start_game(table: Table) -> None:
    ann, bob = table.players
    await table.answer(ann, "rummy new", variant="classic")
    await table.text(bob, "rummy join")
    await table.text(ann, "rummy start")
    await eventually(lambda: table.table_message() is not None)


async def test_refused_requests_are_answered_privately_and_change_nothing(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    fake = table.fake
    ann, bob = table.players
    carol = user_named(fake, "carol")
    elsewhere = next(c for c in table.guild.channels.values() if c.name == "elsewhere")

    text = await refused(table, ann, "rummy new", variant="classic", jokers=True)
    assert "rules" in text
    assert "jokers" in text
    assert "no game" in (await refused(table, ann, "draw", source="stock"))
    await start_game(table)
    assert "already" in (await refused(table, carol, "rummy new", table.here, variant="500"))
    session = table.session()
    first = session.view(None).current
    current, other = (ann, bob) if first == str(ann.id) else (bob, ann)
    assert "turn" in (await refused(table, other, "draw", source="stock"))
    assert "not playing" in (await refused(table, carol, "draw", source="stock"))
    assert "no game" in (await refused(table, current, "draw", source="stock", channel=elsewhere))
    assert "Draw a card first" in (await refused(table, current, "discard", card="7h"))
    assert "couldn't read" in (await refused(table, current, "meld", cards="7x 8y"))
    assert "couldn't read" in (await refused(table, current, "meld", cards="\U0001f600" * 250))
    assert "Only the host" in (await refused(table, carol, "rummy cancel"))
    # A stale button: the hand shown before a move, clicked after it.
    shown = await fake.slash(current, table.here, "hand")
    await shown.wait_until(lambda i: any(m.components for m in i.messages))
    old_hand = next(m for m in shown.messages if m.components)
    draw_id = next(c for c in old_hand.custom_ids() if c.startswith("rummy:do:draw:"))
    await table.text(current, "draw", source="stock")
    card = (await fake.autocomplete(current, table.here, "discard", focused="card", card=""))[0]
    await table.text(current, "discard", card=card["value"])
    before = len(table.events)
    late = await fake.click(current, old_hand, draw_id)
    await late.response()
    await late.followups(1)
    assert "earlier turn" in late.followup_messages[0].content
    assert late.followup_messages[0].ephemeral
    assert len(table.events) == before
    # An ended game: its private hand loses its controls, and a click a client still shows
    # is refused.
    game = table.here
    await table.text(ann, "rummy cancel")
    await eventually(lambda: table.sessions.get(game.id) is None)
    await eventually(lambda: not fake.message(old_hand.id).custom_ids())
    gone = await fake.forged_click(current, table.here, draw_id)
    await gone.response()
    await gone.wait_until(lambda i: any("over" in m.content for m in i.messages))


async def test_closed_dms_are_told_once_and_the_hand_is_shown_on_request(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    fake = table.fake
    ann, bob = table.players
    await start_game(table)
    closed = [m for m in fake.messages(table.here) if "can't send you direct messages" in m.content]
    await eventually(
        lambda: len([m for m in fake.messages(table.here) if "direct messages" in m.content]) >= 1
    )
    closed = [m for m in fake.messages(table.here) if "direct messages" in m.content]
    assert len(closed) == 1
    assert f"<@{bob.id}>" in closed[0].content
    table_message = table.table_message()
    assert table_message is not None
    show = next(c for c in table_message.custom_ids() if c.startswith("rummy:hand:"))
    click = await fake.click(bob, table_message, show)
    await click.wait_until(lambda i: any("Your hand" in m.content for m in i.messages))
    hand = next(m for m in click.messages if "Your hand" in m.content)
    assert hand.ephemeral
    assert any(a.filename == "hand.png" for a in hand.attachments)
    session = table.session()
    assert sorted(c.face for c in hand_of(hand.content)) == sorted(
        c.face for c in session.view(str(bob.id)).hand
    )
    # Play on until it is bob's turn: ann draws and discards by command.
    if session.view(None).current == str(ann.id):
        await table.text(ann, "draw", source="stock")
        card = (await fake.autocomplete(ann, table.here, "discard", focused="card", card=""))[0]
        await table.text(ann, "discard", card=card["value"])
    await eventually(
        lambda: any(f"<@{bob.id}>, it's your turn" in m.content for m in fake.messages(table.here))
    )
    # His ephemeral hand carries the move buttons and they work.
    click = await fake.click(bob, table_message, show)
    await click.wait_until(lambda i: any(m.components for m in i.messages))
    hand = next(m for m in click.messages if m.components)
    draw_id = next(c for c in hand.custom_ids() if c.startswith("rummy:do:draw:"))
    before = session.seq
    drew = await fake.click(bob, hand, draw_id)
    await drew.response()
    await eventually(lambda: session.seq == before + 1)
    await eventually(lambda: "Just drawn" in hand.content)
    # Still told only once.
    assert len([m for m in fake.messages(table.here) if "direct messages" in m.content]) == 1
    assert session.status is SessionStatus.ACTIVE


async def test_two_clicks_at_once_apply_once(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    fake = table.fake
    ann, bob = table.players
    await start_game(table)
    session = table.session()
    if session.view(None).current != str(ann.id):
        await table.text(bob, "draw", source="stock")
        card = (await fake.autocomplete(bob, table.here, "discard", focused="card", card=""))[0]
        await table.text(bob, "discard", card=card["value"])
    turn = session.view(None).turn
    await eventually(dm_has(table, ann, "rummy:do:draw:", f":{turn}"))
    dm = table.hand_dm(ann)
    assert dm is not None
    draw_id = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
    before = session.seq
    clicks = await asyncio.gather(*(fake.click(ann, dm, draw_id) for _ in range(2)))
    for click in clicks:
        await click.response()
    await eventually(lambda: any(c.followup_messages for c in clicks))
    await eventually(lambda: session.seq == before + 1)  # one draw, the other refused
    refusals = [m for c in clicks for m in c.followup_messages]
    assert len(refusals) == 1
    assert refusals[0].ephemeral
    assert "already drawn" in refusals[0].content or "earlier turn" in refusals[0].content
