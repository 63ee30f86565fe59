"""The league's rows: seasons, each player's running figures and rating, and the history.

Figures are updated once, in the transaction that finishes a game, and read as stored;
nothing here replays logs. Whom a game counts for, what it adds and how ratings move are
the league's rules (:mod:`bot.values.league`); this part only reads and writes the rows.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.models import (
    GameStatus,
    GameSummary,
    HistorySeat,
    LeagueEntry,
    Season,
    StandingsPage,
    from_db_time,
    to_db_time,
)
from bot.storage.rows import Rows, dump_json, required_time
from bot.values import league
from bot.values.seats import SeatKind

# Best rating first; on equal ratings more wins, then more games; the user id only makes
# the order total, so pages never overlap.
_RANKED = (
    "SELECT *, ROW_NUMBER() OVER (ORDER BY mu - 3 * sigma DESC, wins DESC, games DESC,"
    " user_id) AS rank FROM league_players WHERE guild_id = :guild AND season = :season"
)


class LeagueRows(Rows):
    __slots__ = ()

    async def current_season(self, guild_id: int) -> Season | None:
        rows = await self._conn.execute_fetchall(
            "SELECT guild_id, number, started_at FROM seasons WHERE guild_id = ?"
            " ORDER BY number DESC LIMIT 1",
            (guild_id,),
        )
        return next((_season(row) for row in rows), None)

    async def start_season(self, guild_id: int, at: datetime) -> Season:
        """Open the server's next season; standings and ratings start again from nothing."""
        await self._lock_league(guild_id)
        previous = await self.current_season(guild_id)
        number = 1 if previous is None else previous.number + 1
        await self._conn.execute(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
            (guild_id, number, to_db_time(at)),
        )
        return Season(guild_id, number, at)

    async def _record_game(self, game_id: int, at: datetime) -> int:
        """Count a finished game (whose standings are stored) in its server's current season.

        A server's first finished game opens its first season. Returns the season number.
        """
        rows = await self._conn.execute_fetchall(
            "SELECT guild_id FROM games WHERE id = ?", (game_id,)
        )
        guild_id = int(next(iter(rows))["guild_id"])
        await self._lock_league(guild_id)
        season = await self.current_season(guild_id) or await self.start_season(guild_id, at)
        await self._conn.execute(
            "UPDATE games SET season = ? WHERE id = ?", (season.number, game_id)
        )
        seats = [
            league.FinalSeat(
                kind=SeatKind(row["kind"]),
                user_id=row["user_id"],
                display_name=row["display_name"],
                place=row["place"],
                score=row["score"],
                rounds_won=row["rounds_won"],
                assisted=bool(row["assisted"]),
            )
            for row in await self._conn.execute_fetchall(
                "SELECT s.kind, s.user_id, s.display_name, s.assisted, t.place, t.score,"
                " t.rounds_won FROM seats s"
                " JOIN standings t ON t.game_id = s.game_id AND t.seat = s.seat"
                " WHERE s.game_id = ? ORDER BY s.seat",
                (game_id,),
            )
        ]
        leavers = [
            league.Leaver(int(row["user_id"]), row["display_name"])
            for row in await self._conn.execute_fetchall(
                "SELECT user_id, display_name FROM leavers WHERE game_id = ?"
                " ORDER BY seat, user_id",
                (game_id,),
            )
        ]
        credits = league.credits(seats)
        await self._conn.executemany(
            "INSERT INTO league_players (guild_id, season, user_id, display_name, games, wins,"
            " rounds_won, points_for, points_against, place_sum, forfeits, mu, sigma)"
            " VALUES (:guild, :season, :user, :name, 1, :win, :rounds, :score, :against, :place,"
            " :forfeit, :mu, :sigma)"
            # Qualified: on PostgreSQL a bare ``games`` could be the row or ``excluded``.
            " ON CONFLICT (guild_id, season, user_id) DO UPDATE SET"
            " display_name = excluded.display_name, games = league_players.games + 1,"
            " wins = league_players.wins + excluded.wins,"
            " rounds_won = league_players.rounds_won + excluded.rounds_won,"
            " points_for = league_players.points_for + excluded.points_for,"
            " points_against = league_players.points_against + excluded.points_against,"
            " place_sum = league_players.place_sum + excluded.place_sum,"
            " forfeits = league_players.forfeits + excluded.forfeits",
            [
                {
                    "guild": guild_id,
                    "season": season.number,
                    "user": credit.user_id,
                    "name": credit.display_name,
                    "win": credit.wins,
                    "rounds": credit.rounds_won,
                    "score": credit.points_for,
                    "against": credit.points_against,
                    "place": credit.place,
                    "forfeit": int(credit.forfeit),
                    "mu": league.NEWCOMER.mu,
                    "sigma": league.NEWCOMER.sigma,
                }
                for credit in (*credits, *league.forfeits(seats, leavers))
            ],
        )
        if league.is_rated(seats, leavers):
            await self._rate(guild_id, season.number, credits)
        return season.number

    async def _lock_league(self, guild_id: int) -> None:
        """Hold the server's league until the unit ends, so two games finishing together
        neither both open season 1 nor lose one's rating update (PostgreSQL reads what was
        committed before its statement; SQLite's write transactions never overlap)."""
        if self._dialect.league_lock is not None:
            await self._conn.execute(self._dialect.league_lock, (guild_id,))

    async def _rate(self, guild_id: int, season: int, credits: Sequence[league.Credit]) -> None:
        key = {"guild": guild_id, "season": season}
        users = [credit.user_id for credit in credits]
        before = {
            int(row["user_id"]): league.Rating(row["mu"], row["sigma"])
            for row in await self._conn.execute_fetchall(
                "SELECT user_id, mu, sigma FROM league_players"
                " WHERE guild_id = :guild AND season = :season",
                key,
            )
            if int(row["user_id"]) in users
        }
        after = league.rate([before[user] for user in users], [c.place for c in credits])
        await self._conn.executemany(
            "UPDATE league_players SET mu = :mu, sigma = :sigma, rated_games = rated_games + 1"
            " WHERE guild_id = :guild AND season = :season AND user_id = :user",
            [
                {**key, "user": user, "mu": rating.mu, "sigma": rating.sigma}
                for user, rating in zip(users, after, strict=True)
            ],
        )

    async def standings(
        self, guild_id: int, page: int = 1, page_size: int = 10, season: int | None = None
    ) -> StandingsPage:
        """One page of a season's table (default: the current season)."""
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        number = await self._season_number(guild_id, season)
        if number is None:
            return StandingsPage(None, 1, page_size, 1, 0, ())
        key = {"guild": guild_id, "season": number}
        count_rows = await self._conn.execute_fetchall(
            "SELECT count(*) FROM league_players WHERE guild_id = :guild AND season = :season",
            key,
        )
        total = int(next(iter(count_rows))[0])
        total_pages = max(1, math.ceil(total / page_size))
        page = min(max(page, 1), total_pages)
        rows = await self._conn.execute_fetchall(
            f"{_RANKED} ORDER BY rank LIMIT :limit OFFSET :offset",
            {**key, "limit": page_size, "offset": (page - 1) * page_size},
        )
        return StandingsPage(
            number, page, page_size, total_pages, total, tuple(_entry(row) for row in rows)
        )

    async def player_card(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> LeagueEntry | None:
        """A player's figures and place in a season's table; None if they have not played in
        it."""
        number = await self._season_number(guild_id, season)
        if number is None:
            return None
        rows = await self._conn.execute_fetchall(
            f"SELECT * FROM ({_RANKED}) AS ranked WHERE user_id = :user",
            {"guild": guild_id, "season": number, "user": user_id},
        )
        return next((_entry(row) for row in rows), None)

    async def _season_number(self, guild_id: int, season: int | None) -> int | None:
        if season is not None:
            return season
        current = await self.current_season(guild_id)
        return None if current is None else current.number

    async def recent_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """Finished and abandoned games of a server, newest first; only ``user_id``'s if
        given."""
        games = list(
            await self._conn.execute_fetchall(
                "SELECT id, guild_id, channel_id, ruleset, status, created_at, finished_at, season"
                " FROM games WHERE guild_id = :guild AND status IN ('finished', 'abandoned')"
                # Typed: PostgreSQL cannot tell the type of a parameter that is only NULL.
                " AND (CAST(:user AS BIGINT) IS NULL"
                " OR id IN (SELECT game_id FROM seats WHERE user_id = :user))"
                " ORDER BY finished_at DESC, id DESC LIMIT :limit",
                {"guild": guild_id, "user": user_id, "limit": limit},
            )
        )
        ids = [int(row["id"]) for row in games]
        seats: dict[int, list[HistorySeat]] = defaultdict(list)
        rows = await self._conn.execute_fetchall(
            "SELECT s.game_id, s.seat, s.kind, s.user_id, s.display_name, t.place, t.score"
            " FROM seats s LEFT JOIN standings t ON t.game_id = s.game_id AND t.seat = s.seat"
            f" WHERE s.game_id IN ({self._dialect.ids}) ORDER BY s.game_id, s.seat",
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
                ruleset_name=json.loads(row["ruleset"]).get("name"),
                status=GameStatus(row["status"]),
                created_at=required_time(row["created_at"]),
                finished_at=from_db_time(row["finished_at"]),
                season=row["season"],
                seats=tuple(seats[row["id"]]),
            )
            for row in games
        ]


def _season(row: Any) -> Season:
    started = from_db_time(row["started_at"])
    assert started is not None
    return Season(row["guild_id"], row["number"], started)


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
        forfeits=row["forfeits"],
    )
