"""Each person's own settings, whatever the server (the look of their pictures, how they
are told of their turn), kept by name like a server's (see
:mod:`bot.storage.named_settings`); their meaning belongs to
:mod:`bot.services.personal_settings`."""

from __future__ import annotations

from typing import Any

from bot.storage.named_settings import NamedQueries, read_named, save_named
from bot.storage.rows import Rows

QUERIES = NamedQueries(
    select="SELECT name, value FROM personal_settings WHERE user_id = ? ORDER BY name",
    delete="DELETE FROM personal_settings WHERE user_id = ? AND name = ?",
    upsert="INSERT INTO personal_settings (user_id, name, value) VALUES (?, ?, ?)"
    " ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
)


class SettingRows(Rows):
    __slots__ = ()

    async def personal_settings(self, user_id: int) -> dict[str, Any]:
        """Every setting the person changed, name to decoded value."""
        return await read_named(self._conn, QUERIES, user_id)

    async def save_personal_setting(self, user_id: int, name: str, value: Any) -> None:
        """Store one setting's value (any JSON value); None takes the default back."""
        await save_named(self._conn, QUERIES, user_id, name, value)

    async def notified_when_away(self) -> list[int]:
        """The people told of their turn only when away (read once, at start)."""
        rows = await self._conn.execute_fetchall(
            "SELECT user_id FROM personal_settings"
            " WHERE name = 'notify_when_away' AND value = 'true' ORDER BY user_id"
        )
        return [int(row["user_id"]) for row in rows]
