"""Background loops: how they pause and how they are stopped, without losing a cancel.

Every loop here (lease renewals, the listeners, the Discord worker, housekeeping) is
stopped by cancelling its task and waiting for it. Two idioms lose that cancel on
Python 3.11, and a lost cancel means a loop that runs on while whoever stopped it waits
for ever (a suite run hung on a lease keeper's ``stop`` this way):

- ``asyncio.wait_for(event.wait(), seconds)`` returns the woken wait when the cancel
  arrives in the very turn of the loop in which the event was set, and drops the cancel.
  :func:`wait_at_most` pauses under ``asyncio.timeout`` instead: the cancel is delivered
  into the wait itself, and a cancel that meets the timeout still wins.
- ``with suppress(CancelledError): await task`` also swallows a cancel aimed at the one
  who is stopping, who then goes on as if nobody had asked (and passes it on into the
  task's clean-up). :func:`stop_tasks` waits without either.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def wait_at_most(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed; whether it was set."""
    try:
        async with asyncio.timeout(max(seconds, 0.0)):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def stop_tasks(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel every task given, then wait until each has ended. Their cancellation is
    expected and not raised; anything else they raise is; a cancel of the caller while it
    waits reaches the caller and leaves the tasks' clean-up alone."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        await asyncio.wait({task})  # a cancel of the caller is raised here, the task untouched
        if not task.cancelled():
            task.result()
