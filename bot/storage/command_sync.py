"""The rows that remember which slash commands were registered with Discord, and where: the
global commands (scope :data:`GLOBAL_SCOPE`) and the copies a development server holds."""

from __future__ import annotations

from datetime import datetime

from bot.storage.models import to_db_time
from bot.storage.rows import Rows

GLOBAL_SCOPE = 0
"""The scope of the global commands; any other scope is a server's id."""


class CommandSyncRows(Rows):
    __slots__ = ()

    async def command_syncs(self, application_id: int) -> dict[int, str]:
        """Scope to the digest of the commands last synced there by ``application_id``."""
        rows = await self._conn.execute_fetchall(
            "SELECT scope, digest FROM command_sync WHERE application_id = ? ORDER BY scope",
            (application_id,),
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def record_command_sync(
        self, application_id: int, scope: int, digest: str, at: datetime
    ) -> None:
        """Discord accepted ``digest``'s commands in ``scope`` at ``at``."""
        await self._conn.execute(
            "INSERT INTO command_sync (application_id, scope, digest, synced_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, scope)"
            " DO UPDATE SET digest = excluded.digest, synced_at = excluded.synced_at",
            (application_id, scope, digest, to_db_time(at)),
        )

    async def forget_command_sync(self, application_id: int, scope: int) -> None:
        """``scope`` holds none of ``application_id``'s commands any more."""
        await self._conn.execute(
            "DELETE FROM command_sync WHERE application_id = ? AND scope = ?",
            (application_id, scope),
        )
