"""Sliding one-second windows for the global limit and optional per-route buckets."""

from __future__ import annotations

import time
from collections import deque


class Window:
    """At most `limit` events in any `per`-second window."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit = limit
        self.per = per
        self._times: deque[float] = deque()

    def _trim(self, now: float) -> None:
        times = self._times
        while times and times[0] <= now - self.per:
            times.popleft()

    def retry_after(self, now: float | None = None) -> float:
        """0 when an event may happen now, else the seconds until one may."""
        now = time.monotonic() if now is None else now
        self._trim(now)
        if len(self._times) < self.limit:
            return 0.0
        if not self._times:  # a limit of 0: nothing ever passes
            return self.per
        return max(self._times[0] + self.per - now, 0.001)

    def hit(self, now: float | None = None) -> None:
        self._times.append(time.monotonic() if now is None else now)

    def remaining(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        self._trim(now)
        return max(self.limit - len(self._times), 0)

    def reset_after(self, now: float | None = None) -> float:
        """Seconds until the oldest event in the window leaves it (the bucket refills)."""
        now = time.monotonic() if now is None else now
        self._trim(now)
        if not self._times:
            return self.per
        return max(self._times[0] + self.per - now, 0.001)
