"""The Bot: it receives its resources and its extensions' names from the launcher and loads
the extensions in setup_hook.

Keeping resource creation in the launcher (database, sessions) and out of the Bot means
tests can hand a bot a session manager of their own, and the Bot never outlives them.

When commands are registered with Discord (synced):

- ``dev_guild_id`` set: to that server at every start (Discord applies server commands at once,
  and server syncs are cheap); the global commands are left alone.
- ``sync_globally=True`` (``--sync``): globally, at this start.
- otherwise, with a ``sync_state`` file (the launcher keeps one next to the database):
  globally when the commands differ from the last ones synced globally by this application —
  so a fresh install registers them, an upgrade that changes them re-registers them, and an
  ordinary restart sends nothing (global syncs are rate-limited by Discord).
- otherwise (no state file, as in tests): globally at every start.

The state file also remembers the servers that got a copy of the commands (``DEV_GUILD_ID``).
A start without that server as ``DEV_GUILD_ID`` clears its copy (one cheap server sync) and
forgets it: otherwise the test server would list every command twice, its copy beside the
global one, long after development ended.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.cluster.forwarding import Forwarder
from bot.cluster.intake import Intake
from bot.files import write_private
from bot.i18n import CatalogTranslator
from bot.logs import describe, quiet_voice
from bot.sessions import SessionManager

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


@dataclass
class SyncState:
    """What the state file remembers per application: the digest of the commands last
    synced globally, and the servers that hold a copy of them."""

    digests: dict[str, str] = field(default_factory=dict)
    guilds: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> SyncState:
        data = json.loads(text)
        if not isinstance(data, dict):
            return cls()
        if not isinstance(data.get("global"), dict):  # the first format: digests only
            return cls({str(k): str(v) for k, v in data.items()})
        guilds = data.get("guilds") if isinstance(data.get("guilds"), dict) else {}
        assert isinstance(guilds, dict)
        return cls(
            {str(k): str(v) for k, v in data["global"].items()},
            {
                str(k): [int(g) for g in v if str(g).isdigit()]
                for k, v in guilds.items()
                if isinstance(v, list)
            },
        )

    def dump(self) -> str:
        return json.dumps({"global": self.digests, "guilds": self.guilds}, indent=1) + "\n"


class RummyBot(commands.Bot):
    def __init__(
        self,
        sessions: SessionManager,
        *,
        dev_guild_id: int | None = None,
        extensions: Sequence[str],
        guild_ready_timeout: float = 2.0,
        sync_globally: bool = False,
        sync_state: Path | None = None,
        members_intent: bool = False,
        server_grace: timedelta = timedelta(days=7),
    ) -> None:
        """``members_intent``: also ask for the privileged members intent (``MEMBERS_INTENT``),
        to hear of members who leave a server. ``server_grace``: how long a server's data
        is kept after the bot is removed from it."""
        quiet_voice()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS | discord.Intents(members=True) if members_intent else INTENTS,
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.sessions = sessions
        self.dev_guild_id = dev_guild_id
        self.extension_names = tuple(extensions)
        self.sync_globally = sync_globally
        self.sync_state = sync_state
        self.server_grace = server_grace
        self._services: dict[type[Any], object] = {}
        self.intake = Intake(self)
        """Every interaction passes it first: repeats dropped, other processes' clicks
        handed on (``bot.cluster.intake``)."""
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
        await super().close()

    async def sync_commands(self) -> None:
        """Register the commands with Discord as the module docstring describes.

        A refused sync is logged and the bot carries on: the commands registered before still
        work, and the next start tries again.
        """
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            if await self._sync(guild, f"server {self.dev_guild_id}"):
                self._remember_guild(self.dev_guild_id, keep=True)
        for stale in self._state().guilds.get(str(self.application_id), []):
            if stale != self.dev_guild_id:
                await self._clear_guild(stale)
        if self.sync_globally:
            await self._sync(None, "globally (--sync)")
        elif self.dev_guild_id is None:
            if self.sync_state is None:
                await self._sync(None, "globally")
            elif await self._global_commands_changed():
                await self._sync(None, "globally (the commands changed since the last sync)")
            else:
                log.info("commands unchanged since the last global sync; not syncing")

    async def _clear_guild(self, guild_id: int) -> None:
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
        self._remember_guild(guild_id, keep=False)

    async def _sync(self, guild: discord.abc.Snowflake | None, where: str) -> bool:
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden as error:
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
        if guild is None:
            state = self._state()
            state.digests[str(self.application_id)] = await self._global_commands_hash()
            self._save(state)
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

    def _state(self) -> SyncState:
        if self.sync_state is None:
            return SyncState()
        try:
            return SyncState.parse(self.sync_state.read_text("utf-8"))
        except (OSError, ValueError):
            return SyncState()

    async def _global_commands_changed(self) -> bool:
        stored = self._state().digests.get(str(self.application_id))
        return stored != await self._global_commands_hash()

    def _remember_guild(self, guild_id: int, *, keep: bool) -> None:
        state = self._state()
        app = str(self.application_id)
        guilds = [g for g in state.guilds.get(app, []) if g != guild_id]
        if keep:
            guilds.append(guild_id)
        if guilds:
            state.guilds[app] = guilds
        else:
            state.guilds.pop(app, None)
        self._save(state)

    def _save(self, state: SyncState) -> None:
        if self.sync_state is None:
            return
        try:
            write_private(self.sync_state, state.dump())
        except OSError as error:
            log.warning(
                "could not record the synced commands in %s: %s", self.sync_state, describe(error)
            )

    async def on_ready(self) -> None:
        log.info("connected as %s; %d games live", self.user, len(self.sessions.sessions))
