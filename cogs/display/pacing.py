"""The pace of the requests the workers send under Discord's global rate limit.

Discord's limit (50 requests a second) belongs to the bot, not to a process: several
processes split :data:`PACE` by the shards each holds, so together they stay under it. A
process that takes shards over (or lets them go) paces faster (or slower) from its next
request on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.values.shards import Ownership

PACE = 45.0
"""Requests a second the workers of the whole bot send under Discord's global limit (50 a
second per bot, shared with everything else the bot sends)."""


def share_of(ownership: Ownership, pace: float = PACE) -> float:
    """This process's part of ``pace``: in proportion to the shards it holds now."""
    return pace * len(ownership.held()) / ownership.shard_count


class Pacer:
    """A token bucket: ``await pacer()`` returns when one more request may go.

    With an ``ownership`` the rate is :func:`share_of` ``rate``, computed again at the first
    request after the shards held change. ``clock`` and ``sleep`` are the running loop's time
    and :func:`asyncio.sleep` unless given (a test's own clock paces without waiting)."""

    def __init__(
        self,
        rate: float,
        burst: int = 10,
        *,
        ownership: Ownership | None = None,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.pace = rate
        self.ownership = ownership
        self._held: frozenset[int] | None = None
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = 0.0
        self.lock = asyncio.Lock()
        self._clock = clock
        self._sleep = sleep
        self._follow()

    def _follow(self) -> None:
        if self.ownership is None:
            return
        held = self.ownership.held()
        if held != self._held:
            self._held = held
            # Holding no shard, a process has little to send (its last games' messages):
            # one shard's part, rather than never.
            one = self.pace / self.ownership.shard_count
            self.rate = share_of(self.ownership, self.pace) or one

    async def __call__(self) -> None:
        async with self.lock:
            self._follow()
            clock = self._clock or asyncio.get_running_loop().time
            now = clock()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            if self.tokens < 1:
                await self._sleep((1 - self.tokens) / self.rate)
                self.tokens = 1.0
                self.last = clock()
            self.tokens -= 1
