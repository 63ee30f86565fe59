"""The application's one reading of the wall clock.

Sessions stamp actions, deadlines and finished games with it and the league opens seasons
with it; storage records the moments it is handed, and translates a turn's time left
between this clock and the database's (see ``bot.storage.games``), so a process whose
clock is off neither ends a turn early nor late. Keeping the reading in one place outside
storage means every layer agrees on aware UTC times.

The reading can be set off by a fixed amount (``set_offset``): the tests' machine whose
clock is wrong (``CLOCK_OFFSET_SECONDS``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

_offset = timedelta()


def utc_now() -> datetime:
    return datetime.now(UTC) + _offset


def set_offset(offset: timedelta) -> timedelta:
    """This process's clock reads ``offset`` away from the machine's from now on; returns
    the offset it had."""
    global _offset
    before, _offset = _offset, offset
    return before
