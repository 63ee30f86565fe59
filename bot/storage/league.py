"""The per-server league: seasons, each player's running figures, and skill ratings.

Figures are updated once, in the transaction that finishes a game, and read as stored;
nothing here replays logs. What counts:

- a finished game counts for every human seat in it (games, wins, rounds won, points for
  and against, finishing place), also when computer players sat at the table — places are
  taken among all seats;
- ratings (openskill Plackett-Luce, ties passed as shared ranks) change only for games
  between humans alone, since beating a program says little about a person's skill;
- an abandoned game counts for nothing.

A win is a first place (tied first places are all wins). Points for are the player's own
final score and points against the other seats' final scores added up, in the game's own
scoring (so with negative scoring, points for are penalty points).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite
from openskill.models import PlackettLuce

from bot.storage.models import LeagueEntry, Season, StandingsPage, from_db_time, to_db_time

MODEL = PlackettLuce()
"""The rating model; its defaults (mu 25, sigma 25/3) are every newcomer's rating."""


async def current_season(conn: aiosqlite.Connection, guild_id: int) -> Season | None:
    rows = await conn.execute_fetchall(
        "SELECT guild_id, number, started_at FROM seasons WHERE guild_id = ?"
        " ORDER BY number DESC LIMIT 1",
        (guild_id,),
    )
    return next((_season(row) for row in rows), None)


async def start_season(conn: aiosqlite.Connection, guild_id: int, at: datetime) -> Season:
    """Open the server's next season; standings and ratings start again from nothing."""
    previous = await current_season(conn, guild_id)
    number = 1 if previous is None else previous.number + 1
    await conn.execute(
        "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
        (guild_id, number, to_db_time(at)),
    )
    return Season(guild_id, number, at)


def _season(row: Any) -> Season:
    started = from_db_time(row["started_at"])
    assert started is not None
    return Season(row["guild_id"], row["number"], started)


async def record_game(conn: aiosqlite.Connection, game_id: int, at: datetime) -> int:
    """Count a finished game (whose standings are stored) in its server's current season.

    A server's first finished game opens its first season. Returns the season number.
    """
    rows = await conn.execute_fetchall("SELECT guild_id FROM games WHERE id = ?", (game_id,))
    guild_id = int(next(iter(rows))["guild_id"])
    season = await current_season(conn, guild_id) or await start_season(conn, guild_id, at)
    await conn.execute("UPDATE games SET season = ? WHERE id = ?", (season.number, game_id))
    seats = list(
        await conn.execute_fetchall(
            "SELECT s.kind, s.user_id, s.display_name, t.place, t.score, t.rounds_won"
            " FROM seats s JOIN standings t ON t.game_id = s.game_id AND t.seat = s.seat"
            " WHERE s.game_id = ? ORDER BY s.seat",
            (game_id,),
        )
    )
    total = sum(int(row["score"]) for row in seats)
    humans = [row for row in seats if row["kind"] == "human" and row["user_id"] is not None]
    await conn.executemany(
        "INSERT INTO league_players (guild_id, season, user_id, display_name, games, wins,"
        " rounds_won, points_for, points_against, place_sum, mu, sigma)"
        " VALUES (:guild, :season, :user, :name, 1, :win, :rounds, :score, :against, :place,"
        " :mu, :sigma)"
        " ON CONFLICT (guild_id, season, user_id) DO UPDATE SET"
        " display_name = excluded.display_name, games = games + 1,"
        " wins = wins + excluded.wins, rounds_won = rounds_won + excluded.rounds_won,"
        " points_for = points_for + excluded.points_for,"
        " points_against = points_against + excluded.points_against,"
        " place_sum = place_sum + excluded.place_sum",
        [
            {
                "guild": guild_id,
                "season": season.number,
                "user": row["user_id"],
                "name": row["display_name"],
                "win": int(row["place"] == 1),
                "rounds": row["rounds_won"],
                "score": row["score"],
                "against": total - row["score"],
                "place": row["place"],
                "mu": MODEL.mu,
                "sigma": MODEL.sigma,
            }
            for row in humans
        ],
    )
    if len(humans) == len(seats) >= 2:
        await _rate(
            conn,
            guild_id,
            season.number,
            [int(row["user_id"]) for row in humans],
            [int(row["place"]) for row in humans],
        )
    return season.number


