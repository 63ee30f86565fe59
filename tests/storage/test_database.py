"""Transactions on the shared connection never interleave, and a failure rolls back."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Database


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
