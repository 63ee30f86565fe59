"""Shared fixtures for end-to-end tests through the fake Discord and the real discord.py.

- `fake_options`: keyword arguments for `FakeDiscord` (override it in a module, or use
  `@pytest.mark.fake(rate_limits=False, ...)` on a test).
- `fake`: a running `FakeDiscord` with discord.py pointed at it for the test; fails the
  test if the bot called a route the fake does not know, or if the fake itself failed.
- `bot_factory`: `await bot_factory(make_bot)` starts a bot (a `commands.Bot` or a callable
  returning one) against the fake, waits until it is connected and returns it; every bot
  is closed at teardown. Pass `ready=False` to get it without waiting (start-up failures).
- `discord_errors` (autouse): ERROR records from `discord.*` loggers fail the test, since
  discord.py logs, and does not raise, exceptions in command and view callbacks. A test
  that provokes one on purpose checks the list and clears it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Protocol

import discord
import pytest

from tests.discord.fake import FakeDiscord, patch_discord
from tests.waiting import PATIENCE

BotMaker = discord.Client | Callable[[], discord.Client]


class BotFactory(Protocol):
    def __call__(
        self, make: BotMaker, *, ready: bool = True, timeout: float = PATIENCE
    ) -> Awaitable[Any]: ...


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def discord_errors() -> Iterator[list[logging.LogRecord]]:
    handler = _Collect()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
    if handler.records:
        text = "\n".join(
            handler.format(r)
            + (f"\n{logging.Formatter().formatException(r.exc_info)}" if r.exc_info else "")
            for r in handler.records
        )
        pytest.fail(f"discord.py logged errors:\n{text}", pytrace=False)


@pytest.fixture
def fake_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker("fake")
    return dict(marker.kwargs) if marker else {}


@contextlib.asynccontextmanager
async def serving(options: dict[str, Any]) -> AsyncIterator[FakeDiscord]:
    """A running fake with discord.py pointed at it (what the ``fake`` fixture holds)."""
    async with FakeDiscord(**options) as server:
        with patch_discord(server):
            yield server
        assert not server.unhandled, f"routes the fake does not serve: {server.unhandled}"
        assert not server.internal_errors, f"the fake failed: {server.internal_errors}"


@pytest.fixture
async def fake(fake_options: dict[str, Any]) -> AsyncIterator[FakeDiscord]:
    async with serving(fake_options) as server:
        yield server


@pytest.fixture
async def bot_factory(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    async with starting(fake) as start:
        yield start


@contextlib.asynccontextmanager
async def starting(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    """What the ``bot_factory`` fixture holds: it closes every bot it started."""
    started: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(make: BotMaker, *, ready: bool = True, timeout: float = PATIENCE) -> Any:
        bot = make if isinstance(make, discord.Client) else make()
        sessions = fake.identify_count + 1
        task = asyncio.create_task(bot.start(fake.token))
        started.append((bot, task))
        if ready:
            waiter = asyncio.create_task(fake.wait_ready(timeout, sessions=sessions))
            done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if waiter not in done:
                waiter.cancel()
                task.result()  # raises what made the bot stop
                raise AssertionError("the bot stopped before connecting")
            waiter.result()
        return bot

    try:
        yield start
    finally:
        for bot, task in reversed(started):
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
                await asyncio.wait_for(task, PATIENCE)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fake(**options): options for the FakeDiscord fixture")
