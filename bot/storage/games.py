"""The game repository: lobbies, tables, their action logs and snapshots, rounds and final
standings.

Every function takes the connection of a transaction opened by the caller (through
:meth:`bot.storage.database.Database.unit`), so one action, the rounds it ended and the
league update of a finished game are committed together or not at all. Every query is a
fixed text: the only values that vary are bound parameters.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from bot.rummy.views import RoundResult
from bot.storage import league
from bot.storage.errors import DuplicateLiveGame, GameChanged, StorageError
from bot.storage.models import (
    Deadline,
    GameRecord,
    GameStatus,
    GameSummary,
    HistorySeat,
    Seat,
    SeatKind,
    SeatResult,
    from_db_time,
    to_db_time,
)

__all__ = ["StorageError"]


def dump_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def create_game(
    conn: aiosqlite.Connection,
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
) -> GameRecord:
    """Store a new lobby (no snapshot) or dealt game; the channel must have no live game
    (else :class:`DuplicateLiveGame`)."""
    if status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
        raise ValueError("a new game is a lobby or a dealt game")
    try:
        cursor = await conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, status,"
            " created_at, snapshot, turn_timer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ),
        )
    except sqlite3.IntegrityError as error:
        if "games.channel_id" in str(error):
            raise DuplicateLiveGame(channel_id) from None
        raise
    game_id = cursor.lastrowid
    await cursor.close()
    assert game_id is not None
    await _insert_seats(conn, game_id, seats)
    record = await load_game(conn, game_id)
    assert record is not None
    return record


async def _insert_seats(conn: aiosqlite.Connection, game_id: int, seats: Sequence[Seat]) -> None:
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, player_id, kind, user_id, display_name, level)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, s.seat, s.player_id, s.kind.value, s.user_id, s.display_name, s.level)
            for s in seats
        ],
    )


async def update_lobby(
    conn: aiosqlite.Connection, game_id: int, host_id: int | None, seats: Sequence[Seat]
) -> None:
    """Replace a lobby's seats and host (someone joined, left or was kicked)."""
    await _update_one(
        conn,
        "UPDATE games SET host_id = ? WHERE id = ? AND status = 'lobby'",
        (host_id, game_id),
        game_id,
        "a lobby",
    )
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await _insert_seats(conn, game_id, seats)


async def start_game(conn: aiosqlite.Connection, game_id: int, seed: int, snapshot: str) -> None:
    """Turn a lobby into a dealt game (its seats are final from now on)."""
    await _update_one(
        conn,
        "UPDATE games SET status = 'active', seed = ?, snapshot = ?, action_count = 0"
        " WHERE id = ? AND status = 'lobby'",
        (seed, snapshot, game_id),
        game_id,
        "a lobby",
    )


async def append_action(
    conn: aiosqlite.Connection,
    game_id: int,
    seq: int,
    action: dict[str, Any],
    snapshot: str,
    at: datetime,
) -> None:
    """Append action number ``seq`` (1-based) to the log and store the snapshot after it.

    The update is conditional on the log having exactly ``seq - 1`` actions, so a gap, a
    duplicate or an action on a game that is no longer active raises :class:`GameChanged`.
    """
    await _update_one(
        conn,
        "UPDATE games SET action_count = ?, snapshot = ?"
        " WHERE id = ? AND action_count = ? AND status = 'active'",
        (seq, snapshot, game_id, seq - 1),
        game_id,
        f"active at action {seq - 1}",
    )
    await conn.execute(
        "INSERT INTO actions (game_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
        (game_id, seq, dump_json(action), to_db_time(at)),
    )


