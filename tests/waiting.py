"""Waiting for something a running bot or session does in its own time.

Tests poll for the state they expect instead of sleeping a fixed time: they finish as soon
as the code does, and stay patient on a loaded two-core machine running tests in parallel.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

PATIENCE = 30.0
"""Seconds a test waits for what the code does before it fails, named: long enough for a
loaded two-core machine running other work, so that only a hang runs out of it."""


async def eventually(check: Callable[[], bool], timeout: float = PATIENCE) -> None:
    """Return once ``check()`` holds; fail the test if it does not within ``timeout``
    seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def eventually_async(check: Callable[[], Awaitable[bool]], timeout: float = PATIENCE) -> None:
    """:func:`eventually` for a check that awaits (a read of the database)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.05)
