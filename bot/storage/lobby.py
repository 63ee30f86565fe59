"""The lobby rows: a new table (a lobby, or a game dealt at once), its seats while people
come and go, and the deal that makes them final."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.errors import DuplicateLiveGame
from bot.storage.games import GameRows
from bot.storage.models import GameRecord, GameStatus, to_db_time
from bot.storage.rows import dump_json
from bot.values.seats import Seat


class LobbyRows(GameRows):
    __slots__ = ()

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int | None,
        ruleset: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        snapshot: str | None,
        at: datetime,
        status: GameStatus = GameStatus.ACTIVE,
        turn_timer: int = 0,
        open_seats: bool = False,
    ) -> GameRecord:
        """Store a new lobby (no snapshot) or dealt game; the channel must have no live game
        (else :class:`DuplicateLiveGame`)."""
        if status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            raise ValueError("a new game is a lobby or a dealt game")
        try:
            rows = await self._conn.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, status,"
                " created_at, snapshot, turn_timer, open_seats)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    dump_json(ruleset),
                    seed,
                    status.value,
                    to_db_time(at),
                    snapshot,
                    turn_timer,
                    int(open_seats),
                ),
            )
        except Exception as error:
            if self._dialect.live_game_clash(error):
                raise DuplicateLiveGame(channel_id) from None
            raise
        game_id = int(next(iter(rows))[0])
        await self._insert_seats(game_id, seats)
        record = await self.load_game(game_id)
        assert record is not None
        return record

    async def update_lobby(self, game_id: int, host_id: int | None, seats: Sequence[Seat]) -> None:
        """Replace a lobby's seats and host (someone joined, left or was kicked)."""
        await self._update_one(
            "UPDATE games SET host_id = ? WHERE id = ? AND status = 'lobby'",
            (host_id, game_id),
            game_id,
            "a lobby",
        )
        await self._conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._insert_seats(game_id, seats)

    async def start_game(self, game_id: int, seed: int, snapshot: str) -> None:
        """Turn a lobby into a dealt game (its seats are final from now on)."""
        await self._update_one(
            "UPDATE games SET status = 'active', seed = ?, snapshot = ?, action_count = 0"
            " WHERE id = ? AND status = 'lobby'",
            (seed, snapshot, game_id),
            game_id,
            "a lobby",
        )

    async def _insert_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self._conn.executemany(
            "INSERT INTO seats (game_id, seat, player_id, kind, user_id, display_name, level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.player_id, s.kind.value, s.user_id, s.display_name, s.level)
                for s in seats
            ],
        )