async def record_round(
    conn: aiosqlite.Connection, game_id: int, result: RoundResult, players: Sequence[str]
) -> None:
    ender = None if result.ender is None else players.index(result.ender)
    await conn.execute(
        "INSERT INTO rounds (game_id, round_no, reason, ender_seat) VALUES (?, ?, ?, ?)",
        (game_id, result.round_no, result.reason.value, ender),
    )
    await conn.executemany(
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


async def finish_game(
    conn: aiosqlite.Connection, game_id: int, results: Sequence[SeatResult], at: datetime
) -> int:
    """Mark the game finished, store its standings and feed the league; returns the season."""
    await _update_one(
        conn,
        "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ? AND status = 'active'",
        (to_db_time(at), game_id),
        game_id,
        "active",
    )
    await conn.executemany(
        "INSERT INTO standings (game_id, seat, place, score, rounds_won) VALUES (?, ?, ?, ?, ?)",
        [(game_id, r.seat, r.place, r.score, r.rounds_won) for r in results],
    )
    return await league.record_game(conn, game_id, at)


async def abandon_game(conn: aiosqlite.Connection, game_id: int, at: datetime) -> GameStatus:
    """End a live game without a result: a lobby is cancelled (no history at all), a dealt
    game abandoned (in the history, never in the league). Returns the new status."""
    await _update_one(
        conn,
        "UPDATE games SET status = CASE status WHEN 'lobby' THEN 'cancelled'"
        " ELSE 'abandoned' END, finished_at = ? WHERE id = ? AND status IN ('lobby', 'active')",
        (to_db_time(at), game_id),
        game_id,
        "live",
    )
    rows = await conn.execute_fetchall("SELECT status FROM games WHERE id = ?", (game_id,))
    return GameStatus(next(iter(rows))[0])


async def _update_one(
    conn: aiosqlite.Connection,
    sql: str,
    params: tuple[Any, ...],
    game_id: int,
    expected: str,
) -> None:
    cursor = await conn.execute(sql, params)
    updated = cursor.rowcount
    await cursor.close()
    if updated != 1:
        raise GameChanged(game_id, expected)


_GAME_COLUMNS = (
    "SELECT id, guild_id, channel_id, host_id, ruleset, seed, status, created_at, finished_at,"
    " season, action_count, snapshot, turn_timer FROM games"
)
_GAME_BY_ID = _GAME_COLUMNS + " WHERE id = ?"
_LIVE_GAMES = _GAME_COLUMNS + " WHERE status IN ('lobby', 'active') ORDER BY id"
_LIVE_GAMES_OF_GUILDS = (
    _GAME_COLUMNS + " WHERE status IN ('lobby', 'active')"
    " AND guild_id IN (SELECT value FROM json_each(?)) ORDER BY id"
)
_LIVE_GAME_OF_CHANNEL = _GAME_COLUMNS + " WHERE status IN ('lobby', 'active') AND channel_id = ?"


async def load_game(conn: aiosqlite.Connection, game_id: int) -> GameRecord | None:
    records = await _records(conn, await conn.execute_fetchall(_GAME_BY_ID, (game_id,)))
    return records[0] if records else None


async def live_games(
    conn: aiosqlite.Connection, guild_ids: Collection[int] | None = None
) -> list[GameRecord]:
    """Every lobby and game in play, oldest first (only those of ``guild_ids`` if given):
    what a process loads back at start-up for the servers it serves."""
    if guild_ids is None:
        rows = await conn.execute_fetchall(_LIVE_GAMES)
    else:
        rows = await conn.execute_fetchall(_LIVE_GAMES_OF_GUILDS, (dump_json(list(guild_ids)),))
    return await _records(conn, rows)


async def active_games(conn: aiosqlite.Connection) -> list[GameRecord]:
    """Every dealt game still being played, oldest first."""
    return [r for r in await live_games(conn) if r.status is GameStatus.ACTIVE]


async def live_game_in_channel(conn: aiosqlite.Connection, channel_id: int) -> GameRecord | None:
    records = await _records(
        conn, await conn.execute_fetchall(_LIVE_GAME_OF_CHANNEL, (channel_id,))
    )
    return records[0] if records else None


async def live_game_ids_with_user(conn: aiosqlite.Connection, user_id: int) -> list[int]:
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE g.status IN ('lobby', 'active') AND s.user_id = ? ORDER BY g.id",
        (user_id,),
    )
    return [int(row[0]) for row in rows]


async def game_actions(conn: aiosqlite.Connection, game_id: int) -> list[dict[str, Any]]:
    """The action log as stored (``action_to_json`` values), in the order it was played."""
    return (await game_logs(conn, [game_id])).get(game_id, [])


async def game_logs(
    conn: aiosqlite.Connection, game_ids: Collection[int]
) -> dict[int, list[dict[str, Any]]]:
    """The action logs of several games in one query; each log is decoded as one JSON
    document, which is several times faster than decoding row by row at start-up."""
    texts: dict[int, list[str]] = {game_id: [] for game_id in game_ids}
    if not texts:
        return {}
    rows = await conn.execute_fetchall(
        "SELECT game_id, action FROM actions"
        " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seq",
        (dump_json(list(texts)),),
    )
    for game_id, action in rows:
        texts[game_id].append(action)
    return {game_id: json.loads("[" + ",".join(parts) + "]") for game_id, parts in texts.items()}


active_logs = game_logs


async def _records(conn: aiosqlite.Connection, rows: Iterable[Any]) -> list[GameRecord]:
    rows = list(rows)
    seats = await _seats(conn, [int(row["id"]) for row in rows])
    deadlines = await _deadlines(conn, [int(row["id"]) for row in rows])
    return [
        GameRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            ruleset=json.loads(row["ruleset"]),
            seed=row["seed"],
            status=GameStatus(row["status"]),
            created_at=_required_time(row["created_at"]),
            finished_at=from_db_time(row["finished_at"]),
            season=row["season"],
            action_count=row["action_count"],
            seats=tuple(seats[row["id"]]),
            snapshot=row["snapshot"],
            turn_timer=row["turn_timer"],
            deadline=deadlines.get(row["id"]),
        )
        for row in rows
    ]


