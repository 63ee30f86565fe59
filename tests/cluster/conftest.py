"""A fresh PostgreSQL database per test, on the server named by ``RUMMY_TEST_POSTGRES``."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    base = os.environ["RUMMY_TEST_POSTGRES"]
    parts = urlsplit(base)
    name = f"{parts.path.strip('/') or 'rummy'}_lease_{secrets.token_hex(4)}"
    async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
        await conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
            await conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
