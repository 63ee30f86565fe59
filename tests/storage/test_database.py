"""Transactions on the shared connection never interleave, and a failure rolls back."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.storage import Database, DuplicateLiveGame, GameChanged, GameStatus, StorageFailure
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats


@pytest.mark.sqlite_only  # PostgreSQL's units run side by side, each on its own connection
async def test_concurrent_transactions_run_one_after_the_other(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE counter (n INTEGER NOT NULL)")
        await conn.execute("INSERT INTO counter VALUES (0)")
    inside = 0
    most_inside = 0

    async def increment() -> None:
        nonlocal inside, most_inside
        async with db.transaction() as conn:
            inside += 1
            most_inside = max(most_inside, inside)
            rows = await conn.execute_fetchall("SELECT n FROM counter")
            value = next(iter(rows))[0]
            await asyncio.sleep(0)  # give every other coroutine the chance to interleave
            await conn.execute("UPDATE counter SET n = ?", (value + 1,))
            inside -= 1

    await asyncio.gather(*(increment() for _ in range(20)))
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT n FROM counter")
    assert next(iter(rows))[0] == 20
    assert most_inside == 1


async def test_an_exception_rolls_the_transaction_back(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE things (x INTEGER)")

    async def insert_then_fail() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO things VALUES (1)")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await insert_then_fail()
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT count(*) FROM things")
        assert next(iter(rows))[0] == 0
        assert conn.in_transaction


async def test_a_unit_cancelled_at_any_point_leaves_the_connection_usable(db: Database) -> None:
    """A cancel lands wherever the task is: during BEGIN, a statement or COMMIT. Each time the
    insert is either all there or not at all, and the next unit starts cleanly (a cancel
    during BEGIN used to leave the transaction open for ever)."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE things (x INTEGER)")

    async def insert(x: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO things VALUES (?)", (x,))
            await conn.execute("INSERT INTO things VALUES (?)", (-x,))

    cancelled = 0
    for steps in range(40):
        task = asyncio.create_task(insert(steps + 1))
        for _ in range(steps):
            await asyncio.sleep(0)
        cancelled += task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        async with db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "SELECT x FROM things WHERE abs(x) = ?", (steps + 1,)
            )
        assert sorted(r[0] for r in rows) in ([], [-(steps + 1), steps + 1])
    assert cancelled > 10  # the cancels did land inside the units


async def test_a_second_live_game_in_a_channel_is_the_storage_own_error(db: Database) -> None:
    seats = assign_seats([NewSeat.human(1, "Ann")])
    common = {"guild_id": 1, "channel_id": 5, "host_id": 1, "seed": 1, "seats": seats}
    async with db.unit() as repo:
        lobby = await repo.create_game(
            **common,  # type: ignore[arg-type]
            ruleset=preset("classic").to_json(),
            snapshot=None,
            at=utc_now(),
            status=GameStatus.LOBBY,
        )
    for status, snapshot in ((GameStatus.LOBBY, None), (GameStatus.ACTIVE, "{}")):
        with pytest.raises(DuplicateLiveGame) as caught:
            async with db.unit() as repo:
                await repo.create_game(
                    **common,  # type: ignore[arg-type]
                    ruleset=preset("classic").to_json(),
                    snapshot=snapshot,
                    at=utc_now(),
                    status=status,
                )
        assert caught.value.channel_id == 5
    # Another integrity failure is not read as a busy channel.
    with pytest.raises(StorageFailure, match=r"UNIQUE constraint failed: seats|seats_pkey"):
        async with db.unit() as repo:
            await repo.update_lobby(lobby.id, 1, [*seats, *seats])
    async with db.unit() as repo:
        await repo.abandon_game(lobby.id, utc_now())
        again = await repo.create_game(
            **common,  # type: ignore[arg-type]
            ruleset=preset("classic").to_json(),
            snapshot=None,
            at=utc_now(),
            status=GameStatus.LOBBY,
        )
        assert again.id > lobby.id


async def test_a_write_on_a_changed_game_is_refused(db: Database) -> None:
    seats = assign_seats([NewSeat.human(1, "Ann"), NewSeat.human(2, "Bob")])
    async with db.unit() as repo:
        record = await repo.create_game(
            guild_id=1,
            channel_id=5,
            host_id=1,
            ruleset=preset("classic").to_json(),
            seed=1,
            seats=seats,
            snapshot="{}",
            at=utc_now(),
        )
        await repo.append_action(record.id, 1, {"type": "draw"}, "{}", utc_now())
    for seq in (1, 3):  # a duplicate and a gap
        with pytest.raises(GameChanged):
            async with db.unit() as repo:
                await repo.append_action(record.id, seq, {"type": "draw"}, "{}", utc_now())
    with pytest.raises(GameChanged):
        async with db.unit() as repo:
            await repo.start_game(record.id, 1, "{}")  # not a lobby
    async with db.unit() as repo:
        assert await repo.abandon_game(record.id, utc_now()) is GameStatus.ABANDONED
    with pytest.raises(GameChanged):
        async with db.unit() as repo:
            await repo.append_action(record.id, 2, {"type": "draw"}, "{}", utc_now())


# An import of the driver, or a use of one of its names (``sqlite3.IntegrityError``).
DRIVER = re.compile(
    r"^\s*(import|from)\s+(aiosqlite|sqlite3)\b|\b(aiosqlite|sqlite3)\.[A-Za-z_]", re.MULTILINE
)


def test_no_driver_name_outside_storage() -> None:
    """The storage seam: nothing but bot/storage names the database driver."""
    root = Path(__file__).resolve().parents[2]
    offenders = [
        str(path.relative_to(root))
        for folder in ("bot", "cogs", "rendering")
        for path in (root / folder).rglob("*.py")
        if "storage" not in path.relative_to(root).parts
        and DRIVER.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
