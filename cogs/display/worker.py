"""The per-game worker: one task per game shows what is out of date, newest state first.

Moves that arrive while it is busy are folded into its next pass, so a burst of moves costs
one table edit, not one per move, and Discord's rate limits slow the pictures, never the
game. A Discord error is logged and the next pass tries again; it never reaches the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.infrastructure.background import stop_tasks, wait_at_most
from cogs.display.channel import ARCHIVED, ChannelPosts, ThreadLocked
from cogs.display.game_messages import GameMessages
from cogs.display.hands import Hands
from cogs.display.parts import LOBBY, NOTICE, SUMMARY, TABLE, THREAD, Part
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
        self.tasks: set[asyncio.Task[None]] = set()
        """Every worker task and channel pass still running, of every game (an abandoned
        game's too, which has left ``games``): what ``stop`` waits for."""
        self.stopped = False

    def wake(self, messages: GameMessages) -> None:
        if self.stopped:
            return  # a commit told late, while the bot closes: its connection is going
        messages.wake.set()
        if messages.task is None or messages.task.done():
            messages.task = self._spawn(self._work(messages), f"display-{messages.game_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.create_task(work, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def stop(self) -> None:
        """Stop showing anything, and return once no worker runs: the bot closes its
        connection to Discord after this, and an edit still under way would fail then."""
        self.stopped = True
        while running := [task for task in self.tasks if not task.done()]:
            await stop_tasks(*running)

    async def _work(self, messages: GameMessages) -> None:
        try:
            await self._loop(messages)
        finally:
            if messages.channel_task is not None:
                messages.channel_task.cancel()

    async def _loop(self, messages: GameMessages) -> None:
        while True:
            # A part waiting for its retry does not hold the others: a new commit wakes the
            # worker at once, and the earliest retry due wakes it too.
            due = self._next_retry(messages)
            if due is None:
                await messages.wake.wait()
            else:
                await wait_at_most(messages.wake, due)
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
                and (messages.channel_task is None or messages.channel_task.done())
            ):
                self.games.pop(messages.game_id, None)
                return

    @staticmethod
    def _next_retry(messages: GameMessages) -> float | None:
        """Seconds until the earliest part waiting for a retry is due; None when none waits."""
        if not messages.retry_at:
            return None
        return max(0.0, min(messages.retry_at.values()) - time.monotonic())

    async def _flush(self, messages: GameMessages) -> None:
        """Show what is dirty, newest state first for each part. The channel's posts (in
        their order) run in a task of their own beside this pass, so a channel edit Discord
        keeps refusing (discord.py retries a 5xx for about 26 seconds) never delays a
        player's DM. A part Discord could not take now (rate limit, outage) stays dirty and
        waits its own backoff (see ``_guard``)."""
        if LOBBY in messages.dirty and LOBBY not in messages.claims and self._due(messages, LOBBY):
            messages.dirty.discard(LOBBY)
            if not await self._guard(messages, LOBBY, self.posts.show_lobby(messages)):
                messages.dirty.add(LOBBY)
        channel = self.channel_of(messages)  # after the lobby: the game may have moved
        if messages.channel_task is None or messages.channel_task.done():
            messages.channel_task = self._spawn(
                self._channel_pass(messages, channel), f"display-{messages.game_id}-channel"
            )
        if await self._hands_lane(messages, channel) and THREAD in messages.dirty:
            messages.wake.set()  # the thread is archived once the hands are shown too

    async def _channel_pass(
        self, messages: GameMessages, channel: discord.PartialMessageable
    ) -> None:
        """One pass over the channel's posts; the worker is woken after it when it tried
        anything (what came meanwhile is shown next; a failure's backoff is counted from
        now), never when nothing was due, so a part waiting for its retry is no hot loop."""
        try:
            tried = await self._channel_lane(messages, channel)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: could not update the channel", messages.game_id)
            await asyncio.sleep(1)
            tried = True
        if tried:
            self.wake(messages)

    async def _channel_lane(
        self, messages: GameMessages, channel: discord.PartialMessageable
    ) -> bool:
        """Summaries, notices, the table, the thread's archiving: in this order, each
        waiting for the one before it. Returns whether it sent anything to Discord."""
        if LOBBY in messages.retry_at:
            return False  # the lobby comes first; it waits for its retry
        tried = False
        while messages.announcements:
            event = messages.announcements[0]
            if not self._due(messages, SUMMARY):
                return tried
            tried = True
            if not await self._guard(
                messages, SUMMARY, self.posts.announce(messages, channel, event)
            ):
                return tried
            messages.announcements.pop(0)
        while messages.notices:
            if not self._due(messages, NOTICE):
                return tried
            tried = True
            if not await self._guard(
                messages, NOTICE, self.pings.tell(messages, channel, messages.notices[0])
            ):
                return tried
            messages.notices.pop(0)
        if TABLE in messages.dirty:
            if not self._due(messages, TABLE):
                return tried
            tried = True
            messages.dirty.discard(TABLE)
            if not await self._guard(messages, TABLE, self.posts.show_table(messages, channel)):
                messages.dirty.add(TABLE)
                return tried
        if (
            messages.dirty == {THREAD}
            and not messages.showing_hands
            and self._due(messages, THREAD)
        ):
            # Last of all, once everything of the game is shown there.
            tried = True
            messages.dirty.discard(THREAD)
            if not await self._guard(messages, THREAD, self.posts.archive(messages)):
                messages.dirty.add(THREAD)
        return tried

    async def _hands_lane(
        self, messages: GameMessages, channel: discord.PartialMessageable
    ) -> bool:
        """Each player's hand DM, independently of the others and of the channel. Returns
        whether it sent anything to Discord."""
        tried = False
        messages.showing_hands = True
        try:
            for key in sorted(k for k in messages.dirty if k.kind == "hand"):
                player = key.player
                if key in messages.claims or not self._due(messages, key):
                    continue
                tried = True
                messages.dirty.discard(key)
                turn = messages.notify == player
                if turn:
                    messages.notify = None
                notify = turn or player in messages.ending
                if not await self._guard(
                    messages, key, self.hands.show(messages, channel, player, notify)
                ):
                    messages.dirty.add(key)
                    if turn and messages.notify is None:
                        messages.notify = player
                elif notify:
                    messages.ending.discard(player)  # (an end noted meanwhile waits its pass)
        finally:
            messages.showing_hands = False
        return tried

    @staticmethod
    def _due(messages: GameMessages, part: Part) -> bool:
        """Whether ``part`` may be tried now (it is not waiting for its backoff)."""
        return messages.retry_at.get(part, 0.0) <= time.monotonic()

    async def _guard(self, messages: GameMessages, part: Part, work: Awaitable[None]) -> bool:
        """Run one update of ``part``; False when it should be tried
        again (rate limited, Discord down), after a backoff of its own that doubles at each
        failure, from 1 to 30 seconds.

        Other refusals (a deleted message, missing permissions) are logged and dropped: a
        retry would fail the same way."""
        if not await self._try(messages, part.kind, work):
            failures = messages.failures[part] = messages.failures.get(part, 0) + 1
            messages.retry_at[part] = time.monotonic() + min(2.0 ** (failures - 1), 30.0)
            return False
        messages.failures.pop(part, None)
        messages.retry_at.pop(part, None)
        return True

    async def _try(self, messages: GameMessages, what: str, work: Awaitable[None]) -> bool:
        try:
            await work
        except ThreadLocked:
            log.info("game %s: its thread is locked; it is shown in the channel", messages.game_id)
            return False  # shown in the lobby's channel at the next pass
        except discord.HTTPException as error:
            if error.code == ARCHIVED and messages.thread_id is not None and what != "thread":
                # A post in the archived thread: reopened, or the game shown in the channel.
                with contextlib.suppress(ThreadLocked, discord.HTTPException):
                    await self.posts.reopen(messages)
                return False
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
