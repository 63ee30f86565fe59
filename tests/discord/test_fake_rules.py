"""What Discord rejects, the fake rejects, and discord.py sees Discord's error shapes."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.test_fake_bot import ProbeBot
from tests.waiting import eventually


def _button(i: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}", **extra}


def _select(n: int, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


TOO_MUCH: list[tuple[str, dict[str, Any], str]] = [
    ("content", {"content": "x" * 2001}, "content"),
    ("embeds", {"embeds": [{"description": "x"}] * 11}, "embeds"),
    ("rows", {"components": [_row(_button(i)) for i in range(6)]}, "components"),
    ("buttons", {"components": [_row(*[_button(i) for i in range(6)])]}, "components.0.components"),
    ("select+button", {"components": [_row(_select(2), _button(1))]}, "components.0.components"),
    ("options", {"components": [_row(_select(26))]}, "components.0.components.0.options"),
    ("custom_id", {"components": [_row(_button(1, custom_id="c" * 101))]}, "custom_id"),
    ("label", {"components": [_row(_button(1, label="l" * 81))]}, "label"),
    (
        "option label",
        {"components": [_row({**_select(1), "options": [{"label": "l" * 101, "value": "v"}]})]},
        "options.0.label",
    ),
    (
        "option value",
        {"components": [_row({**_select(1), "options": [{"label": "l", "value": "v" * 101}]})]},
        "options.0.value",
    ),
    ("duplicate ids", {"components": [_row(_button(1), _button(1))]}, "custom_id"),
]

JUST_RIGHT: list[tuple[str, dict[str, Any]]] = [
    ("content", {"content": "x" * 2000}),
    ("embeds", {"embeds": [{"description": "x"}] * 10}),
    ("rows", {"components": [_row(*[_button(5 * r + i) for i in range(5)]) for r in range(5)]}),
    ("options", {"components": [_row(_select(25, max_values=25))]}),
    ("custom_id", {"components": [_row(_button(1, custom_id="c" * 100))]}),
    ("label", {"components": [_row(_button(1, label="l" * 80))]}),
    (
        "option text",
        {
            "components": [
                _row({**_select(1), "options": [{"label": "l" * 100, "value": "v" * 100}]})
            ]
        },
    ),
]


async def _send(bot: discord.Client, channel_id: int, payload: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await bot.http.request(route, json=payload)


@pytest.fixture
async def bot_in_table(fake: FakeDiscord, bot_factory: BotFactory) -> tuple[ProbeBot, int]:
    guild = fake.add_guild("Cards")
    table = guild.add_text_channel("table")
    fake.add_user("alice")
    bot: ProbeBot = await bot_factory(ProbeBot)
    return bot, table.id


@pytest.mark.parametrize(("name", "payload", "where"), TOO_MUCH, ids=[t[0] for t in TOO_MUCH])
async def test_over_the_limit_is_rejected(
    bot_in_table: tuple[ProbeBot, int], name: str, payload: dict[str, Any], where: str
) -> None:
    bot, channel_id = bot_in_table
    with pytest.raises(discord.HTTPException) as caught:
        await _send(bot, channel_id, payload)
    assert caught.value.status == 400
    assert caught.value.code == 50035
    assert where in caught.value.text


@pytest.mark.parametrize(("name", "payload"), JUST_RIGHT, ids=[t[0] for t in JUST_RIGHT])
async def test_at_the_limit_is_accepted(
    fake: FakeDiscord, bot_in_table: tuple[ProbeBot, int], name: str, payload: dict[str, Any]
) -> None:
    bot, channel_id = bot_in_table
    data = await _send(bot, channel_id, payload)
    assert fake.message(int(data["id"])).components == payload.get("components", [])


async def test_empty_message_is_rejected(bot_in_table: tuple[ProbeBot, int]) -> None:
    bot, channel_id = bot_in_table
    with pytest.raises(discord.HTTPException) as caught:
        await _send(bot, channel_id, {"content": ""})
    assert caught.value.code == 50006


async def test_limits_apply_to_interaction_answers(
    fake: FakeDiscord, bot_in_table: tuple[ProbeBot, int], discord_errors: list[logging.LogRecord]
) -> None:
    _, channel_id = bot_in_table
    alice = fake.user_named("alice")
    table = fake.channels[channel_id]
    ix = await fake.autocomplete_interaction(alice, table, "meld", focused="cards", cards="26")
    await ix.wait_until(lambda i: bool(i.rejected))
    assert ix.first is None
    assert ix.rejected[0].code == 50035
    assert "choices" in str(ix.rejected[0].errors)
    ix = await fake.autocomplete_interaction(alice, table, "meld", focused="cards", cards="y" * 98)
    await ix.wait_until(lambda i: bool(i.rejected))
    assert "data.choices.0.name" in _flat(ix.rejected[0].errors)
    # discord.py logs an autocomplete that failed; here that is the point.
    await eventually(lambda: bool(discord_errors))
    assert all("autocomplete" in r.getMessage() for r in discord_errors)
    discord_errors.clear()
    assert await fake.autocomplete(alice, table, "meld", focused="cards", cards="25")


def _flat(errors: dict[str, Any] | None, prefix: str = "") -> str:
    out = []
    for key, value in (errors or {}).items():
        if key == "_errors":
            out.append(prefix.rstrip("."))
        elif isinstance(value, dict):
            out.append(_flat(value, f"{prefix}{key}."))
    return " ".join(out)


async def test_bad_token_is_refused(fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bot wrong"}
        ) as response,
    ):
        assert response.status == 401
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["code"] == 0
    bot = ProbeBot()
    try:
        with pytest.raises(discord.LoginFailure):
            await bot.login("wrong")
    finally:
        await bot.close()


GLOBAL = 20
"""The fake's global limit in the test of it: low enough that a loaded machine still sends
more than that many requests within a second (at 50 one did not, once)."""
BURST = GLOBAL * 7 // 5
"""Messages sent at once: 40 % over the limit, so every one gets through within discord.py's
five tries."""


@pytest.mark.fake(global_limit=GLOBAL)
async def test_global_rate_limit_429_and_discord_py_retries(
    fake: FakeDiscord, bot_in_table: tuple[ProbeBot, int], caplog: pytest.LogCaptureFixture
) -> None:
    bot, channel_id = bot_in_table
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    start = time.monotonic()
    sent = await asyncio.gather(*(channel.send(f"m{i}") for i in range(BURST)))
    elapsed = time.monotonic() - start
    assert len(sent) == BURST
    assert len(fake.messages(fake.channels[channel_id])) == BURST
    limited = [r for r in fake.requests if r.limited]
    assert limited, f"{BURST} messages at once never hit the global limit"
    assert all(r.status == 429 and r.counted for r in limited)
    assert elapsed >= 0.5
    # Never more than the limit of accepted counted requests in any one-second window.
    accepted = sorted(r.at for r in fake.requests if r.counted and not r.limited)
    for i, at in enumerate(accepted):
        assert sum(1 for t in accepted[i : i + GLOBAL + 1] if t - at < 1.0) <= GLOBAL


async def test_429_shape(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        for _ in range(50):
            async with session.get(f"{fake.api_base}/users/@me", headers=headers) as response:
                assert response.status == 200
                assert response.headers["Content-Type"] == "application/json"
                for name in ("Limit", "Remaining", "Reset-After", "Bucket", "Reset"):
                    assert f"X-RateLimit-{name}" in response.headers
        async with session.get(f"{fake.api_base}/users/@me", headers=headers) as response:
            assert response.status == 429
            assert response.headers["Content-Type"] == "application/json"
            body = await response.json()
            assert set(body) == {"message", "retry_after", "global"}
            assert body["global"] is True
            assert 0 < body["retry_after"] <= 1.0
            assert response.headers["X-RateLimit-Global"] == "true"
            assert response.headers["X-RateLimit-Scope"] == "global"
            assert response.headers["Via"]
            assert float(response.headers["Retry-After"]) >= 1
        fake.rate_limits = False
        async with session.get(f"{fake.api_base}/users/@me", headers=headers) as response:
            assert response.status == 200


async def test_interaction_answers_are_not_rate_limited(
    fake: FakeDiscord, bot_in_table: tuple[ProbeBot, int]
) -> None:
    _, channel_id = bot_in_table
    alice = fake.user_named("alice")
    table = fake.channels[channel_id]
    fake.global_limit = 0  # every request under the global limit is now refused
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.api_base}/users/@me", headers=headers) as response,
    ):
        assert response.status == 429
    mark = time.monotonic()
    ix = await fake.slash(alice, table, "slow")
    await ix.followups(2)
    await ix.wait_until(lambda i: i.original is not None and i.original.edits == 1)
    answers = [r for r in fake.requests if r.at >= mark]
    assert {r.route.split()[1].split("/")[1] for r in answers} == {"interactions", "webhooks"}
    assert not any(r.counted or r.limited for r in answers)
    assert all(r.status in (200, 204) for r in answers)
