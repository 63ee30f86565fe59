"""Per-server settings: a name and a JSON value per row, so that a new setting needs no new
table; what a setting means and its default belong to :mod:`bot.server_settings`."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.rows import Rows, dump_json


class ServerSettingRows(Rows):
    __slots__ = ()

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting the server changed, name to decoded value."""
        rows = await self._conn.execute_fetchall(
            "SELECT name, value FROM server_settings WHERE guild_id = ? ORDER BY name",
            (guild_id,),
        )
        return {str(row["name"]): json.loads(row["value"]) for row in rows}

    async def save_server_setting(self, guild_id: int, name: str, value: Any) -> None:
        """Store one setting's value (any JSON value); None takes the default back."""
        if not name:
            raise ValueError("a setting has a name")
        if value is None:
            await self._conn.execute(
                "DELETE FROM server_settings WHERE guild_id = ? AND name = ?", (guild_id, name)
            )
            return
        await self._conn.execute(
            "INSERT INTO server_settings (guild_id, name, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
            (guild_id, name, dump_json(value)),
        )
