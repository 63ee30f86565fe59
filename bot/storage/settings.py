"""Each person's own settings: for now, whether they are told of their turn only when away."""

from __future__ import annotations

from bot.storage.rows import Rows


class SettingRows(Rows):
    __slots__ = ()

    async def set_notify_when_away(self, user_id: int, away: bool) -> None:
        if away:
            await self._conn.execute(
                "INSERT INTO user_settings (user_id, notify) VALUES (?, 'away')"
                " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id,),
            )
        else:
            await self._conn.execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))

    async def notified_when_away(self) -> list[int]:
        """The people told of their turn only when away."""
        rows = await self._conn.execute_fetchall(
            "SELECT user_id FROM user_settings WHERE notify = 'away' ORDER BY user_id"
        )
        return [int(row["user_id"]) for row in rows]
