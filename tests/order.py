"""The order the suite's tests are handed out in: the longest first.

pytest-xdist gives each worker the next test in collection order as it frees up; a test
of tens of seconds collected late leaves one worker running it alone at the end while the
others wait. Started first, the long tests run beside the many short ones instead.
"""

from __future__ import annotations

import pytest

LONGEST = (
    "tests/engine/test_properties.py",
    "tests/cogs/test_present.py",
    "tests/engine/test_computer.py",
    "tests/app/test_launcher_discord.py",
    "tests/app/test_service.py",
    "tests/discord/test_process",
    "tests/app/test_launcher.py",
    "tests/sessions/test_healing.py",
)
"""Where the tests that take longest live (bulk games, property runs, processes started
and waited for), as path prefixes from the repository's root, longest first. A test
elsewhere keeps its place after them."""


def rank(item: pytest.Item) -> int:
    """The index of the first prefix of :data:`LONGEST` that names ``item``'s file, or
    the number of prefixes for a test not named there."""
    path = item.nodeid.split("::", 1)[0]
    return next((i for i, prefix in enumerate(LONGEST) if path.startswith(prefix)), len(LONGEST))


def longest_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` in place: the longest tests' files first, each group in its own
    collection order (a stable sort)."""
    items.sort(key=rank)
