"""discord.py imports the deprecated ``audioop`` module; load it once with that warning silenced,
so ``-W error`` still catches every warning of our own code.

The storage, session and league tests run once per back end: ``db_path`` is a real SQLite
file in the test's own folder, or (``[postgresql]``) the URL of a fresh PostgreSQL database
of the server named by ``RUMMY_TEST_POSTGRES`` (see :mod:`tests.postgres`). Tests about
SQLite itself are marked ``sqlite_only``; other folders run on SQLite alone.
"""

import asyncio
import os
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.storage import Database, PostgresStore, open_store
from tests.order import longest_first
from tests.postgres import ENV, SKIPPED, Databases, server_url

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401

# The tests that run on both back ends: every storage and session test (the league's among them).
BOTH = ("tests/storage/", "tests/sessions/")

AnyStore = Database | PostgresStore


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a test about SQLite itself")
    config.addinivalue_line("markers", "postgres_only: a test about PostgreSQL itself")
    config.addinivalue_line("markers", "both_backends: a test elsewhere that runs on both")
    if os.environ.get("CI") == "true" and server_url() is None:
        raise pytest.UsageError(f"{ENV} is not set, and CI never skips the PostgreSQL part")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("postgres_only"):
        metafunc.parametrize("backend", ["postgresql"])
        return
    backends = ["sqlite"]
    path = Path(metafunc.definition.path).as_posix()
    both = any(f"/{part}" in path for part in BOTH)
    both = both or metafunc.definition.get_closest_marker("both_backends") is not None
    if server_url() and both and not metafunc.definition.get_closest_marker("sqlite_only"):
        backends.append("postgresql")
    metafunc.parametrize("backend", backends)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a PostgreSQL server its own tests are not collected at all (never skipped);
    the longest tests are handed out first (see :mod:`tests.order`)."""
    longest_first(items)
    if server_url() is not None:
        return
    dropped = [item for item in items if item.get_closest_marker("postgres_only")]
    if dropped:
        items[:] = [item for item in items if not item.get_closest_marker("postgres_only")]
        config.hook.pytest_deselected(items=dropped)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's last line, after the counts, says the PostgreSQL part did not run."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if server_url() is None and reporter is not None and not hasattr(config, "workerinput"):
        reporter.write_line(SKIPPED)


@pytest.fixture(scope="session")
def pg_databases(worker_id: str) -> Databases:
    url = server_url()
    assert url is not None
    return Databases(url, worker_id)


async def _migrate(url: str) -> None:
    await (await PostgresStore.open(url)).close()


@pytest.fixture(scope="session")
def pg_template(pg_databases: Databases) -> Iterator[str]:
    """A migrated database of this worker, copied for each test."""
    url = pg_databases.create()
    asyncio.run(_migrate(url))
    yield url.rsplit("/", 1)[1]
    pg_databases.drop(url)


@pytest.fixture
def pg_url(pg_databases: Databases, pg_template: str) -> Iterator[str]:
    """A fresh migrated PostgreSQL database of the test's own."""
    url = pg_databases.create(template=pg_template)
    yield url
    pg_databases.drop(url)


@pytest.fixture
def db_path(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """Where the test's store lives: a SQLite file path, or a PostgreSQL URL."""
    if backend == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        return url
    return tmp_path / "data" / "rummy.sqlite3"


@pytest.fixture
async def db(db_path: Path | str) -> AsyncIterator[AnyStore]:
    store = await open_store(db_path)
    assert isinstance(store, (Database, PostgresStore))
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def manager(db_path: Path | str) -> AsyncIterator[SessionManager]:
    sessions = await SessionManager.open(db_path)
    try:
        yield sessions
    finally:
        await sessions.close()
