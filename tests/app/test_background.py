"""Background loops pause and stop without losing a cancel: a loop stopped in the very turn
its event is set ends, and a cancel of whoever is stopping a loop reaches them. Real tasks
on a real event loop; the races are arranged, not waited for."""

from __future__ import annotations

import asyncio

import pytest

from bot.infrastructure.background import stop_tasks, wait_at_most
from tests.waiting import PATIENCE


async def test_a_pause_ends_when_its_event_is_set_or_its_time_is_up() -> None:
    event = asyncio.Event()
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert not await wait_at_most(event, 0.05)
    assert loop.time() - started >= 0.05
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await wait_at_most(event, 10)
    assert await wait_at_most(event, -1)  # already set: no time needed
    event.clear()
    assert not await wait_at_most(event, 0)


async def test_a_loop_stopped_as_its_event_is_set_stops() -> None:
    """The event set and the loop cancelled in one turn: the woken wait must not win over
    the cancel (it does with ``asyncio.wait_for`` on Python 3.11)."""
    wake = asyncio.Event()
    rounds = 0

    async def loop() -> None:
        nonlocal rounds
        while True:
            rounds += 1
            await wait_at_most(wake, 60)
            wake.clear()

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)  # the loop is pausing
    assert rounds == 1
    for _ in range(20):  # and again, each time in another round
        wake.set()
        stopping = asyncio.create_task(stop_tasks(task))
        done, _ = await asyncio.wait({stopping}, timeout=PATIENCE)
        assert stopping in done
        assert task.cancelled()
        task = asyncio.create_task(loop())
        await asyncio.sleep(0)
    await stop_tasks(task)


async def test_a_cancel_of_the_one_stopping_reaches_them() -> None:
    """A task that takes its time to end (it cleans up after its cancel): the caller's own
    deadline still applies to the caller."""
    cleaned = asyncio.Event()

    async def slow_to_end() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.2)
            cleaned.set()

    task = asyncio.create_task(slow_to_end())
    await asyncio.sleep(0)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await stop_tasks(task)
    assert not cleaned.is_set()
    await asyncio.wait({task})
    assert cleaned.is_set()  # the caller's cancel did not cut the task's clean-up short


async def test_what_a_stopped_task_raises_besides_its_cancel_is_raised() -> None:
    async def failing_on_cancel() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise RuntimeError("could not close") from None

    quiet = asyncio.create_task(asyncio.sleep(60))
    failing = asyncio.create_task(failing_on_cancel())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="could not close"):
        await stop_tasks(None, quiet, failing)
    assert quiet.cancelled()
