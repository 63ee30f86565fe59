"""Whole games through the fake Discord with the real discord.py: lobby, deal, moves by slash
command and by the hand's buttons and menus, the table message, DMs, round and game end."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable

import pytest

from bot.rummy import preset
from bot.sessions import SessionStatus
from tests.discord.fake import Interaction, Message, User
from tests.discord.helpers import (
    Bots,
    Table,
    bots,
    cog_problems,
    dm_exists,
    dm_has,
    dm_shows,
    on_turn,
    play_to_end,
)
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


@pytest.fixture
async def table(bots: Bots) -> AsyncIterator[Table]:
    async with bots.table("ann", "bob") as found:
        found.sessions.add_listener(found.record)
        yield found


async def open_and_start(table: Table, **options: object) -> None:
    ann, bob = table.players
    answer = await table.answer(ann, "rummy new", variant="classic", **options)
    lobby = answer.message
    assert lobby is not None
    assert not answer.ephemeral
    assert "ann" in lobby.content
    assert {b["label"] for b in lobby.buttons()} == {
        "Join",
        "Leave",
        "Add computer player",
        "Start",
        "Cancel",
    }
    joined = await table.text(bob, "rummy join")
    assert "seat" in joined
    await eventually(lambda: "bob" in lobby.content)
    started = await table.text(ann, "rummy start")
    assert "dealt" in started
    await eventually(lambda: table.table_message() is not None)
    for user in table.players:
        await eventually(dm_exists(table, user))


async def test_a_two_player_classic_game_played_to_the_end_with_slash_commands(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    await open_and_start(table, target=1)
    fake, channel = table.fake, table.here
    session = table.session()
    await play_to_end(table)
    assert session.status is SessionStatus.FINISHED
    await eventually(lambda: any("Game over." in m.content for m in fake.messages(channel)))
    summaries = [
        m for m in fake.messages(channel) if any(a.filename == "round.png" for a in m.attachments)
    ]
    assert summaries
    assert "Round 1 is over." in summaries[0].content
    final = next(m for m in fake.messages(channel) if m.content.startswith("**Game over.**"))
    assert any(a.filename == "scores.png" for a in final.attachments)
    await eventually(lambda: "Winner" in (getattr(table.table_message(), "content", "")))
    # One table message for the whole game, edited in place.
    assert (
        len(
            [
                m
                for m in fake.messages(channel)
                if any(a.filename == "table.png" for a in m.attachments)
            ]
        )
        == 1
    )


def _custom_id(message: Message, prefix: str) -> str | None:
    ids = message.custom_ids()
    return next((c for c in ids if c.startswith(prefix)), None)


async def test_a_two_player_classic_game_played_to_the_end_with_the_hand_buttons_and_menus(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    await open_and_start(table, target=1)
    await _play_by_buttons(table)


async def test_the_end_button_closes_a_scoreless_round_and_its_player_starts_the_next(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    """Seed 55 runs the stock out in round 1 with nothing scored: the player who presses
    "end" is, with the deal passing on, the first to draw in round 2."""
    ann, bob = table.players
    await table.sessions.create_lobby(
        guild_id=table.guild.id,
        channel_id=table.channel.id,
        host_id=ann.id,
        host_name=ann.name,
        ruleset=preset("classic", target=1),
        seed=55,
    )
    assert "seat" in await table.text(bob, "rummy join")
    assert "dealt" in await table.text(ann, "rummy start")
    session = table.session()
    clicks = await _play_by_buttons(table)
    at = next(i for i, (verb, _, _) in enumerate(clicks) if verb == "end")
    assert clicks[at + 1][0] == "draw"
    assert clicks[at + 1][1] == clicks[at][1]
    assert len(session.view(None).rounds) == 2


async def _play_by_buttons(table: Table) -> list[tuple[str, str, int]]:
    """Play to the end from the hand DMs: "draw" (or "end" on an empty stock), then the first
    meld the menu offers, else its first discard. Returns each button pressed: its verb, the
    player and the turn."""
    fake = table.fake
    session = table.session()
    users = {str(u.id): u for u in table.players}
    clicks: list[tuple[str, str, int]] = []
    moves = 0
    while session.status is SessionStatus.ACTIVE and moves < 300:
        view = session.view(None)
        assert view.current is not None
        user = users[view.current]
        turn = view.turn
        await eventually(dm_has(table, user, "rummy:do:", f":{turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        draw = _custom_id(dm, "rummy:do:draw:") or _custom_id(dm, "rummy:do:end:")
        assert draw is not None, dm.components
        clicks.append((draw.split(":")[2], view.current, turn))
        before = session.seq
        click = await fake.click(user, dm, draw)
        assert (await click.response()).deferred
        await applied(table, before, click)
        moves += 1
        while on_turn(session, turn):
            await eventually(dm_lacks_buttons(table, user))
            dm = table.hand_dm(user)
            assert dm is not None
            menu = _custom_id(dm, "rummy:pick:meld:") or _custom_id(dm, "rummy:pick:discard:")
            assert menu is not None, dm.components
            select = dm.component(menu)
            assert select is not None
            assert len(select["options"]) <= 25
            legal = {str(a) for a in session.legal_actions(view.current)}
            picked = select["options"][0]["value"]
            before = session.seq
            ix = await fake.select(user, dm, menu, [picked])
            await ix.response()
            await applied(table, before, ix)
            if on_turn(session, turn):
                # The next pick comes from the hand as it is now, not an older message
                # (on a busy machine another edit of the DM may land first).
                await eventually(dm_shows(table, user, session.view(view.current).hand))
            done = next(e for e in table.events if e.seq == before + 1)
            assert str(done.action) in legal
            moves += 1
    assert session.status is SessionStatus.FINISHED
    await eventually(lambda: "Winner" in (getattr(table.table_message(), "content", "")))
    return clicks


def dm_lacks_buttons(table: Table, user: User) -> Callable[[], bool]:
    def check() -> bool:
        dm = table.hand_dm(user)
        return dm is not None and not any(c.startswith("rummy:do:") for c in dm.custom_ids())

    return check


async def applied(table: Table, seq: int, ix: Interaction) -> None:
    """Wait for the press or pick to commit; if it never does, say what the bot answered
    (a refusal comes as a private follow-up) rather than only that time ran out."""
    try:
        await eventually(lambda: any(e.seq > seq for e in table.events), 30.0)
    except AssertionError:
        said = [m.content for m in ix.messages]
        raise AssertionError(f"not applied after 30 s; the bot answered {said}") from None
