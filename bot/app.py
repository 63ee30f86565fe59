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
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.i18n import CatalogTranslator
from bot.logs import describe, quiet_voice
from bot.sessions import SessionManager

log = logging.getLogger(__name__)

_S = TypeVar("_S")


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
    ) -> None:
        quiet_voice()
        # Slash commands and buttons need no privileged intents.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.sessions = sessions
        self.dev_guild_id = dev_guild_id
        self.extension_names = tuple(extensions)
        self.sync_globally = sync_globally
        self.sync_state = sync_state
        self._services: dict[type[Any], object] = {}

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

    async def sync_commands(self) -> None:
        """Register the commands with Discord as the module docstring describes.

        A refused sync is logged and the bot carries on: the commands registered before still
        work, and the next start tries again.
        """
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self._sync(guild, f"server {self.dev_guild_id}")
        if self.sync_globally:
            await self._sync(None, "globally (--sync)")
        elif self.dev_guild_id is None:
            if self.sync_state is None:
                await self._sync(None, "globally")
            elif await self._global_commands_changed():
                await self._sync(None, "globally (the commands changed since the last sync)")
            else:
                log.info("commands unchanged since the last global sync; not syncing")

    async def _sync(self, guild: discord.abc.Snowflake | None, where: str) -> None:
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden as error:
            log.error(
                "Discord refused to register the commands %s (%s): invite the bot with the "
                "applications.commands scope",
                where,
                describe(error),
            )
            return
        except discord.HTTPException as error:
            log.error("could not register the commands %s: %s", where, describe(error))
            return
        log.info("synced %d application commands %s", len(synced), where)
        if guild is None:
            self._remember_global_commands(await self._global_commands_hash())

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

    def _stored_hashes(self) -> dict[str, str]:
        if self.sync_state is None:
            return {}
        try:
            data = json.loads(self.sync_state.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items()}

    async def _global_commands_changed(self) -> bool:
        stored = self._stored_hashes().get(str(self.application_id))
        return stored != await self._global_commands_hash()

    def _remember_global_commands(self, digest: str) -> None:
        if self.sync_state is None:
            return
        hashes = self._stored_hashes()
        hashes[str(self.application_id)] = digest
        try:
            self.sync_state.write_text(json.dumps(hashes, indent=1) + "\n", "utf-8")
        except OSError as error:
            log.warning("could not record the synced commands in %s: %s", self.sync_state, error)

    async def on_ready(self) -> None:
        log.info("connected as %s; %d games live", self.user, len(self.sessions.sessions))
