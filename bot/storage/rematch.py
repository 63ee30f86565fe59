"""The rows of what comes after a game: the lobby Play again opened from it, the people
queued for it, and a lobby's last activity (its idle deadline counts from there)."""

from __future__ import annotations

from datetime import datetime

from bot.storage.models import to_db_time
from bot.storage.rows import Rows


class RematchRows(Rows):
    __slots__ = ()

    async def touch_lobby(self, game_id: int, at: datetime) -> None:
        """Someone came or went: the lobby's idle time starts again from ``at``."""
        await self._update_one(
            "UPDATE games SET touched_at = ? WHERE id = ? AND status = 'lobby'",
            (to_db_time(at), game_id),
            game_id,
            "a lobby",
        )

    async def claim_rematch(self, game_id: int, new_game_id: int) -> None:
        """Note that Play again of the finished game ``game_id`` opened ``new_game_id``;
        :class:`~bot.storage.errors.GameChanged` when it is not finished or already did
        (the unit then rolls the new lobby back)."""
        await self._update_one(
            "UPDATE games SET rematch_id = ?"
            " WHERE id = ? AND status = 'finished' AND rematch_id IS NULL",
            (new_game_id, game_id),
            game_id,
            "a finished game not played again yet",
        )

    async def release_rematch(self, game_id: int, new_game_id: int) -> bool:
        """The lobby ``new_game_id`` that Play again of ``game_id`` opened was called off
        before anyone saw it: Play again of ``game_id`` may open another. False when that
        lobby was not the one noted."""
        cursor = await self._conn.execute(
            "UPDATE games SET rematch_id = NULL WHERE id = ? AND rematch_id = ?",
            (game_id, new_game_id),
        )
        released = cursor.rowcount == 1
        await cursor.close()
        return released

    async def add_to_queue(
        self, game_id: int, user_id: int, display_name: str, at: datetime
    ) -> bool:
        """Queue a person for the game after ``game_id``; False when they already were."""
        cursor = await self._conn.execute(
            "INSERT INTO queue (game_id, user_id, display_name, queued_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id, display_name, to_db_time(at)),
        )
        added = cursor.rowcount == 1
        await cursor.close()
        return added

    async def remove_from_queue(self, game_id: int, user_id: int) -> bool:
        """Take a person out of the queue of ``game_id``; False when they were not in it."""
        cursor = await self._conn.execute(
            "DELETE FROM queue WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        removed = cursor.rowcount == 1
        await cursor.close()
        return removed

    async def queued(self, game_id: int) -> list[tuple[int, str]]:
        """The people queued for the game after ``game_id``, first come first."""
        rows = await self._conn.execute_fetchall(
            "SELECT user_id, display_name FROM queue WHERE game_id = ? ORDER BY queued_at, user_id",
            (game_id,),
        )
        return [(int(row[0]), str(row[1])) for row in rows]
