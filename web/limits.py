"""How fast one page may send: a token bucket per connection."""

from __future__ import annotations

from dataclasses import dataclass, field

RATE = 5.0
"""Messages a second a page may send over time (a person clicks far slower)."""
BURST = 10.0
"""Messages a page may send at once."""
STRIKES = 20
"""Messages over the limit after which the connection is closed."""


@dataclass
class Bucket:
    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    last: float | None = None
    strikes: int = field(default=0)

    def take(self, now: float) -> bool:
        """Whether a message sent at ``now`` is within the limit (it spends a token)."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Whether the page kept sending past the limit: it is closed."""
        return self.strikes >= STRIKES
