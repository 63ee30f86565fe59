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
        boards: dict[int, GameMessages],
    ) -> None:
        self.channel_of = channel_of
        self.posts = posts
        self.pings = pings
        self.hands = hands
        self.boards = boards
        """The games being shown; a game leaves once everything of it is shown."""

    def wake(self, board: GameMessages) -> None:
        board.wake.set()
        if board.task is None or board.task.done():
            board.task = asyncio.create_task(self._work(board), name=f"board-{board.game_id}")

    async def _work(self, board: GameMessages) -> None:
        while True:
            await board.wake.wait()
            board.wake.clear()
            try:
                await self._flush(board)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: could not update Discord", board.game_id)
                await asyncio.sleep(1)
            if (
                board.done
                and not board.dirty
                and not board.announcements
                and not board.notices
                and not board.wake.is_set()
            ):
                self.boards.pop(board.game_id, None)
                return

    async def _flush(self, board: GameMessages) -> None:
        """Show what is dirty, newest state first for each part; a part Discord could not
        take now (rate limit, outage) stays dirty and the pass is tried again later."""
        channel = self.channel_of(board)
        retry = False
        if "lobby" in board.dirty and "lobby" not in board.claims:
            board.dirty.discard("lobby")
            if not await self._guard(board, "lobby", self.posts.show_lobby(board, channel)):
                board.dirty.add("lobby")
                retry = True
        while board.announcements and not retry:
            event = board.announcements[0]
            if await self._guard(board, "summary", self.posts.announce(board, channel, event)):
                board.announcements.pop(0)
            else:
                retry = True
        while board.notices and not retry:
            if await self._guard(
                board, "notice", self.pings.tell(board, channel, board.notices[0])
            ):
                board.notices.pop(0)
            else:
                retry = True
        if "table" in board.dirty and not retry:
            board.dirty.discard("table")
            if not await self._guard(board, "table", self.posts.show_table(board, channel)):
                board.dirty.add("table")
                retry = True
        for key in sorted(k for k in board.dirty if k.startswith("hand:")):
            player = key.removeprefix("hand:")
            if key in board.claims or retry:
                continue
            board.dirty.discard(key)
            notify = board.notify == player
            if notify:
                board.notify = None
            if not await self._guard(
                board, "hand", self.hands.show(board, channel, player, notify)
            ):
                board.dirty.add(key)
                if notify and board.notify is None:
                    board.notify = player
                retry = True
        if retry:
            board.backoff = min(max(board.backoff * 2, 1.0), 30.0)
            await asyncio.sleep(board.backoff)
            board.wake.set()
        else:
            board.backoff = 0.0

    async def _guard(self, board: GameMessages, what: str, work: Awaitable[None]) -> bool:
        """Run one update; False when it should be tried again (rate limited, Discord down).

        Other refusals (a deleted message, missing permissions) are logged and dropped: a
        retry would fail the same way."""
        try:
            await work
        except discord.HTTPException as error:
            again = error.status == 429 or error.status >= 500
            log.warning(
                "game %s: Discord refused the %s update%s: %s",
                board.game_id,
                what,
                " (will retry)" if again else "",
                error,
            )
            return not again
        except (TimeoutError, OSError) as error:
            log.warning(
                "game %s: could not reach Discord for the %s update: %s", board.game_id, what, error
            )
            return False
        return True
