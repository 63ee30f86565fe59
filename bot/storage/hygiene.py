"""Deleting personal data: one person's on request, or a whole server's.

A person who asks to be forgotten keeps no trace that points at them, while the games they
played stay whole for the other players:

- every seat they held becomes ``deleted player`` with no user id, and its engine player id
  becomes ``deleted-<seat>`` — also inside the stored snapshot, so the game still loads;
- games they hosted lose their host;
- an active game they sit in is abandoned first (a table cannot go on with a player who no
  longer exists), and a lobby they sit in is cancelled (the sessions take a person out of a
  lobby that is loaded before they get here, so this only meets lobbies no process serves);
- the games they left keep no note of them (no forfeit is counted for them);
- with several processes on one database, the lobbies and games in play of servers on
  shards this process does not hold are left to their holders (the cluster asks them);
- their league rows are dropped. The other players' figures and ratings are left as they
  were: they were earned in those games, and recomputing them would rewrite history.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.storage.games import GameRows
from bot.storage.models import DELETED_NAME, ForgetReport, ShardSet, to_db_time
from bot.storage.rows import dump_json, required_time


class PersonalDataRows(GameRows):
    __slots__ = ()

    async def forget_user(
        self, user_id: int, at: datetime, shards: ShardSet | None = None
    ) -> ForgetReport:
        """Erase ``user_id`` everywhere, or (``shards``: the shards this process holds, when
        several processes share the database) everywhere but in the lobbies and games in
        play of other shards' servers: those are in their holders' memory, and the report
        names them (``elsewhere``) for their holders to erase. Games that are over are
        erased whatever their shard."""
        live = await self.live_games_with_user(user_id, 1 if shards is None else shards.count)
        elsewhere = tuple(g for g in live if shards is not None and g[1] not in shards.ids)
        others = {game_id for game_id, _, _ in elsewhere}
        left = dump_json(sorted(others))
        abandoned = tuple(game_id for game_id, _, _ in live if game_id not in others)
        for game_id in abandoned:
            await self.abandon_game(game_id, at)
        seats = list(
            await self._conn.execute_fetchall(
                "SELECT s.game_id, s.seat, s.player_id, g.snapshot FROM seats s"
                " JOIN games g ON g.id = s.game_id WHERE s.user_id = ?"
                f" AND s.game_id NOT IN ({self._dialect.ids})",
                (user_id, left),
            )
        )
        for row in seats:
            pseudonym = f"deleted-{row['seat']}"
            await self._conn.execute(
                "UPDATE seats SET user_id = NULL, display_name = ?, player_id = ?"
                " WHERE game_id = ? AND seat = ?",
                (DELETED_NAME, pseudonym, row["game_id"], row["seat"]),
            )
            if row["snapshot"] is not None:
                snapshot = _replace_text(json.loads(row["snapshot"]), row["player_id"], pseudonym)
                await self._conn.execute(
                    "UPDATE games SET snapshot = ? WHERE id = ?",
                    (dump_json(snapshot), row["game_id"]),
                )
        await self._conn.execute(
            "UPDATE games SET host_id = NULL"
            f" WHERE host_id = ? AND id NOT IN ({self._dialect.ids})",
            (user_id, left),
        )
        for table in ("personal_settings", "leavers", "queue"):
            await self._conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        for table in ("messages", "turn_deadlines"):
            await self._conn.execute(
                f"DELETE FROM {table} WHERE player = ? AND game_id NOT IN ({self._dialect.ids})",
                (str(user_id), left),
            )
        cursor = await self._conn.execute(
            "DELETE FROM league_players WHERE user_id = ?", (user_id,)
        )
        league_rows = cursor.rowcount
        await cursor.close()
        return ForgetReport(abandoned, len(seats), league_rows, elsewhere)

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything stored about a server (its settings too); returns how many games
        went.

        Seats, logs, rounds and standings go with their games, league rows with their seasons
        (the schema cascades the deletes).
        """
        cursor = await self._conn.execute("DELETE FROM games WHERE guild_id = ?", (guild_id,))
        games = cursor.rowcount
        await cursor.close()
        await self._conn.execute("DELETE FROM seasons WHERE guild_id = ?", (guild_id,))
        await self._conn.execute("DELETE FROM server_settings WHERE guild_id = ?", (guild_id,))
        await self._conn.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))
        return games

    async def note_departure(self, guild_id: int, at: datetime) -> None:
        """The bot left ``guild_id`` at ``at`` (an earlier note is kept: the grace period
        runs from the first departure)."""
        await self._conn.execute(
            "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, to_db_time(at)),
        )

    async def cancel_departure(self, guild_id: int) -> bool:
        """The bot is in ``guild_id`` again; returns whether a departure was noted."""
        cursor = await self._conn.execute(
            "DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,)
        )
        gone = cursor.rowcount > 0
        await cursor.close()
        return gone

    async def departures(self) -> dict[int, datetime]:
        """Every noted departure: server id to when the bot left it."""
        rows = await self._conn.execute_fetchall("SELECT guild_id, left_at FROM guild_departures")
        return {int(row["guild_id"]): required_time(row["left_at"]) for row in rows}


def _replace_text(value: Any, old: str, new: str) -> Any:
    """``value`` (decoded JSON) with every string and key equal to ``old`` replaced."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_text(item, old, new) for item in value]
    if isinstance(value, dict):
        return {
            (new if key == old else key): _replace_text(item, old, new)
            for key, item in value.items()
        }
    return value
