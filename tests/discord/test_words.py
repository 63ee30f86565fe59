"""The words of a first game through the fake Discord: ``/rummy help`` for each variant and
for the game here, the rules in sentences in the lobby and ``/rummy rules``, option errors
in the command's own names, a short lobby offered a computer player, cards typed by their
number in the hand, and a league card about oneself answered privately."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from bot.rummy import Card, variants
from bot.sessions import SessionStatus
from rendering.hand import sorted_hand
from tests.discord.fake import Message, User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]

NUMBERED = re.compile(r"^By number: (.*)$", re.M)
FLAG_LINE = re.compile(r": (yes|no)$", re.M)
"""A rule said as a flag (``Simple scoring: no``), as the rules were before they were words."""


async def private(table: Table, user: User, command: str, /, **options: Any) -> list[Message]:
    """Every answer to a command that only its user sees; nothing is committed."""
    before = len(table.events)
    ix = await table.fake.slash(user, table._where(command), command, **options)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    await asyncio.sleep(0.05)
    messages = [m for m in ix.messages if m.content]
    assert messages
    assert all(m.ephemeral for m in messages), [m.content for m in messages]
    assert len(table.events) == before
    return messages


async def test_help_explains_each_variant_and_the_game_here(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        ann, bob = table.players
        (first,) = await private(table, ann, "rummy help")
        for variant in variants.VARIANTS.values():
            assert variant.title in first.content
        for label in ("Join", "Add computer player", "Start", "/rummy new"):
            assert label in first.content
        for variant in variants.VARIANTS.values():
            (answer,) = await private(table, bob, "rummy help", variant=variant.name)
            text = answer.content
            assert f"How to play {variant.title}" in text
            assert "/draw source:stock" in text
            assert "/discard card:3" in text
            assert ("depth:3" in text) == bool(variant.rules["deep_discard"])
            assert ("/swap" in text) == bool(variant.rules["joker_swap"])
        # In a game's thread, help is about that game, with its house options.
        await table.answer(ann, "rummy new", variant="500", jokers=True)
        here, *reference = await private(table, bob, "rummy help")
        assert len(reference) <= 1  # the deal, the cards and the ace when the turn is long
        assert "How to play Rummy 500" in here.content
        assert "This table's house options: Jokers: 2 per deck, wild." in here.content


async def test_the_rules_are_sentences_and_options_are_refused_in_the_command_s_words(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        ann, bob = table.players
        (overview,) = await private(table, ann, "rummy rules")
        text = overview.content
        assert text.count("; game to") == len(variants.VARIANTS)
        assert "/rummy help" in text
        assert not FLAG_LINE.search(text)

        (wrong,) = await private(table, ann, "rummy new", variant="classic", jokers=True)
        assert wrong.content == (
            "Those rules don't fit together: jokers is only for Parlett's Basic Rummy"
            " or Rummy 500, not Classic Rummy"
        )
        (wrong,) = await private(table, ann, "rummy new", variant="500", scoring="negative")
        assert "scoring:negative is only for Classic Rummy, not Rummy 500" in wrong.content
        (wrong,) = await private(table, ann, "rummy new", variant="parlett", limit_layoffs=True)
        assert "limit_layoffs is only for Classic Rummy or Rummy 500" in wrong.content
        assert "lay_offs" not in wrong.content
        assert table.sessions.get(table.channel.id) is None

        opened = await table.answer(
            ann, "rummy new", variant="parlett", jokers=False, must_discard_to_go_out=True
        )
        lobby = opened.message
        assert lobby is not None
        for line in (
            "• Variant: Parlett's Basic Rummy",
            "• Players: 2 to 7",
            "• Game ends at 100 points",
            "• No jokers",
            "• Going out needs a final discard",
        ):
            assert line in lobby.content
        assert not FLAG_LINE.search(lobby.content)
        (rules,) = await private(table, bob, "rummy rules")
        assert "No jokers" in rules.content
        assert "Going out needs a final discard" in rules.content

        # A table of one cannot start: the host is offered a computer player.
        (short,) = await private(table, ann, "rummy start")
        assert short.content == (
            "Not allowed: Parlett's Basic Rummy needs 2 to 7 players, and this table has 1."
            " Seat a computer player with the Add computer player button (or /rummy addbot),"
            " or wait for someone to press Join."
        )
        assert table.session().status is SessionStatus.LOBBY


def _numbered(text: str) -> dict[int, str]:
    """The "By number" line of a hand text: number -> the card's face as shown."""
    found = NUMBERED.search(text)
    assert found is not None, text
    pairs = (item.split(" ", 1) for item in found[1].split(" · "))
    return {int(n): face for n, face in pairs}


async def test_cards_are_typed_by_their_number_in_the_hand_as_shown(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        await deal(table)
        session = table.session()
        current = next(u for u in table.players if str(u.id) == session.view(None).current)
        # The hand in the DM numbers its cards in the order the picture draws them.
        held = sorted_hand(session.view(str(current.id)).hand)
        await eventually(lambda: table.hand_dm(current) is not None)
        dm = table.hand_dm(current)
        assert dm is not None
        assert _numbered(dm.content) == {n: c.face_text for n, c in enumerate(held, 1)}
        (drawn,) = [
            m
            for m in await _answers(table, current, "draw", source="stock")
            if "By number" in m.content
        ]
        numbered = _numbered(drawn.content)
        assert len(numbered) == len(session.view(str(current.id)).hand)

        offered = await table.fake.autocomplete(
            current, table.here, "discard", focused="card", card="2"
        )
        assert [c["name"] for c in offered] == [numbered[2]]

        past = len(numbered) + 5
        (refusal,) = await private(table, current, "discard", card=str(past))
        assert refusal.content == (
            f"I couldn't read those cards: your hand has no card {past}:"
            f" its cards are numbered 1 to {len(numbered)}"
        )
        await table.text(current, "discard", card="2")
        top = session.view(None).discard[-1]
        assert top.face == Card.parse(numbered[2]).face


async def _answers(table: Table, user: User, command: str, /, **options: Any) -> list[Message]:
    ix = await table.fake.slash(user, table.here, command, **options)
    await ix.response()
    await ix.wait_until(lambda i: any("By number" in m.content for m in i.messages))
    return list(ix.messages)


async def test_your_own_league_card_is_private_and_someone_else_s_is_not(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("ann", "bob") as table:
        table.sessions.add_listener(table.record)
        ann, bob = table.players
        (mine,) = await private(table, ann, "league player")
        assert "has not played a league game" in mine.content
        ix = await table.fake.slash(ann, table.channel, "league player", user=bob)
        await ix.response()
        await ix.wait_until(lambda i: any(m.content for m in i.messages))
        assert not any(m.ephemeral for m in ix.messages if m.content)
