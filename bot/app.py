"""The Bot: it receives its resources and its extensions' names from the launcher and loads
the extensions in setup_hook.

Keeping resource creation in the launcher (database, sessions) and out of the Bot means
tests can hand a bot a session manager of their own, and the Bot never outlives them.

The Bot is sharded (``AutoShardedBot``): one process runs every shard by default, the count
Discord recommends; ``shard_count`` and ``shard_ids`` (``SHARD_COUNT``, ``SHARD_IDS``) make
it run some of a fixed number, the others running in other processes.

When commands are registered with Discord (synced): only by the process that owns shard 0,
so that several processes on one database sync once; and then

- ``dev_guild_id`` set: to that server at every start (Discord applies server commands at once,
  and server syncs are cheap); the global commands are left alone.
- ``sync_globally=True`` (``--sync``): globally, at this start.
- otherwise globally when the commands differ from the last ones synced globally by this
  application, as the database remembers (:mod:`bot.services.synced_commands`) — so a fresh install
  registers them, an upgrade that changes them re-registers them, and an ordinary restart
  sends nothing (global syncs are rate-limited by Discord).

The database also remembers the servers that got a copy of the commands (``DEV_GUILD_ID``).
A start without that server as ``DEV_GUILD_ID`` clears its copy (one cheap server sync) and
forgets it: otherwise the test server would list every command twice, its copy beside the
global one, long after development ended.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Collection, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.cluster.forwarding import Forwarder
from bot.cluster.intake import Intake
from bot.i18n import CatalogTranslator
from bot.infrastructure.logs import describe, quiet_voice
from bot.infrastructure.settings import WebSettings
from bot.services.synced_commands import GLOBAL_SCOPE
from bot.sessions import SessionManager
from bot.sessions.services import Services

INVITE_PERMISSIONS = 309237763072
"""The seven permissions the invite link asks for (the README's): view channels, send
messages, send messages in threads, create public threads, embed links, attach files and
read message history."""

log = logging.getLogger(__name__)

_S = TypeVar("_S")

INTENTS = discord.Intents(guilds=True, moderation=True)
"""Only what the bot reads: the guild cache (``get_guild``, its language, the bot's own
member and the channels' overwrites for the permission check) and the channel, thread and
server removals that end a game come with ``guilds``; bans (a banned member loses their
seat) with ``moderation``.
Interactions reach a bot whatever its intents, and it reads no message, reaction, typing,
voice, invite or presence event, so ``Intents.default()`` would only make Discord send
events nobody reads."""

IDENTIFY_WINDOW = 5.0
"""Seconds Discord wants between two IDENTIFYs of one rate-limit bucket (shards ``i`` with
the same ``i % max_concurrency``)."""


class RummyBot(commands.AutoShardedBot):
    def __init__(
        self,
        sessions: SessionManager,
        *,
        dev_guild_id: int | None = None,
        extensions: Sequence[str],
        guild_ready_timeout: float = 2.0,
        sync_globally: bool = False,
        legacy_sync_state: Path | None = None,
        members_intent: bool = False,
        server_grace: timedelta = timedelta(days=7),
        shard_count: int | None = None,
        shard_ids: Collection[int] | None = None,
        services: Services | None = None,
        web: WebSettings | None = None,
    ) -> None:
        """``members_intent``: also ask for the privileged members intent (``MEMBERS_INTENT``),
        to hear of members who leave a server. ``server_grace``: how long a server's data
        is kept after the bot is removed from it. ``shard_count``: the shards of the bot
        across all its processes (None: as Discord recommends); ``shard_ids``: those this
        process runs (None: all). ``legacy_sync_state``: where an older version kept its
        record of the synced commands, carried over into the database once. ``services``: the
        services built on the sessions' store (by default the ones the sessions were given).
        ``web``: the web table's server, which the ``cogs.web`` extension starts (None: off)."""
        quiet_voice()
        if shard_ids is not None and shard_count is None:
            raise ValueError("shard_ids needs shard_count")
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS | discord.Intents(members=True) if members_intent else INTENTS,
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            shard_count=shard_count,
        )
        self.shard_ids = None if shard_ids is None else sorted(shard_ids)
        self.sessions = sessions
        self.services: Services = services if services is not None else sessions.services
        """What the extensions read beside the sessions: the league, the replays, the settings
        books, the message ledger, the record of the synced commands."""
        self.dev_guild_id = dev_guild_id
        self.extension_names = tuple(extensions)
        self.sync_globally = sync_globally
        self.legacy_sync_state = legacy_sync_state
        self.server_grace = server_grace
        self._services: dict[type[Any], object] = {}
        self._identify_concurrency = 1
        self._identified: dict[int, float] = {}
        self.intake = Intake(self)
        """Every interaction passes it first: repeats dropped, other processes' clicks
        handed on (``bot.cluster.intake``)."""
        self.web = web
        """The web table's settings (``WEB_PORT``, ``WEB_URL``); None: no web server."""
        self.forwarder: Forwarder | None = None
        """Set by the launcher on PostgreSQL; it listens for clicks forwarded to us."""

    def provide(self, kind: type[_S], service: _S) -> None:
        """Offer ``service`` to the other extensions, found by its class: the extensions
        reach each other through the bot, never by importing each other's modules."""
        self._services[kind] = service

    def withdraw(self, kind: type[Any]) -> None:
        self._services.pop(kind, None)

    def service(self, kind: type[_S]) -> _S:
        """The loaded extension's ``kind``; RuntimeError when the extension is not loaded."""
        found = self._services.get(kind)
        if not isinstance(found, kind):
            raise RuntimeError(f"no {kind.__name__} is loaded")
        return found

    async def setup_hook(self) -> None:
        for name in self.extension_names:
            await self.load_extension(name)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        if self.forwarder is not None:
            self.forwarder.start()

    async def close(self) -> None:
        if self.forwarder is not None:
            await self.forwarder.close()
        try:
            await super().close()
        except AttributeError as error:
            # discord.py 2.7.1's sharded close ends by posting to a queue made at login: a
            # bot closed before it logged in (a start that failed, a test of its setup)
            # has none, and everything else is closed by then.
            if "__queue" not in str(error):
                raise

    async def launch_shards(self) -> None:
        """Ask Discord for the shard count (unless set) and how many shards may identify
        at once, then connect the shards. The gateway stays discord.py's (or the one the
        launcher set), as for an unsharded bot: only the count comes from Discord."""
        count, _, limits = await self.http.get_bot_gateway()
        chosen: int | None = self.shard_count  # None until known, whatever its annotation
        if chosen is None:
            self.shard_count = count
        self._identify_concurrency = max(1, int(limits.get("max_concurrency", 1)))
        await super().launch_shards()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait until the shard's identify bucket may identify again: Discord allows one
        IDENTIFY per ``IDENTIFY_WINDOW`` in each of ``max_concurrency`` buckets (discord.py
        waits that long before every IDENTIFY but the first, so many shards start slowly)."""
        bucket = (shard_id or 0) % self._identify_concurrency
        loop = asyncio.get_running_loop()
        last = self._identified.get(bucket)
        if last is not None and (wait := last + IDENTIFY_WINDOW - loop.time()) > 0:
            await asyncio.sleep(wait)
        self._identified[bucket] = loop.time()

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the commands: the one that owns shard 0."""
        return 0 in self.sessions.ownership.held()

    async def sync_commands(self) -> None:
        """Register the commands with Discord as the module docstring describes.

        A refused sync is logged and the bot carries on: the commands registered before still
        work, and the next start tries again.
        """
        if not self.syncs_commands:
            log.info("the commands are synced by the process that runs shard 0; not syncing")
            return
        record = self.services.synced_commands
        if self.legacy_sync_state is not None:
            await record.carry_over(self.legacy_sync_state)
        app = self.application_id or 0
        synced = await record.digests(app)
        digest = await self._global_commands_hash()
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            if await self._sync(guild, f"server {self.dev_guild_id}"):
                await record.synced(app, self.dev_guild_id, digest)
        for stale in synced:
            if stale not in (GLOBAL_SCOPE, self.dev_guild_id):
                await self._clear_guild(app, stale)
        if self.sync_globally:
            where = "globally (--sync)"
        elif self.dev_guild_id is not None:
            return
        elif GLOBAL_SCOPE not in synced:
            where = "globally"
        elif synced[GLOBAL_SCOPE] != digest:
            where = "globally (the commands changed since the last sync)"
        else:
            log.info("commands unchanged since the last global sync; not syncing")
            return
        if await self._sync(None, where):
            await record.synced(app, GLOBAL_SCOPE, digest)

    async def _clear_guild(self, app: int, guild_id: int) -> None:
        """Remove the copy of the commands a former ``DEV_GUILD_ID`` holds (the tree has no
        command for that server, so its sync sends an empty list)."""
        guild = discord.Object(id=guild_id)
        where = f"from server {guild_id} (no longer DEV_GUILD_ID)"
        try:
            await self.tree.sync(guild=guild)
        except (discord.Forbidden, discord.NotFound):
            # The bot left that server, or lost the scope there: nothing of ours to clear.
            log.info("server %s no longer reachable; forgetting its commands", guild_id)
        except discord.HTTPException as error:
            log.error("could not remove the commands %s: %s", where, describe(error))
            return
        else:
            log.info("removed the application commands %s", where)
        await self.services.synced_commands.cleared(app, guild_id)

    async def _sync(self, guild: discord.abc.Snowflake | None, where: str) -> bool:
        try:
            synced = await self.tree.sync(guild=guild)
        except (discord.NotFound, discord.Forbidden) as error:
            if guild is not None and (isinstance(error, discord.NotFound) or error.code == 50001):
                log.error(
                    "could not register the commands in server %s (%s): the bot is not in"
                    " the server DEV_GUILD_ID names; invite it there (the invite link is"
                    " below), or correct or remove DEV_GUILD_ID",
                    guild.id,
                    describe(error),
                )
                return False
            if isinstance(error, discord.NotFound):
                log.error("could not register the commands %s: %s", where, describe(error))
                return False
            log.error(
                "Discord refused to register the commands %s (%s): invite the bot with the "
                "applications.commands scope",
                where,
                describe(error),
            )
            return False
        except discord.HTTPException as error:
            log.error("could not register the commands %s: %s", where, describe(error))
            return False
        log.info("synced %d application commands %s", len(synced), where)
        return True

    async def _global_commands_hash(self) -> str:
        """A digest of exactly what a global sync sends, translations included."""
        translator = self.tree.translator
        payload: list[dict[str, Any]] = []
        for command in self.tree.get_commands(guild=None):
            if translator is None:
                payload.append(command.to_dict(self.tree))
            else:
                payload.append(await command.get_translated_payload(self.tree, translator))
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    async def on_ready(self) -> None:
        servers = len(self.guilds)
        log.info(
            "connected as %s; in %d server%s; %d games live",
            self.user,
            servers,
            "" if servers == 1 else "s",
            len(self.sessions.sessions),
        )
        if servers == 0 or (
            self.dev_guild_id is not None and self.get_guild(self.dev_guild_id) is None
        ):
            missing = f"not in server {self.dev_guild_id} (DEV_GUILD_ID)"
            log.warning(
                "the bot is %s: invite it with %s",
                "in no server yet" if servers == 0 else missing,
                self.invite_link(),
            )

    def invite_link(self) -> str:
        """The link that adds the bot to a server with the scopes and permissions it needs."""
        return discord.utils.oauth_url(
            self.application_id or 0,
            permissions=discord.Permissions(INVITE_PERMISSIONS),
            scopes=("bot", "applications.commands"),
        )
