"""Listening on the channels of the shards a process holds, for as long as it runs.

Forwarded clicks and erasure requests both reach a shard's holder as a NOTIFY on the
shard's channel (``rummy_shard_<n>``). Each needs the same care: LISTEN on the shards held
and on no others as they change, catch up on what came while nobody listened (at start,
after a takeover or a reconnect), and open the connection again when it drops. This loop
gives that care once; what a notice means is its caller's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage.forwarded import ShardListener
from bot.values.shards import Ownership

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.5
"""Seconds between looks at the shards held (the LISTENs follow them)."""
RECONNECT_AFTER = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses before reconnecting a dropped listening connection, then 5 s each time."""


@dataclass(frozen=True)
class ShardChannels:
    """What one kind of notice asks of the loop.

    ``gained``: shards newly followed (their waiting work is to be caught up on);
    ``heard``: one notice's payload, returning True to end the window early;
    ``after``: once per window of ``FOLLOW_EVERY`` seconds, with the shards followed.
    """

    what: str
    open_listener: Callable[[], ShardListener]
    gained: Callable[[frozenset[int]], Awaitable[None]]
    heard: Callable[[str], Awaitable[bool]]
    after: Callable[[frozenset[int]], Awaitable[None]]


async def listen_on_held_shards(
    channels: ShardChannels, ownership: Ownership, listening: asyncio.Event
) -> None:
    """Run until cancelled; ``listening`` is set while the connection follows the shards."""
    failures = 0
    while True:
        listener = channels.open_listener()
        try:
            await listener.connect()
            followed: frozenset[int] = frozenset()
            while True:
                held = ownership.held()
                await listener.follow(held)
                if held - followed:
                    await channels.gained(held - followed)
                followed = held
                listening.set()
                failures = 0
                # Closed at once even when a handler fails: the generator holds the
                # connection's lock while it is open.
                async with contextlib.aclosing(listener.payloads(FOLLOW_EVERY)) as notes:
                    async for payload in notes:
                        if await channels.heard(payload):
                            break
                await channels.after(held)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            listening.clear()
            pause = RECONNECT_AFTER[min(failures, len(RECONNECT_AFTER) - 1)]
            failures += 1
            log.warning("%s: listening failed (%s); again in %s s", channels.what, error, pause)
            await asyncio.sleep(pause)
        finally:
            listening.clear()
            await listener.close()
