"""A throwaway PostgreSQL database beside the one a URL names, for tests and benchmarks
that need a fresh schema: created empty, dropped (with any connection left) at the end."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg


@asynccontextmanager
async def scratch_database(url: str, label: str = "scratch") -> AsyncIterator[str]:
    """The URL of a new empty database on ``url``'s server (its role must be allowed to
    create databases), named after ``url``'s database, ``label`` and a random part."""
    parts = urlsplit(url)
    name = f"{parts.path.strip('/') or 'postgres'}_{label}_{secrets.token_hex(4)}"
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(f'CREATE DATABASE "{name}"'.encode())
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)'.encode())
