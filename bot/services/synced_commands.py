"""What the database remembers of the slash commands registered with Discord: the digest of
the global commands last synced per application, and the servers (``DEV_GUILD_ID``) that
hold a copy of them.

The record used to be a ``.commands.json`` file beside the SQLite database; several
processes sharing one PostgreSQL database have no common folder, so it moved into the
database, and a file left by an older version is carried over once, then deleted.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import Store
from bot.storage.command_sync import GLOBAL_SCOPE
from bot.values.clock import utc_now

log = logging.getLogger(__name__)

__all__ = ["GLOBAL_SCOPE", "LegacySyncFile", "SyncedCommands"]


@dataclass
class LegacySyncFile:
    """The ``.commands.json`` an older version kept: per application, the digest of the
    commands last synced globally, and the servers that hold a copy of them."""

    digests: dict[str, str] = field(default_factory=dict)
    guilds: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> LegacySyncFile:
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


class SyncedCommands:
    """The sync record of one database; every method is one unit of work."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def digests(self, application_id: int) -> dict[int, str]:
        """Scope (:data:`GLOBAL_SCOPE` or a server's id) to the digest synced there."""
        async with self._store.unit() as repo:
            return await repo.command_syncs(application_id)

    async def synced(self, application_id: int, scope: int, digest: str) -> None:
        async with self._store.unit() as repo:
            await repo.record_command_sync(application_id, scope, digest, utc_now())

    async def cleared(self, application_id: int, scope: int) -> None:
        async with self._store.unit() as repo:
            await repo.forget_command_sync(application_id, scope)

    async def carry_over(self, path: Path) -> bool:
        """Move an older version's ``.commands.json`` at ``path`` into the database, then
        delete it; returns whether there was one. A damaged file is deleted too (the
        commands are then synced again, as a fresh install would)."""
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            return False
        except OSError as error:
            log.warning("could not read the old sync record %s: %s", path, error.strerror)
            return False
        try:
            old = LegacySyncFile.parse(text)
        except ValueError:
            old = LegacySyncFile()
        now = utc_now()
        async with self._store.unit() as repo:
            for app, digest in old.digests.items():
                if app.isdigit():
                    await repo.record_command_sync(int(app), GLOBAL_SCOPE, digest, now)
            for app, guilds in old.guilds.items():
                for guild_id in guilds:
                    if app.isdigit() and guild_id != GLOBAL_SCOPE:
                        await repo.record_command_sync(int(app), guild_id, "", now)
        try:
            path.unlink()
        except OSError as error:
            log.warning("could not delete the old sync record %s: %s", path, error.strerror)
        log.info("the record of the synced commands moved from %s into the database", path)
        return True
