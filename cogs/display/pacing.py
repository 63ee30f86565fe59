"""The pace of the requests the workers send under Discord's global rate limit."""

from __future__ import annotations

import asyncio

PACE = 45.0
"""Requests a second the workers send under Discord's global limit (50 a second per bot,
shared with everything else the bot sends)."""


class Pacer:
    """A token bucket: ``await pacer()`` returns when one more request may go."""

    def __init__(self, rate: float, burst: int = 10) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = 0.0
        self.lock = asyncio.Lock()

    async def __call__(self) -> None:
        async with self.lock:
            loop = asyncio.get_running_loop()
            now = loop.time()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                self.tokens = 1.0
                self.last = loop.time()
            self.tokens -= 1
