"""The per-game worker: one task per game shows what is out of date, newest state first.

Moves that arrive while it is busy are folded into its next pass, so a burst of moves costs
one table edit, not one per move, and Discord's rate limits slow the pictures, never the
game. A Discord error is logged and the next pass tries again; it never reaches the session.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.display.channel import ChannelPosts
from cogs.display.game_messages import GameMessages
from cogs.display.hands import Hands
from cogs.display.pings import Pings

log = logging.getLogger(__name__)


class Worker:
    def __init__(
        self,
        channel_of: Callable[[GameMessages], discord.PartialMessageable],
        posts: ChannelPosts,
        pings: Pings,
        hands: Hands,
        games: dict[int, GameMessages],
    ) -> None:
        self.channel_of = channel_of
        self.posts = posts
        self.pings = pings
        self.hands = hands
        self.games = games
        """The games being shown; a game leaves once everything of it is shown."""

    def wake(self, messages: GameMessages) -> None:
        messages.wake.set()
        if messages.task is None or messages.task.done():
            messages.task = asyncio.create_task(
                self._work(messages), name=f"display-{messages.game_id}"
            )

    async def _work(self, messages: GameMessages) -> None:
        while True:
            await messages.wake.wait()
            messages.wake.clear()
            try:
                await self._flush(messages)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: could not update Discord", messages.game_id)
                await asyncio.sleep(1)
            if (
                messages.done
                and not messages.dirty
                and not messages.announcements
                and not messages.notices
                and not messages.wake.is_set()
            ):
                self.games.pop(messages.game_id, None)
                return

    async def _flush(self, messages: GameMessages) -> None:
        """Show what is dirty, newest state first for each part; a part Discord could not
        take now (rate limit, outage) stays dirty and the pass is tried again later."""
        retry = False
        if "lobby" in messages.dirty and "lobby" not in messages.claims:
            messages.dirty.discard("lobby")
            if not await self._guard(messages, "lobby", self.posts.show_lobby(messages)):
                messages.dirty.add("lobby")
                retry = True
        channel = self.channel_of(messages)  # after the lobby: the game may have moved
        while messages.announcements and not retry:
            event = messages.announcements[0]
            if await self._guard(
                messages, "summary", self.posts.announce(messages, channel, event)
            ):
                messages.announcements.pop(0)
            else:
                retry = True
        while messages.notices and not retry:
            if await self._guard(
                messages, "notice", self.pings.tell(messages, channel, messages.notices[0])
            ):
                messages.notices.pop(0)
            else:
                retry = True
        if "table" in messages.dirty and not retry:
            messages.dirty.discard("table")
            if not await self._guard(messages, "table", self.posts.show_table(messages, channel)):
                messages.dirty.add("table")
                retry = True
        for key in sorted(k for k in messages.dirty if k.startswith("hand:")):
            player = key.removeprefix("hand:")
            if key in messages.claims or retry:
                continue
            messages.dirty.discard(key)
            notify = messages.notify == player
            if notify:
                messages.notify = None
            if not await self._guard(
                messages, "hand", self.hands.show(messages, channel, player, notify)
            ):
                messages.dirty.add(key)
                if notify and messages.notify is None:
                    messages.notify = player
                retry = True
        if messages.dirty == {"thread"} and not (
            retry or messages.announcements or messages.notices
        ):
            # Last of all, once everything of the game is shown there.
            messages.dirty.discard("thread")
            if not await self._guard(messages, "thread", self.posts.archive(messages)):
                messages.dirty.add("thread")
                retry = True
        if retry:
            messages.backoff = min(max(messages.backoff * 2, 1.0), 30.0)
            await asyncio.sleep(messages.backoff)
            messages.wake.set()
        else:
            messages.backoff = 0.0

    async def _guard(self, messages: GameMessages, what: str, work: Awaitable[None]) -> bool:
        """Run one update; False when it should be tried again (rate limited, Discord down).

        Other refusals (a deleted message, missing permissions) are logged and dropped: a
        retry would fail the same way."""
        try:
            await work
        except discord.HTTPException as error:
            again = error.status == 429 or error.status >= 500
            log.warning(
                "game %s: Discord refused the %s update%s: %s",
                messages.game_id,
                what,
                " (will retry)" if again else "",
                error,
            )
            return not again
        except (TimeoutError, OSError) as error:
            log.warning(
                "game %s: could not reach Discord for the %s update: %s",
                messages.game_id,
                what,
                error,
            )
            return False
        return True