async def _seats(conn: aiosqlite.Connection, game_ids: Iterable[int]) -> dict[int, list[Seat]]:
    ids = list(game_ids)
    by_game: dict[int, list[Seat]] = defaultdict(list)
    if not ids:
        return by_game
    # One query for all games: start-up loads a thousand.
    rows = await conn.execute_fetchall(
        "SELECT game_id, seat, player_id, kind, user_id, display_name, level, missed, stand_in"
        " FROM seats"
        " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat",
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
            )
        )
    return by_game


async def _deadlines(conn: aiosqlite.Connection, game_ids: Iterable[int]) -> dict[int, Deadline]:
    ids = list(game_ids)
    if not ids:
        return {}
    rows = await conn.execute_fetchall(
        "SELECT game_id, turn, player, deadline, reminded FROM turn_deadlines"
        " WHERE game_id IN (SELECT value FROM json_each(?))",
        (dump_json(ids),),
    )
    return {
        int(row["game_id"]): Deadline(
            row["turn"], row["player"], _required_time(row["deadline"]), bool(row["reminded"])
        )
        for row in rows
    }


async def set_deadline(conn: aiosqlite.Connection, game_id: int, deadline: Deadline | None) -> None:
    """Store the running turn's deadline, or (None) that no timer runs."""
    if deadline is None:
        await conn.execute("DELETE FROM turn_deadlines WHERE game_id = ?", (game_id,))
        return
    await conn.execute(
        "INSERT INTO turn_deadlines (game_id, turn, player, deadline, reminded)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn,"
        " player = excluded.player, deadline = excluded.deadline, reminded = excluded.reminded",
        (
            game_id,
            deadline.turn,
            deadline.player,
            to_db_time(deadline.at),
            int(deadline.reminded),
        ),
    )


async def set_stand_in(
    conn: aiosqlite.Connection, game_id: int, player_id: str, missed: int, stand_in: str | None
) -> None:
    """A person's missed turns in a row, and the computer holding their seat (if any)."""
    await _update_one(
        conn,
        "UPDATE seats SET missed = ?, stand_in = ? WHERE game_id = ? AND player_id = ?"
        " AND kind = 'human'",
        (missed, stand_in, game_id, player_id),
        game_id,
        "a person's seat",
    )


def _required_time(text: str) -> datetime:
    moment = from_db_time(text)
    assert moment is not None
    return moment


async def recent_games(
    conn: aiosqlite.Connection, guild_id: int, user_id: int | None = None, limit: int = 10
) -> list[GameSummary]:
    """Finished and abandoned games of a server, newest first; only ``user_id``'s if given."""
    games = list(
        await conn.execute_fetchall(
            "SELECT id, guild_id, channel_id, json_extract(ruleset, '$.name') AS ruleset_name,"
            " status, created_at, finished_at, season FROM games"
            " WHERE guild_id = :guild AND status IN ('finished', 'abandoned')"
            " AND (:user IS NULL OR id IN (SELECT game_id FROM seats WHERE user_id = :user))"
            " ORDER BY finished_at DESC, id DESC LIMIT :limit",
            {"guild": guild_id, "user": user_id, "limit": limit},
        )
    )
    ids = [int(row["id"]) for row in games]
    seats: dict[int, list[HistorySeat]] = defaultdict(list)
    rows = await conn.execute_fetchall(
        "SELECT s.game_id, s.seat, s.kind, s.user_id, s.display_name, t.place, t.score"
        " FROM seats s LEFT JOIN standings t ON t.game_id = s.game_id AND t.seat = s.seat"
        " WHERE s.game_id IN (SELECT value FROM json_each(?)) ORDER BY s.game_id, s.seat",
        (dump_json(ids),),
    )
    for row in rows:
        seats[row["game_id"]].append(
            HistorySeat(
                seat=row["seat"],
                kind=SeatKind(row["kind"]),
                user_id=row["user_id"],
                display_name=row["display_name"],
                place=row["place"],
                score=row["score"],
            )
        )
    return [
        GameSummary(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            ruleset_name=row["ruleset_name"],
            status=GameStatus(row["status"]),
            created_at=_required_time(row["created_at"]),
            finished_at=from_db_time(row["finished_at"]),
            season=row["season"],
            seats=tuple(seats[row["id"]]),
        )
        for row in games
    ]
