"""League figures on a scripted series of finished games whose results are known.

Every expected number below is worked out by hand from the league's rules (see
bot/values/league.py): human seats count, computer players and abandoned games never move a
rating, abandoned games count for nothing, a win is a (shared) first place.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import aiosqlite
import pytest
from openskill.models import PlackettLuce

from bot.rummy import preset
from bot.storage import Database, GameStatus
from bot.storage.sql_repository import SqlRepository
from bot.values.league import SeatResult
from bot.values.seats import NewSeat, assign_seats

G, OTHER_GUILD = 10, 20
A, B, C, D = 1, 2, 3, 4
NAMES = {A: "Ann", B: "Bob", C: "Cat", D: "Dan"}
T0 = datetime(2025, 1, 1, tzinfo=UTC)


async def finished_game(
    conn: aiosqlite.Connection,
    day: int,
    lines: list[tuple[int | None, int, int, int]],
    guild: int = G,
    abandoned: bool = False,
) -> int:
    """A game with one seat per line (user or None for a computer, score, place, rounds won)."""
    seats = [
        NewSeat.computer("Cpu") if u is None else NewSeat.human(u, NAMES[u]) for u, *_ in lines
    ]
    record = await SqlRepository(conn).create_game(
        guild_id=guild,
        channel_id=100 + day,
        host_id=lines[0][0],
        ruleset=preset("classic").to_json(),
        seed=day,
        seats=assign_seats(seats),
        snapshot="{}",
        at=T0 + timedelta(days=day),
    )
    end = T0 + timedelta(days=day, hours=1)
    if abandoned:
        await SqlRepository(conn).abandon_game(record.id, end)
    else:
        results = [
            SeatResult(seat, score, place, won) for seat, (_, score, place, won) in enumerate(lines)
        ]
        await SqlRepository(conn).finish_game(record.id, results, end)
    return record.id


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


async def test_a_season_of_games(db: Database) -> None:
    async with db.transaction() as conn:
        assert (await SqlRepository(conn).standings(G)).season is None
        g1 = await finished_game(conn, 1, [(A, 120, 1, 3), (B, 40, 2, 1), (C, 40, 2, 1)])
        g2 = await finished_game(conn, 2, [(A, 30, 3, 0), (B, 110, 1, 2), (None, 110, 1, 2)])
        g3 = await finished_game(conn, 3, [(B, 0, 1, 0), (D, 0, 1, 0)], abandoned=True)
        g4 = await finished_game(conn, 4, [(C, 12, 1, 2), (D, 105, 2, 0)])
        await finished_game(conn, 5, [(A, 99, 1, 9), (B, 0, 2, 0)], guild=OTHER_GUILD)

    # Ratings: only g1 (ranks 1, 2, 2: the tie is a shared rank) and g4 are rated.
    model = PlackettLuce()
    (a1,), (b1,), (c1,) = model.rate(
        [[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2]
    )
    (c4,), (d4,) = model.rate([[c1], [model.rating()]], ranks=[1, 2])
    expected = {
        # user: games, wins, rounds won, points for, points against, place sum, rated, rating
        A: (2, 1, 3 + 0, 120 + 30, (40 + 40) + (110 + 110), 1 + 3, 1, a1),
        B: (2, 1, 1 + 2, 40 + 110, (120 + 40) + (30 + 110), 2 + 1, 1, b1),
        C: (2, 1, 1 + 2, 40 + 12, (120 + 40) + 105, 2 + 1, 2, c4),
        D: (1, 0, 0, 105, 12, 2, 1, d4),
    }
    order = sorted(
        expected, key=lambda u: (-ordinal(expected[u][7].mu, expected[u][7].sigma), -expected[u][1])
    )

    async with db.transaction() as conn:
        season = await SqlRepository(conn).current_season(G)
        assert season is not None
        assert (season.number, season.started_at) == (1, T0 + timedelta(days=1, hours=1))
        first = await SqlRepository(conn).standings(G, page=1, page_size=3)
        second = await SqlRepository(conn).standings(G, page=2, page_size=3)
        beyond = await SqlRepository(conn).standings(G, page=9, page_size=3)
        cards = {u: await SqlRepository(conn).player_card(G, u) for u in expected}

    assert (first.season, first.total_players, first.total_pages) == (1, 4, 2)
    assert [r.user_id for r in first.rows + second.rows] == order
    assert [r.rank for r in first.rows + second.rows] == [1, 2, 3, 4]
    assert beyond.page == 2
    assert beyond.rows == second.rows
    for user, (n, wins, rounds, pf, pa, place_sum, rated, rating) in expected.items():
        card = cards[user]
        assert card is not None
        assert card.display_name == NAMES[user]
        assert (card.games, card.wins, card.rounds_won) == (n, wins, rounds)
        assert (card.points_for, card.points_against, card.place_sum) == (pf, pa, place_sum)
        assert card.rated_games == rated
        assert card.mu == pytest.approx(rating.mu)
        assert card.sigma == pytest.approx(rating.sigma)
        assert card.rating == pytest.approx(ordinal(rating.mu, rating.sigma))
        assert card.win_rate == pytest.approx(wins / n)
        assert card.average_place == pytest.approx(place_sum / n)
        assert card.rank == order.index(user) + 1

    async with db.transaction() as conn:
        history = await SqlRepository(conn).recent_games(G)
        dans = await SqlRepository(conn).recent_games(G, user_id=D)
        latest = await SqlRepository(conn).recent_games(G, limit=2)
    assert [g.id for g in history] == [g4, g3, g2, g1]
    assert [g.id for g in dans] == [g4, g3]
    assert [g.id for g in latest] == [g4, g3]
    assert history[1].status is GameStatus.ABANDONED
    assert [s.place for s in history[1].seats] == [None, None]
    assert [(s.user_id, s.place, s.score) for s in history[2].seats] == [
        (A, 3, 30),
        (B, 1, 110),
        (None, 1, 110),
    ]
    assert history[0].ruleset_name == "classic"
    assert history[0].season == 1


async def test_a_new_season_starts_from_nothing(db: Database) -> None:
    async with db.transaction() as conn:
        await finished_game(conn, 1, [(A, 100, 1, 1), (B, 0, 2, 0)])
        season = await SqlRepository(conn).start_season(G, T0 + timedelta(days=2))
        assert season.number == 2
        await finished_game(conn, 3, [(B, 100, 1, 1), (C, 0, 2, 0)])

        first = await SqlRepository(conn).standings(G, season=1)
        current = await SqlRepository(conn).standings(G)
        a_now = await SqlRepository(conn).player_card(G, A)
        a_then = await SqlRepository(conn).player_card(G, A, season=1)
        b_now = await SqlRepository(conn).player_card(G, B)
    assert [r.user_id for r in first.rows] == [A, B]
    assert current.season == 2
    assert [r.user_id for r in current.rows] == [B, C]
    assert a_now is None
    assert a_then is not None
    assert (a_then.games, a_then.wins) == (1, 1)
    assert b_now is not None
    assert (b_now.games, b_now.wins, b_now.rated_games) == (1, 1, 1)
