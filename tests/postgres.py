"""PostgreSQL for the tests: the server named by ``RUMMY_TEST_POSTGRES`` (a URL of a
database the tests may create databases in), and a fresh database per test.

Each test gets a database of its own, copied (``CREATE DATABASE … TEMPLATE``) from one
migrated once per worker process: the copy is a file copy on the server, faster than
migrating anew, and no test sees another's rows or ids. Without the variable no test
runs on PostgreSQL (the summary says so); CI must set it (see ``tests/conftest.py``).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

ENV = "RUMMY_TEST_POSTGRES"
SKIPPED = f"PostgreSQL part skipped: {ENV} is not set"


def server_url() -> str | None:
    return os.environ.get(ENV) or None


def with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead (options and query kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _base_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/") or "rummy"


class Databases:
    """Creates and drops this worker's databases on the test server."""

    def __init__(self, url: str, worker: str) -> None:
        self.url = url
        self.prefix = f"{_base_name(url)}_t{worker}_{os.getpid()}"
        self._numbers = itertools.count(1)
        self.template: str | None = None

    def _admin(self, statement: sql.Composed) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(statement)

    def create(self, template: str | None = None) -> str:
        """A new empty (or ``template``'s copy) database; returns its URL."""
        name = f"{self.prefix}_{next(self._numbers)}"
        statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template or "template1")
        )
        self._admin(statement)
        return with_database(self.url, name)

    def drop(self, url: str) -> None:
        name = _base_name(url)
        self._admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def under_throwaway_server(script: str, args: Sequence[str]) -> int:
    """Run ``script`` with ``args`` again inside a throwaway PostgreSQL server started by
    pg_virtualenv (fsync on, as for figures worth keeping), ``ENV`` naming it: for benchmarks
    run without a server of their own. 2 when pg_virtualenv is missing."""
    if shutil.which("pg_virtualenv") is None:
        print(f"set {ENV} to a PostgreSQL URL, or install pg_virtualenv (postgresql-common)")
        return 2
    url = "postgresql://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/$PGDATABASE"
    command = [sys.executable, script, *args]
    print("PostgreSQL: a throwaway server started by pg_virtualenv (fsync on)", flush=True)
    return subprocess.call(
        [
            "pg_virtualenv",
            "-t",
            "-o",
            "fsync=on",
            "sh",
            "-c",
            f'{ENV}="{url}" exec "$@"',
            "sh",
            *command,
        ]
    )


def server_or_throwaway(script: str, given: str | None) -> str:
    """The PostgreSQL URL a benchmark was given (``--postgres``) or ``ENV`` names; without
    either, ``script`` runs again under :func:`under_throwaway_server` and this process
    exits with its status."""
    url = given or os.environ.get(ENV)
    if not url:
        sys.exit(under_throwaway_server(script, sys.argv[1:]))
    return url