async def _rate(
    conn: aiosqlite.Connection,
    guild_id: int,
    season: int,
    users: Sequence[int],
    places: Sequence[int],
) -> None:
    key = {"guild": guild_id, "season": season}
    before = {
        int(row["user_id"]): MODEL.rating(mu=row["mu"], sigma=row["sigma"])
        for row in await conn.execute_fetchall(
            "SELECT user_id, mu, sigma FROM league_players"
            " WHERE guild_id = :guild AND season = :season",
            key,
        )
        if int(row["user_id"]) in users
    }
    after = MODEL.rate([[before[user]] for user in users], ranks=[float(p) for p in places])
    await conn.executemany(
        "UPDATE league_players SET mu = :mu, sigma = :sigma, rated_games = rated_games + 1"
        " WHERE guild_id = :guild AND season = :season AND user_id = :user",
        [
            {**key, "user": user, "mu": team[0].mu, "sigma": team[0].sigma}
            for user, team in zip(users, after, strict=True)
        ],
    )


# Best rating first; on equal ratings more wins, then more games; the user id only makes
# the order total, so pages never overlap.
_RANKED = (
    "SELECT *, ROW_NUMBER() OVER (ORDER BY mu - 3 * sigma DESC, wins DESC, games DESC,"
    " user_id) AS rank FROM league_players WHERE guild_id = :guild AND season = :season"
)


async def standings(
    conn: aiosqlite.Connection,
    guild_id: int,
    page: int = 1,
    page_size: int = 10,
    season: int | None = None,
) -> StandingsPage:
    """One page of a season's table (default: the current season)."""
    if page_size < 1:
        raise ValueError("page_size must be at least 1")
    number = await _season_number(conn, guild_id, season)
    if number is None:
        return StandingsPage(None, 1, page_size, 1, 0, ())
    key = {"guild": guild_id, "season": number}
    count_rows = await conn.execute_fetchall(
        "SELECT count(*) FROM league_players WHERE guild_id = :guild AND season = :season", key
    )
    total = int(next(iter(count_rows))[0])
    total_pages = max(1, math.ceil(total / page_size))
    page = min(max(page, 1), total_pages)
    rows = await conn.execute_fetchall(
        f"{_RANKED} ORDER BY rank LIMIT :limit OFFSET :offset",
        {**key, "limit": page_size, "offset": (page - 1) * page_size},
    )
    return StandingsPage(
        number, page, page_size, total_pages, total, tuple(_entry(row) for row in rows)
    )


async def player_card(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, season: int | None = None
) -> LeagueEntry | None:
    """A player's figures and place in a season's table; None if they have not played in it."""
    number = await _season_number(conn, guild_id, season)
    if number is None:
        return None
    rows = await conn.execute_fetchall(
        f"SELECT * FROM ({_RANKED}) WHERE user_id = :user",
        {"guild": guild_id, "season": number, "user": user_id},
    )
    return next((_entry(row) for row in rows), None)


async def _season_number(
    conn: aiosqlite.Connection, guild_id: int, season: int | None
) -> int | None:
    if season is not None:
        return season
    current = await current_season(conn, guild_id)
    return None if current is None else current.number


def _entry(row: Any) -> LeagueEntry:
    return LeagueEntry(
        guild_id=row["guild_id"],
        season=row["season"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        rank=row["rank"],
        games=row["games"],
        wins=row["wins"],
        rounds_won=row["rounds_won"],
        points_for=row["points_for"],
        points_against=row["points_against"],
        place_sum=row["place_sum"],
        rated_games=row["rated_games"],
        mu=row["mu"],
        sigma=row["sigma"],
    )
