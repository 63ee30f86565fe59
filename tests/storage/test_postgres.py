"""PostgreSQL's own behaviour: its migrations under processes starting together, the
driver's errors as the storage's own, and the league's two races under real concurrency
(units on separate pooled connections, which SQLite never has)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from bot.rummy import preset
from bot.storage import Database, MigrationError, PostgresStore, StorageFailure
from bot.storage.migrations import Migration
from bot.storage.pg_connection import PgConnection
from bot.storage.pg_migrate import bundled_pg_migrations, pg_schema_version
from bot.storage.sql_repository import SqlRepository
from bot.values import league
from bot.values.clock import utc_now
from bot.values.league import SeatResult
from bot.values.seats import NewSeat, assign_seats
from tests.postgres import Databases

pytestmark = pytest.mark.postgres_only

G = 10
A, B = 1, 2
NAMES = {A: "Ann", B: "Bob"}
T0 = datetime(2025, 1, 1, tzinfo=UTC)
HOLD = 0.3  # seconds a unit keeps its transaction open after its writes


async def test_processes_starting_together_migrate_once(pg_databases: Databases) -> None:
    url = pg_databases.create()
    try:
        stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(6)))
        for store in stores:
            await store.close()
        async with await psycopg.AsyncConnection.connect(url) as conn:
            cursor = await conn.execute("SELECT version FROM schema_migrations ORDER BY version")
            applied = [row[0] for row in await cursor.fetchall()]
            assert await pg_schema_version(conn) == len(bundled_pg_migrations())
        assert applied == list(range(1, len(bundled_pg_migrations()) + 1))
    finally:
        pg_databases.drop(url)


async def test_a_newer_database_is_refused(pg_url: str) -> None:
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
    with pytest.raises(MigrationError, match="newer than this program"):
        await PostgresStore.open(pg_url)


async def test_a_failing_migration_leaves_the_version_before_it(pg_databases: Databases) -> None:
    url = pg_databases.create()
    try:
        broken = (*bundled_pg_migrations()[:1], Migration(2, "broken", "CREATE TABLE x (; broken"))
        with pytest.raises(StorageFailure, match="SyntaxError"):
            await PostgresStore.open(url, migrations=broken)
        async with await psycopg.AsyncConnection.connect(url) as conn:
            assert await pg_schema_version(conn) == 1
    finally:
        pg_databases.drop(url)


async def test_driver_errors_leave_as_storage_failures(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url)
    try:

        async def read_a_missing_table() -> None:
            async with store.unit() as repo:
                assert isinstance(repo, SqlRepository)
                await repo._conn.execute("SELECT * FROM no_such_table")

        with pytest.raises(StorageFailure, match="UndefinedTable") as caught:
            await read_a_missing_table()
        assert isinstance(caught.value.__cause__, psycopg.errors.UndefinedTable)
        async with store.unit() as repo:  # the pool hands out a clean connection again
            assert await repo.current_season(G) is None
    finally:
        await store.close()


async def test_connections_the_server_dropped_are_replaced_before_use(pg_url: str) -> None:
    """As after a restart of the server: every pooled connection is gone, and the next unit
    still succeeds (the pool checks a connection before lending it)."""
    store = await PostgresStore.open(pg_url)
    try:
        async with store.unit() as repo:
            assert await repo.current_season(G) is None
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as admin:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        async with store.unit() as repo:
            assert await repo.current_season(G) is None
    finally:
        await store.close()


async def _rated_game(store: PostgresStore, channel: int, seats: tuple[int, int] = (A, B)) -> int:
    """A dealt game of A and B (both people, so it is rated) in server G, in seat order."""
    async with store.unit() as repo:
        record = await repo.create_game(
            guild_id=G,
            channel_id=channel,
            host_id=A,
            ruleset=preset("classic").to_json(),
            seed=channel,
            seats=assign_seats([NewSeat.human(u, NAMES[u]) for u in seats]),
            snapshot="{}",
            at=T0,
        )
    return record.id


def _results(winner: int) -> list[SeatResult]:
    """The first seat (``winner`` is A) or the second (B) wins."""
    first = winner == A
    return [
        SeatResult(0, 0 if first else 30, 1 if first else 2, int(first)),
        SeatResult(1, 30 if first else 0, 2 if first else 1, int(not first)),
    ]


async def _finish_together(store: PostgresStore, games: list[tuple[int, int]]) -> None:
    """Finish the games in units that overlap: each holds its transaction open a while
    after its writes, so every other unit runs its reads meanwhile."""

    async def finish(game_id: int, winner: int) -> None:
        async with store.unit() as repo:
            await repo.finish_game(game_id, _results(winner), T0 + timedelta(hours=1))
            await asyncio.sleep(HOLD)

    await asyncio.gather(*(finish(g, w) for g, w in games))


async def test_two_games_of_a_new_server_finishing_together_open_one_season(
    pg_url: str,
) -> None:
    store = await PostgresStore.open(pg_url)
    try:
        first, second = await _rated_game(store, 1), await _rated_game(store, 2)
        await _finish_together(store, [(first, A), (second, B)])
        async with store.unit() as repo:
            season = await repo.current_season(G)
            standings = await repo.standings(G)
            assert season is not None
            assert season.number == 1
            assert {(e.user_id, e.games, e.wins) for e in standings.rows} == {
                (A, 2, 1),
                (B, 2, 1),
            }
    finally:
        await store.close()


async def test_concurrent_rating_updates_lose_nothing(pg_url: str) -> None:
    """Two games of the same two people, seated in opposite orders, finish together while a
    third transaction holds Ann's league row: without the server's lock each game's unit
    holds one row the other waits for (a deadlock, one game's end lost); with it they run
    one after the other and both ratings updates count."""
    store = await PostgresStore.open(pg_url)
    try:
        opening = await _rated_game(store, 1)  # season 1 and both league rows exist
        async with store.unit() as repo:
            await repo.finish_game(opening, _results(A), T0)
        forward = await _rated_game(store, 2)
        backward = await _rated_game(store, 3, seats=(B, A))
        async with await psycopg.AsyncConnection.connect(pg_url) as holder:
            await holder.execute("SELECT 1 FROM league_players WHERE user_id = %s FOR UPDATE", (A,))
            first = asyncio.create_task(_finish(store, forward, _results(A)))
            await asyncio.sleep(HOLD)
            second = asyncio.create_task(_finish(store, backward, _results(B)))
            await asyncio.sleep(HOLD)
            await holder.commit()
        await asyncio.gather(first, second)
        async with store.unit() as repo:
            card = await repo.player_card(G, A)
        # Ann won all three games: the same update three times, in any order.
        ratings: tuple[league.Rating, ...] = (league.NEWCOMER, league.NEWCOMER)
        for _ in range(3):
            ratings = league.rate(ratings, [1, 2])
        assert card is not None
        assert (card.games, card.wins, card.rated_games) == (3, 3, 3)
        assert (card.mu, card.sigma) == pytest.approx((ratings[0].mu, ratings[0].sigma))
    finally:
        await store.close()


async def _finish(store: PostgresStore, game_id: int, results: list[SeatResult]) -> None:
    async with store.unit() as repo:
        await repo.finish_game(game_id, results, T0 + timedelta(hours=1))


async def test_the_adapter_reads_rows_by_name_and_by_index(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url)
    try:
        async with store.transaction() as conn:
            assert isinstance(conn, PgConnection)
            (row,) = await conn.execute_fetchall(
                "SELECT CAST(:a AS INTEGER) AS a, CAST(:b AS TEXT) AS b, '50%:x?' AS c",
                {"a": 1, "b": "two"},
            )
            assert (row["a"], row[1], row["c"]) == (1, "two", "50%:x?")
            assert conn.in_transaction
    finally:
        await store.close()


async def test_both_back_ends_have_the_same_tables_and_columns(pg_url: str, tmp_path: Path) -> None:
    """PostgreSQL's migrations keep up with SQLite's: a table or column SQLite has and
    PostgreSQL lacks (or has otherwise) is a schema the repository's statements cannot
    share. Tables of PostgreSQL's own (the cluster's leases) may come on top."""
    sqlite = await Database.open(tmp_path / "rummy.sqlite3")
    try:
        async with sqlite.transaction() as conn:
            tables = [
                str(row[0])
                for row in await conn.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'"
                )
            ]
            on_sqlite = {
                table: {
                    str(row["name"])
                    for row in await conn.execute_fetchall(f"PRAGMA table_info({table})")
                }
                for table in tables
            }
    finally:
        await sqlite.close()
    async with await psycopg.AsyncConnection.connect(pg_url) as conn:
        cursor = await conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'schema_migrations'"
        )
        on_postgres: dict[str, set[str]] = {}
        for table, column in await cursor.fetchall():
            on_postgres.setdefault(table, set()).add(column)
    assert {table: on_postgres.get(table) for table in on_sqlite} == on_sqlite


async def test_a_running_deadline_keeps_its_time_left_through_the_upgrade(
    pg_databases: Databases,
) -> None:
    """Stored as a moment before migration 7, read as the time it had left after it, the
    database's shard fence (a lease held by another process) notwithstanding."""
    url = pg_databases.create()
    try:
        old = await PostgresStore.open(url, migrations=bundled_pg_migrations()[:6])
        await old.close()
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, seed, status,"
                " created_at, action_count, snapshot, turn_timer) OVERRIDING SYSTEM VALUE"
                " VALUES (1, 5, 11, 7, '{\"name\": \"classic\"}', 3, 'active', now(), 0, '{}', 1)"
            )
            await conn.execute(
                "INSERT INTO turn_deadlines (game_id, turn, player, deadline, reminded)"
                " VALUES (1, 0, '7', now() + interval '45 seconds', 0)"
            )
            await conn.execute(
                "INSERT INTO shard_leases VALUES (0, 1, 'elsewhere:1:x', 1,"
                " now() + interval '1 hour')"
            )
        store = await PostgresStore.open(url)
        try:
            async with store.unit() as repo:
                (record,) = await repo.live_games()
        finally:
            await store.close()
        async with await psycopg.AsyncConnection.connect(url) as conn:
            cursor = await conn.execute(
                "SELECT tgenabled FROM pg_trigger WHERE tgname = 'turn_deadlines_fenced'"
            )
            assert await cursor.fetchall() == [("O",)]  # the fence is back on
        assert record.deadline is not None
        assert (record.deadline.turn, record.deadline.player) == (0, "7")
        left = record.deadline.at - utc_now()
        assert timedelta(seconds=15) < left <= timedelta(seconds=45)
    finally:
        pg_databases.drop(url)
