"""The game rows: a dealt table's action log and snapshots, its rounds, its end, the turn
timer's deadline and stand-ins, and every way of loading games back."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.rummy.views import RoundResult
from bot.storage.errors import DuplicateLiveGame
from bot.storage.league import LeagueRows
from bot.storage.models import GameRecord, GameStatus, from_db_time, to_db_time
from bot.storage.rows import dump_json, required_time
from bot.values.clock import utc_now
from bot.values.league import SeatResult
from bot.values.seats import Deadline, Seat, SeatKind

_SHARD_OF = "((guild_id >> 22) - ((guild_id >> 22) / ?) * ?)"
"""The shard Discord routes a game's server to, ``(guild_id >> 22) % count`` with the count
given twice: the remainder by integer division, as psycopg reads ``%`` as a placeholder."""

_GAME_COLUMNS = (
    "SELECT id, guild_id, channel_id, host_id, ruleset, seed, status, created_at, finished_at,"
    " season, action_count, snapshot, turn_timer, lobby_channel_id, touched_at, rematch_id,"
    " open_seats"
    " FROM games"
)
_GAME_BY_ID = _GAME_COLUMNS + " WHERE id = ?"
_LIVE_GAMES = _GAME_COLUMNS + " WHERE status IN ('lobby', 'active') ORDER BY id"
_LIVE_GAME_OF_CHANNEL = _GAME_COLUMNS + " WHERE status IN ('lobby', 'active') AND channel_id = ?"


class GameRows(LeagueRows):
    """Games in play and their end; finishing a game feeds the league in the same unit."""

    __slots__ = ()

    async def append_action(
        self, game_id: int, seq: int, action: dict[str, Any], snapshot: str, at: datetime
    ) -> None:
        """Append action number ``seq`` (1-based) to the log and store the snapshot after it.

        The update is conditional on the log having exactly ``seq - 1`` actions, so a gap, a
        duplicate or an action on a game that is no longer active raises
        :class:`~bot.storage.errors.GameChanged`.
        """
        await self._update_one(
            "UPDATE games SET action_count = ?, snapshot = ?"
            " WHERE id = ? AND action_count = ? AND status = 'active'",
            (seq, snapshot, game_id, seq - 1),
            game_id,
            f"active at action {seq - 1}",
        )
        await self._conn.execute(
            "INSERT INTO actions (game_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
            (game_id, seq, dump_json(action), to_db_time(at)),
        )

    async def record_round(self, game_id: int, result: RoundResult, players: Sequence[str]) -> None:
        ender = None if result.ender is None else players.index(result.ender)
        await self._conn.execute(
            "INSERT INTO rounds (game_id, round_no, reason, ender_seat) VALUES (?, ?, ?, ?)",
            (game_id, result.round_no, result.reason.value, ender),
        )
        await self._conn.executemany(
            "INSERT INTO round_seats (game_id, round_no, seat, hand, hand_value, placed_value,"
            " points, total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, result.round_no, seat, " ".join(c.code for c in hand), *numbers)
                for seat, (hand, *numbers) in enumerate(
                    zip(
                        result.hands,
                        result.hand_values,
                        result.placed_values,
                        result.points,
                        result.totals,
                        strict=True,
                    )
                )
            ],
        )

    async def finish_game(self, game_id: int, results: Sequence[SeatResult], at: datetime) -> int:
        """Mark the game finished, store its standings and feed the league; returns the
        season."""
        await self._update_one(
            "UPDATE games SET status = 'finished', finished_at = ?"
            " WHERE id = ? AND status = 'active'",
            (to_db_time(at), game_id),
            game_id,
            "active",
        )
        await self._conn.executemany(
            "INSERT INTO standings (game_id, seat, place, score, rounds_won)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, r.seat, r.place, r.score, r.rounds_won) for r in results],
        )
        return await self._record_game(game_id, at)

    async def abandon_game(self, game_id: int, at: datetime) -> GameStatus:
        """End a live game without a result: a lobby is cancelled (no history at all), a
        dealt game abandoned (in the history, never in the league). Returns the new status."""
        await self._update_one(
            "UPDATE games SET status = CASE status WHEN 'lobby' THEN 'cancelled'"
            " ELSE 'abandoned' END, finished_at = ? WHERE id = ? AND status IN ('lobby', 'active')",
            (to_db_time(at), game_id),
            game_id,
            "live",
        )
        rows = await self._conn.execute_fetchall(
            "SELECT status FROM games WHERE id = ?", (game_id,)
        )
        return GameStatus(next(iter(rows))[0])

    async def move_game(self, game_id: int, channel_id: int) -> None:
        """The lobby moves from the channel of its message into ``channel_id`` (a thread
        started from that message), once and before the deal; the lobby's channel is kept.
        Another live game there: :class:`DuplicateLiveGame`."""
        try:
            await self._update_one(
                "UPDATE games SET lobby_channel_id = channel_id, channel_id = ?"
                " WHERE id = ? AND status = 'lobby' AND lobby_channel_id IS NULL",
                (channel_id, game_id),
                game_id,
                "a lobby in the channel of its message",
            )
        except Exception as error:
            if self._dialect.live_game_clash(error):
                raise DuplicateLiveGame(channel_id) from None
            raise

    async def set_deadline(self, game_id: int, deadline: Deadline | None) -> None:
        """Store the running turn's deadline, or (None) that no timer runs: as the time it
        has left by this process's clock, and when that was by the database's (see
        ``_deadlines``)."""
        if deadline is None:
            await self._conn.execute("DELETE FROM turn_deadlines WHERE game_id = ?", (game_id,))
            return
        left = (deadline.at - utc_now()).total_seconds()
        await self._conn.execute(
            "INSERT INTO turn_deadlines (game_id, turn, player, seconds_left, stored_at, reminded)"
            f" VALUES (?, ?, ?, ?, {self._dialect.clock}, ?) ON CONFLICT (game_id) DO UPDATE"
            " SET turn = excluded.turn, player = excluded.player,"
            " seconds_left = excluded.seconds_left, stored_at = excluded.stored_at,"
            " reminded = excluded.reminded",
            (game_id, deadline.turn, deadline.player, left, int(deadline.reminded)),
        )

    async def set_stand_in(
        self, game_id: int, player_id: str, missed: int, stand_in: str | None
    ) -> None:
        """A person's missed turns in a row, and the computer holding their seat (if any)."""
        await self._update_one(
            "UPDATE seats SET missed = ?, stand_in = ? WHERE game_id = ? AND player_id = ?"
            " AND kind = 'human'",
            (missed, stand_in, game_id, player_id),
            game_id,
            "a person's seat",
        )

    async def seat_left(self, game_id: int, seat: Seat, level: str) -> None:
        """The person in ``seat`` left the running game: a computer player of ``level``
        plays the seat from now on, and the person is kept as a leaver (a league forfeit)."""
        if seat.user_id is None:
            raise ValueError("only a person's seat can be left")
        await self._conn.execute(
            "INSERT INTO leavers (game_id, user_id, seat, display_name) VALUES (?, ?, ?, ?)",
            (game_id, seat.user_id, seat.seat, seat.display_name),
        )
        await self._update_one(
            "UPDATE seats SET kind = 'computer', user_id = NULL, level = ?, missed = 0,"
            " stand_in = NULL, assisted = 1 WHERE game_id = ? AND seat = ? AND user_id = ?",
            (level, game_id, seat.seat, seat.user_id),
            game_id,
            "a person's seat",
        )

    async def seat_taken(self, game_id: int, seat: int, user_id: int, display_name: str) -> None:
        """A person took over the computer player's ``seat`` for the rest of the game."""
        await self._update_one(
            "UPDATE seats SET kind = 'human', user_id = ?, display_name = ?, level = NULL,"
            " missed = 0, stand_in = NULL, assisted = 1"
            " WHERE game_id = ? AND seat = ? AND kind = 'computer'",
            (user_id, display_name, game_id, seat),
            game_id,
            "a computer's seat",
        )

    async def mark_assisted(self, game_id: int, player_id: str) -> None:
        """A computer moved for a person's seat (see ``Seat.assisted``)."""
        await self._conn.execute(
            "UPDATE seats SET assisted = 1 WHERE game_id = ? AND player_id = ?",
            (game_id, player_id),
        )

    async def load_game(self, game_id: int) -> GameRecord | None:
        records = await self._records(await self._conn.execute_fetchall(_GAME_BY_ID, (game_id,)))
        return records[0] if records else None

    async def live_games(self, guild_ids: Collection[int] | None = None) -> list[GameRecord]:
        """Every lobby and game in play, oldest first (only those of ``guild_ids`` if given):
        what a process loads back at start-up for the servers it serves."""
        if guild_ids is None:
            rows = await self._conn.execute_fetchall(_LIVE_GAMES)
        else:
            rows = await self._conn.execute_fetchall(
                f"{_GAME_COLUMNS} WHERE status IN ('lobby', 'active')"
                f" AND guild_id IN ({self._dialect.ids}) ORDER BY id",
                (dump_json(list(guild_ids)),),
            )
        return await self._records(rows)

    async def live_games_of_shards(
        self, shard_count: int, shard_ids: Collection[int]
    ) -> list[GameRecord]:
        """Every lobby and game in play whose server Discord routes to one of ``shard_ids``
        (``(guild_id >> 22) % shard_count``), oldest first: what a process that runs those
        shards loads, at start-up or when it takes them over. The rule is written in SQL
        both SQLite and PostgreSQL read, so no other process's games are read at all."""
        ids = sorted(set(shard_ids))
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        rows = await self._conn.execute_fetchall(
            _GAME_COLUMNS + " WHERE status IN ('lobby', 'active')"
            f" AND {_SHARD_OF} IN ({marks}) ORDER BY id",
            (shard_count, shard_count, *ids),
        )
        return await self._records(rows)

    async def active_games(self) -> list[GameRecord]:
        """Every dealt game still being played, oldest first."""
        return [r for r in await self.live_games() if r.status is GameStatus.ACTIVE]

    async def live_game_in_channel(self, channel_id: int) -> GameRecord | None:
        records = await self._records(
            await self._conn.execute_fetchall(_LIVE_GAME_OF_CHANNEL, (channel_id,))
        )
        return records[0] if records else None

    async def live_games_with_user(
        self, user_id: int, shard_count: int = 1
    ) -> list[tuple[int, int, GameStatus]]:
        """The lobbies and games in play ``user_id`` sits in: (id, shard of its server among
        ``shard_count``, status), by id."""
        rows = await self._conn.execute_fetchall(
            f"SELECT DISTINCT g.id, {_SHARD_OF} AS shard, g.status"
            " FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status IN ('lobby', 'active') AND s.user_id = ? ORDER BY g.id",
            (shard_count, shard_count, user_id),
        )
        return [(int(row[0]), int(row[1]), GameStatus(row[2])) for row in rows]

    async def game_actions(self, game_id: int) -> list[dict[str, Any]]:
        """The action log as stored (``action_to_json`` values), in the order it was played."""
        return (await self.game_logs([game_id])).get(game_id, [])

    async def game_logs(self, game_ids: Collection[int]) -> dict[int, list[dict[str, Any]]]:
        """The action logs of several games in one query; each log is decoded as one JSON
        document, which is several times faster than decoding row by row at start-up."""
        texts: dict[int, list[str]] = {game_id: [] for game_id in game_ids}
        if not texts:
            return {}
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, action FROM actions"
            f" WHERE game_id IN ({self._dialect.ids}) ORDER BY game_id, seq",
            (dump_json(list(texts)),),
        )
        for game_id, action in rows:
            texts[game_id].append(action)
        return {
            game_id: json.loads("[" + ",".join(parts) + "]") for game_id, parts in texts.items()
        }

    async def _records(self, rows: Iterable[Any]) -> list[GameRecord]:
        rows = list(rows)
        seats = await self._seats([int(row["id"]) for row in rows])
        deadlines = await self._deadlines([int(row["id"]) for row in rows])
        leavers = await self._leavers([int(row["id"]) for row in rows])
        return [
            GameRecord(
                id=row["id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                host_id=row["host_id"],
                ruleset=json.loads(row["ruleset"]),
                seed=row["seed"],
                status=GameStatus(row["status"]),
                created_at=required_time(row["created_at"]),
                finished_at=from_db_time(row["finished_at"]),
                season=row["season"],
                action_count=row["action_count"],
                seats=tuple(seats[row["id"]]),
                snapshot=row["snapshot"],
                turn_timer=row["turn_timer"],
                deadline=deadlines.get(row["id"]),
                lobby_channel_id=row["lobby_channel_id"],
                leavers=tuple(leavers.get(row["id"], ())),
                touched_at=from_db_time(row["touched_at"]),
                rematch_id=row["rematch_id"],
                open_seats=bool(row["open_seats"]),
            )
            for row in rows
        ]

    async def _seats(self, game_ids: Iterable[int]) -> dict[int, list[Seat]]:
        ids = list(game_ids)
        by_game: dict[int, list[Seat]] = defaultdict(list)
        if not ids:
            return by_game
        # One query for all games: start-up loads a thousand.
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, seat, player_id, kind, user_id, display_name, level, missed,"
            " stand_in, assisted FROM seats"
            f" WHERE game_id IN ({self._dialect.ids}) ORDER BY game_id, seat",
            (dump_json(ids),),
        )
        for row in rows:
            by_game[row["game_id"]].append(
                Seat(
                    seat=row["seat"],
                    player_id=row["player_id"],
                    kind=SeatKind(row["kind"]),
                    user_id=row["user_id"],
                    display_name=row["display_name"],
                    level=row["level"],
                    missed=row["missed"],
                    stand_in=row["stand_in"],
                    assisted=bool(row["assisted"]),
                )
            )
        return by_game

    async def _leavers(self, game_ids: Iterable[int]) -> dict[int, list[int]]:
        ids = list(game_ids)
        by_game: dict[int, list[int]] = defaultdict(list)
        if not ids:
            return by_game
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, user_id FROM leavers"
            f" WHERE game_id IN ({self._dialect.ids}) ORDER BY game_id, seat, user_id",
            (dump_json(ids),),
        )
        for row in rows:
            by_game[row["game_id"]].append(int(row["user_id"]))
        return by_game

    async def _deadlines(self, game_ids: Iterable[int]) -> dict[int, Deadline]:
        """The stored deadlines, each as a moment of this process's clock: the time it had
        left, less what has passed since by the database's clock (never more than it had,
        should that clock have been set back), from now."""
        ids = list(game_ids)
        if not ids:
            return {}
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, turn, player, seconds_left, reminded,"
            f" seconds_left - ({self._dialect.clock} - stored_at) AS left_now"
            f" FROM turn_deadlines WHERE game_id IN ({self._dialect.ids})",
            (dump_json(ids),),
        )
        now = utc_now()
        return {
            int(row["game_id"]): Deadline(
                row["turn"],
                row["player"],
                now + timedelta(seconds=min(float(row["left_now"]), float(row["seconds_left"]))),
                bool(row["reminded"]),
            )
            for row in rows
        }
