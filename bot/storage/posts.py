"""Where each game is shown on Discord: one row per message the bot keeps editing."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from bot.storage.models import MessageRef
from bot.storage.rows import Rows, dump_json

KINDS = frozenset({"lobby", "table", "ping", "hand"})


def check_message(kind: str, player: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}")
    if (kind == "hand") != bool(player):
        raise ValueError("a hand message names its player, and only a hand message does")


class MessageRows(Rows):
    __slots__ = ()

    async def save_message(
        self, game_id: int, kind: str, player: str, channel_id: int, message_id: int
    ) -> None:
        check_message(kind, player)
        await self._conn.execute(
            "INSERT INTO messages (game_id, kind, player, channel_id, message_id)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind, player)"
            " DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id",
            (game_id, kind, player, channel_id, message_id),
        )

    async def forget_message(self, game_id: int, kind: str, player: str) -> None:
        check_message(kind, player)
        await self._conn.execute(
            "DELETE FROM messages WHERE game_id = ? AND kind = ? AND player = ?",
            (game_id, kind, player),
        )

    async def game_messages(self, game_ids: Collection[int]) -> dict[int, list[MessageRef]]:
        found: dict[int, list[MessageRef]] = defaultdict(list)
        ids = list(game_ids)
        if not ids:
            return found
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, kind, player, channel_id, message_id FROM messages"
            f" WHERE game_id IN ({self._dialect.ids}) ORDER BY game_id, kind, player",
            (dump_json(ids),),
        )
        for row in rows:
            found[int(row["game_id"])].append(
                MessageRef(
                    row["kind"], row["player"], int(row["channel_id"]), int(row["message_id"])
                )
            )
        return found
