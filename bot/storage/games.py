"""The game repository: tables, their action logs and snapshots, rounds and final standings.

Every function takes the connection of a transaction opened by the caller
(``async with db.transaction() as conn``), so one action, the rounds it ended and the
league update of a finished game are committed together or not at all.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from bot.rummy.views import RoundResult
from bot.storage import league
from bot.storage.models import (
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


class StorageError(RuntimeError):
    """The stored state disagrees with what the caller expected: a bug, never a player's doing."""


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
    snapshot: str,
    at: datetime,
) -> GameRecord:
    """Store a new active game; the channel must not have another active game."""
    ruleset_json = dump_json(ruleset)
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, created_at, snapshot)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, host_id, ruleset_json, seed, to_db_time(at), snapshot),
    )
    game_id = cursor.lastrowid
    await cursor.close()
    assert game_id is not None
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, player_id, kind, user_id, display_name)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.player_id, s.kind.value, s.user_id, s.display_name) for s in seats],
    )
    record = await load_game(conn, game_id)
    assert record is not None
    return record


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
    duplicate or an action on a game that is no longer active is refused loudly.
    """
    cursor = await conn.execute(
        "UPDATE games SET action_count = ?, snapshot = ?"
        " WHERE id = ? AND action_count = ? AND status = 'active'",
        (seq, snapshot, game_id, seq - 1),
    )
    updated = cursor.rowcount
    await cursor.close()
    if updated != 1:
        raise StorageError(f"game {game_id} is not active at action {seq - 1}")
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
    await _end(conn, game_id, GameStatus.FINISHED, at)
    await conn.executemany(
        "INSERT INTO standings (game_id, seat, place, score, rounds_won) VALUES (?, ?, ?, ?, ?)",
        [(game_id, r.seat, r.place, r.score, r.rounds_won) for r in results],
    )
    return await league.record_game(conn, game_id, at)


async def abandon_game(conn: aiosqlite.Connection, game_id: int, at: datetime) -> None:
    """Mark an active game abandoned: it stays in the history and never counts in the league."""
    await _end(conn, game_id, GameStatus.ABANDONED, at)


async def _end(conn: aiosqlite.Connection, game_id: int, status: GameStatus, at: datetime) -> None:
    cursor = await conn.execute(
        "UPDATE games SET status = ?, finished_at = ? WHERE id = ? AND status = 'active'",
        (status.value, to_db_time(at), game_id),
    )
    updated = cursor.rowcount
    await cursor.close()
    if updated != 1:
        raise StorageError(f"game {game_id} is not active")


async def load_game(conn: aiosqlite.Connection, game_id: int) -> GameRecord | None:
    records = await _records(conn, "WHERE id = ?", (game_id,))
    return records[0] if records else None


async def active_games(conn: aiosqlite.Connection) -> list[GameRecord]:
    """Every game still being played, oldest first: what start-up loads back."""
    return await _records(conn, "WHERE status = 'active'", ())


async def active_game_ids_with_user(conn: aiosqlite.Connection, user_id: int) -> list[int]:
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE g.status = 'active' AND s.user_id = ? ORDER BY g.id",
        (user_id,),
    )
    return [int(row[0]) for row in rows]


async def game_actions(conn: aiosqlite.Connection, game_id: int) -> list[dict[str, Any]]:
    """The action log as stored (``action_to_json`` values), in the order it was played."""
    return (await active_logs(conn, [game_id])).get(game_id, [])


async def active_logs(
    conn: aiosqlite.Connection, game_ids: list[int]
) -> dict[int, list[dict[str, Any]]]:
    """The action logs of several games in one query; each log is decoded as one JSON
    document, which is several times faster than decoding row by row at start-up."""
    texts: dict[int, list[str]] = {game_id: [] for game_id in game_ids}
    for start in range(0, len(game_ids), 500):
        chunk = game_ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = await conn.execute_fetchall(
            f"SELECT game_id, action FROM actions WHERE game_id IN ({marks}) ORDER BY game_id, seq",
            chunk,
        )
        for game_id, action in rows:
            texts[game_id].append(action)
    return {game_id: json.loads("[" + ",".join(parts) + "]") for game_id, parts in texts.items()}


async def _records(
    conn: aiosqlite.Connection, where: str, params: tuple[Any, ...]
) -> list[GameRecord]:
    rows = list(await conn.execute_fetchall(f"SELECT * FROM games {where} ORDER BY id", params))
    seats = await _seats(conn, [int(row["id"]) for row in rows])
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
        )
        for row in rows
    ]


async def _seats(conn: aiosqlite.Connection, game_ids: Iterable[int]) -> dict[int, list[Seat]]:
    ids = list(game_ids)
    by_game: dict[int, list[Seat]] = defaultdict(list)
    if not ids:
        return by_game
    # One query for all games (the ids are ours, integers): start-up loads a thousand.
    rows = await conn.execute_fetchall(
        "SELECT * FROM seats WHERE game_id IN (SELECT value FROM json_each(?))"
        " ORDER BY game_id, seat",
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
            )
        )
    return by_game


def _required_time(text: str) -> datetime:
    moment = from_db_time(text)
    assert moment is not None
    return moment


async def recent_games(
    conn: aiosqlite.Connection, guild_id: int, user_id: int | None = None, limit: int = 10
) -> list[GameSummary]:
    """Finished and abandoned games of a server, newest first; only ``user_id``'s if given."""
    only_user = (
        " AND id IN (SELECT game_id FROM seats WHERE user_id = :user)"
        if user_id is not None
        else ""
    )
    games = list(
        await conn.execute_fetchall(
            "SELECT id, guild_id, channel_id, json_extract(ruleset, '$.name') AS ruleset_name,"
            " status, created_at, finished_at, season FROM games"
            f" WHERE guild_id = :guild AND status != 'active'{only_user}"
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
