"""A fresh PostgreSQL database per test, on the server named by ``RUMMY_TEST_POSTGRES``."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from bot.storage.scratch import scratch_database


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with scratch_database(os.environ["RUMMY_TEST_POSTGRES"], "lease") as url:
        yield url
