"""Every option value a person can type is checked by the bot itself: out of its range, it
gets a short ephemeral refusal in words of its own (never "Something went wrong"), and
nothing changes. The fake's client is told not to check ranges, as a modified client or a
probe would not."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.discord.fake import User
from tests.discord.helpers import Bots, Table, bots, cog_problems, deal

__all__ = ["bots", "cog_problems"]

JSON = dict[str, Any]
_RANGES = ("min_value", "max_value", "min_length", "max_length")


@pytest.fixture
async def table(bots: Bots) -> AsyncIterator[Table]:
    async with bots.table("ann", "bob") as found:
        found.sessions.add_listener(found.record)
        found.fake.clients_check_ranges = False
        yield found


async def refused(table: Table, user: User, command: str, **options: Any) -> str:
    """Run a command that must be refused: an ephemeral answer, and nothing committed."""
    before = len(table.events)
    ix = await table.fake.slash(user, table.channel, command, options=options)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    message = ix.messages[-1]
    assert message.ephemeral, message.content
    await asyncio.sleep(0.05)
    assert len(table.events) == before
    return message.content


async def test_the_timer_and_the_depth_out_of_range_are_refused_in_words_of_their_own(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    ann = table.players[0]
    timer = "Not allowed: The turn timer is 0 to 60 minutes (0: no timer)."
    for minutes in (-1, 61, 2**63):
        assert await refused(table, ann, "rummy new", variant="classic", timer=minutes) == timer
    assert table.sessions.get(table.channel.id) is None  # no lobby was opened
    await deal(table)
    current = next(u for u in table.players if str(u.id) == table.session().view(None).current)
    depth = "Not allowed: You can take 1 to 200 cards from the discard pile."
    assert await refused(table, current, "draw", source="discard", depth=0) == depth
    assert table.session().seq == 0  # read as nothing, not as one card


def _ranged(options: list[JSON], path: str) -> Iterator[tuple[str, JSON, list[JSON]]]:
    """Every option with a range or a length, with its command's path and its siblings."""
    for option in options:
        if option["type"] in (1, 2):
            yield from _ranged(option.get("options", []), f"{path} {option['name']}")
        elif any(key in option for key in _RANGES):
            yield path, option, options


def _valid(option: JSON, table: Table) -> Any:
    """A value a client would send for a required option that is not the one tested."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind == 4:
        return option.get("min_value", 1)
    if kind == 5:
        return False
    if kind == 6:
        return table.players[1]
    return "x" * max(1, option.get("min_length", 1))


def _out_of_range(option: JSON) -> Any:
    if option["type"] == 3:
        return "x" * (option["max_length"] + 1) if "max_length" in option else ""
    return option["min_value"] - 1 if "min_value" in option else option["max_value"] + 1


async def test_every_option_with_a_range_refuses_a_value_outside_it(
    table: Table, cog_problems: list[logging.LogRecord]
) -> None:
    ann = table.players[0]
    commands = table.fake.guild_commands[table.guild.id]
    found = [
        found
        for command in commands
        for found in _ranged(command.get("options", []), command["name"])
    ]
    assert {(path, option["name"]) for path, option, _ in found} >= {
        ("rummy new", "timer"),
        ("rummy new", "target"),
        ("draw", "depth"),
        ("layoff", "meld"),
        ("league table", "page"),
    }
    for path, option, siblings in found:
        values = {o["name"]: _valid(o, table) for o in siblings if o.get("required")}
        values[option["name"]] = _out_of_range(option)
        text = await refused(table, ann, path, **values)
        low = option.get("min_value", option.get("min_length", 0))
        high = option.get("max_value", option.get("max_length"))
        assert text.startswith("Not allowed: "), (path, option["name"], text)
        assert f"{low} to {high}" in text, (path, option["name"], text)
    assert not table.events
