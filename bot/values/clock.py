"""The application's one reading of the wall clock.

Sessions stamp actions, deadlines and finished games with it and the league opens seasons
with it; storage only records the moments it is handed. Keeping the reading in one place
outside storage means every layer agrees on aware UTC times, and a back end never decides
what "now" is.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)
