"""Clicks that reach the wrong process are handed to the owner of their game.

Discord sends every interaction from a DM to shard 0, so a click on a hand DM reaches the
process holding shard 0 even when another process owns the game (its server's shard). That
process (the receiver) must not answer it: Discord accepts one answer per interaction, and
only the owner holds the game. Instead:

1. The receiver finds the game's server, its shard and the shard's live lease. No live lease:
   the owner is gone, and the click is answered at once as not answered (it is never stored,
   so an owner that comes back cannot apply it later).
2. Otherwise it stores the raw payload in ``forwarded_clicks`` and NOTIFYs the shard's
   channel with the interaction's id.
3. The owner LISTENs on the channels of the shards it holds, claims the row (one DELETE: one
   process wins), and feeds the payload to its own discord.py as the gateway would have, so
   the move is applied by the owner's session and answered through the interaction's token.
   A click already ``OWNER_CUTOFF`` seconds old is left alone: the answer could come too late.
4. At ``GIVE_UP_AFTER`` seconds of age (from the interaction's snowflake: Discord allows 3 s
   for the first answer) the receiver claims the row back if it is still there and says that
   the game's process is not answering. Whoever deletes the row decides: the click is applied
   by the owner, or answered as failed by the receiver, never both and never later.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot.cluster.intake import Intake, Payload
from bot.cluster.listening import ShardChannels, listen_on_held_shards
from bot.i18n import catalog_locale, t
from bot.infrastructure.background import stop_tasks
from bot.storage.forwarded import ForwardedClicks
from bot.storage.postgres import PostgresStore
from bot.values.shards import Ownership, shard_of

log = logging.getLogger(__name__)

OWNER_CUTOFF = 2.4
"""Seconds of age after which the owner no longer claims a click (it leaves it to the
receiver, which answers it as failed)."""
GIVE_UP_AFTER = 2.5
"""Seconds of age at which the receiver takes an unclaimed click back and answers it."""
PRUNE_AFTER = 60.0
"""Rows older than this are deleted by the owners (their receiver died before giving up)."""
SILENT_KEY = "cluster.owner_silent"


def age_of(interaction_id: int, now: float | None = None) -> float:
    """Seconds since Discord created the interaction (its id is a snowflake)."""
    created = ((interaction_id >> 22) + discord.utils.DISCORD_EPOCH) / 1000
    return (time.time() if now is None else now) - created


class Forwarder:
    """The receiver's and the owner's sides of forwarding, for one process.

    ``is_local`` tells whether a game lives in this process's memory; the game a custom id
    names is the intake's ``game_of`` (the cogs know the formats).
    """

    def __init__(
        self,
        intake: Intake,
        clicks: ForwardedClicks,
        ownership: Ownership,
        *,
        is_local: Callable[[int], bool],
    ) -> None:
        self.intake = intake
        self.clicks = clicks
        self.ownership = ownership
        self.is_local = is_local
        self.forwarded = 0
        """Clicks this process handed on."""
        self.applied = 0
        """Forwarded clicks this process claimed and dispatched."""
        self.failed = 0
        """Clicks this process answered as not answered (owner gone, or silent)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._listening: asyncio.Task[None] | None = None
        self._last_prune = 0.0
        self.listening = asyncio.Event()
        """Set while the listening connection follows the shards held."""

    # --- the receiver ---------------------------------------------------------------------

    def takes(self, payload: Payload) -> bool:
        if payload.get("type") != 3:
            return False
        data = payload.get("data")
        custom_id = data.get("custom_id") if isinstance(data, dict) else None
        game_id = self.intake.game_of(custom_id) if isinstance(custom_id, str) else None
        if game_id is None or self.is_local(game_id):
            return False
        self._spawn(self._route(payload, game_id))
        return True

    async def _route(self, payload: Payload, game_id: int) -> None:
        interaction_id = int(payload["id"])
        stored = False
        try:
            count = self.ownership.shard_count
            place = await self.clicks.place_of(game_id, count)
            shard = None if place is None else shard_of(place.guild_id, count)
            if (
                place is None
                or shard is None
                or shard in self.ownership.held()
                or self.is_local(game_id)
            ):
                # Over, unknown, or ours after all: answered here as any click is.
                self.intake.dispatch(payload)
                return
            if place.holder is None:
                log.warning(
                    "click %s: game %s's shard %s has no live owner", interaction_id, game_id, shard
                )
                await self._answer_silent(payload)
                return
            stored = await self.clicks.forward(interaction_id, shard, payload)
            if not stored:
                return  # forwarded before: the first delivery is the one that counts
            self.forwarded += 1
            await asyncio.sleep(max(0.0, GIVE_UP_AFTER - age_of(interaction_id)))
            if await self.clicks.claim(interaction_id) is not None:
                log.warning("click %s: shard %s's owner did not claim it", interaction_id, shard)
                await self._answer_silent(payload)
        except Exception:
            log.exception("click %s on game %s could not be forwarded", interaction_id, game_id)
            if not stored:
                await self._answer_silent(payload)

    async def _answer_silent(self, payload: Payload) -> None:
        """The click's game is not answering here: said to the one who clicked, privately."""
        self.failed += 1
        interaction = self.intake.interaction(payload)
        text = t(SILENT_KEY, catalog_locale(interaction.locale))
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("click %s: the failure could not be told (%s)", payload.get("id"), error)

    # --- the owner ------------------------------------------------------------------------

    def start(self) -> None:
        """Start listening for the clicks of the shards this process holds."""
        if self._listening is None:
            channels = ShardChannels(
                "forwarded clicks", self.clicks.listener, self._catch_up, self._heard, self._prune
            )
            self._listening = asyncio.get_running_loop().create_task(
                listen_on_held_shards(channels, self.ownership, self.listening)
            )

    async def _catch_up(self, shards: frozenset[int]) -> None:
        """Clicks that came while nobody listened (a reconnect, a takeover) are still
        answered if young enough."""
        for interaction_id in await self.clicks.waiting(shards):
            await self._take(interaction_id)

    async def _heard(self, payload: str) -> bool:
        if payload.isdigit():  # other notices on the shards' channels are not clicks
            await self._take(int(payload))
        return False

    async def _prune(self, held: frozenset[int]) -> None:
        if time.monotonic() - self._last_prune > PRUNE_AFTER / 2:
            self._last_prune = time.monotonic()
            await self.clicks.prune(PRUNE_AFTER)

    async def _take(self, interaction_id: int) -> None:
        """Claim a forwarded click and dispatch it here, if it is young enough to answer."""
        if age_of(interaction_id) > OWNER_CUTOFF:
            log.info(
                "click %s came too late to be answered; its receiver answers it", interaction_id
            )
            return
        payload = await self.clicks.claim(interaction_id)
        if payload is None:
            return  # taken already (by its receiver, giving up, or another holder)
        self.applied += 1
        log.debug(
            "click %s handed on by the process that received it; answered here", interaction_id
        )
        try:
            self.intake.forwarded(payload)
        except Exception:
            # A payload this library cannot read: it is logged, and listening goes on.
            log.exception("forwarded click %s could not be dispatched", interaction_id)

    # --- both -----------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        tasks = [*self._tasks, *([self._listening] if self._listening is not None else [])]
        self._listening = None
        await stop_tasks(*tasks)


def forwarding_for(
    intake: Intake, store: object, ownership: Ownership, live: Callable[[int], object | None]
) -> Forwarder | None:
    """The forwarder of a process on PostgreSQL (shared by several processes); None on
    SQLite, where one process holds every game. ``live`` finds a game in this process's
    memory (the session manager's ``by_game``)."""
    if not isinstance(store, PostgresStore):
        return None
    forwarder = Forwarder(
        intake,
        ForwardedClicks(store.pool, store.url),
        ownership,
        is_local=lambda game_id: live(game_id) is not None,
    )
    intake.router = forwarder
    return forwarder
