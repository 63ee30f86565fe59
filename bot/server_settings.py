"""What each server chose for Rummy: one frozen value per server, read through a cache.

A setting is a field of :class:`ServerSettings` with its default (what a server that chose
nothing gets) and its type; storage keeps only the settings a server changed, by name, as
JSON. A new setting (a default variant, a turn timer, who may open tables) is one new field
here and nothing in storage. A stored value that no longer fits its field (a renamed or
retyped setting) is ignored, so an old database never stops a server from playing.

A server's games all run in the process that owns its shard, so the cache is that process's
own and needs no invalidation from elsewhere.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Any

from bot.storage import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server's settings; each default is the bot's behaviour for a server that chose
    nothing."""

    threads: bool = True
    """Each game plays in a thread started from its lobby message (else in the channel)."""

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> ServerSettings:
        """The settings from what storage holds; unknown names and ill-typed values are
        left at their defaults."""
        values: dict[str, Any] = {}
        for item in dataclasses.fields(cls):
            if item.name not in stored:
                continue
            value = stored[item.name]
            if _fits(value, type(getattr(cls(), item.name))):
                values[item.name] = value
            else:
                log.warning("ignoring the stored server setting %s=%r", item.name, value)
        return cls(**values)


def setting_names() -> tuple[str, ...]:
    return tuple(item.name for item in dataclasses.fields(ServerSettings))


def _fits(value: Any, kind: type) -> bool:
    if kind is bool or isinstance(value, bool):
        return type(value) is kind
    return isinstance(value, kind)


class ServerSettingsBook:
    """Every server's settings (the session manager owns one, beside the store)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._known: dict[int, ServerSettings] = {}

    async def of(self, guild_id: int) -> ServerSettings:
        known = self._known.get(guild_id)
        if known is None:
            async with self._store.unit() as repo:
                known = ServerSettings.from_stored(await repo.server_settings(guild_id))
            self._known[guild_id] = known
        return known

    async def change(self, guild_id: int, **changes: Any) -> ServerSettings:
        """Set some settings (by field name, a value of its type); returns the result.
        A value equal to the default is stored as no choice at all."""
        unknown = set(changes) - set(setting_names())
        if unknown:
            raise ValueError(f"unknown server settings {sorted(unknown)}")
        current = await self.of(guild_id)
        updated = dataclasses.replace(current, **changes)
        if ServerSettings.from_stored(dataclasses.asdict(updated)) != updated:
            raise TypeError(f"server settings of the wrong type: {changes!r}")
        default = ServerSettings()
        async with self._store.unit() as repo:
            for name in changes:
                value = getattr(updated, name)
                kept = None if value == getattr(default, name) else value
                await repo.save_server_setting(guild_id, name, kept)
        self._known[guild_id] = updated
        return updated

    def forget(self, guild_id: int) -> None:
        """The server's data was deleted: read it afresh next time."""
        self._known.pop(guild_id, None)
