"""Per-server settings, kept by name (see :mod:`bot.storage.named_settings`); what a
setting means and its default belong to :mod:`bot.services.server_settings`."""

from __future__ import annotations

from typing import Any

from bot.storage.named_settings import NamedQueries, read_named, save_named
from bot.storage.rows import Rows

QUERIES = NamedQueries(
    select="SELECT name, value FROM server_settings WHERE guild_id = ? ORDER BY name",
    delete="DELETE FROM server_settings WHERE guild_id = ? AND name = ?",
    upsert="INSERT INTO server_settings (guild_id, name, value) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
)


class ServerSettingRows(Rows):
    __slots__ = ()

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting the server changed, name to decoded value."""
        return await read_named(self._conn, QUERIES, guild_id)

    async def save_server_setting(self, guild_id: int, name: str, value: Any) -> None:
        """Store one setting's value (any JSON value); None takes the default back."""
        await save_named(self._conn, QUERIES, guild_id, name, value)
