"""A person can be forgotten, and a server can take all its data away."""

from __future__ import annotations

import dataclasses
import random

import aiosqlite

from bot.rummy import Game
from bot.sessions import SessionManager
from bot.storage import GameStatus, NewSeat, SeatKind, games, league
from bot.storage.models import DELETED_NAME
from tests.storage.conftest import ANN, BOB, CAT, GUILD, play, start_game


async def everything(conn: aiosqlite.Connection) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of every table, to look for a value anywhere in the database."""
    tables = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    rows = []
    for (table,) in tables:
        rows += [
            (table, tuple(row)) for row in await conn.execute_fetchall(f"SELECT * FROM {table}")
        ]
    return rows


async def test_a_forgotten_player_leaves_no_trace(manager: SessionManager) -> None:
    finished = await start_game(manager, channel=1, target=1)
    await play(finished, 2000, random.Random(3))
    assert finished.closed
    live = await start_game(
        manager, channel=2, seats=[NewSeat.human(BOB, "Bob"), NewSeat.human(ANN, "Ann")]
    )
    await play(live, 5, random.Random(4))
    async with manager.db.transaction() as conn:
        bob_before = await league.player_card(conn, GUILD, BOB)

    report = await manager.forget_user(ANN)

    assert report.abandoned_games == (live.game_id,)
    assert report.anonymized_seats == 2
    assert report.league_rows == 1
    assert manager.get(2) is None
    async with manager.db.transaction() as conn:
        rows = await everything(conn)
        done = await games.load_game(conn, finished.game_id)
        stopped = await games.load_game(conn, live.game_id)
        ann_card = await league.player_card(conn, GUILD, ANN)
        bob_after = await league.player_card(conn, GUILD, BOB)
        history = await games.recent_games(conn, GUILD)
    for table, row in rows:
        text = " ".join(map(str, row))
        assert str(ANN) not in text, table
        assert "Ann" not in text, table
    assert done is not None
    assert stopped is not None
    assert stopped.status is GameStatus.ABANDONED
    assert done.host_id is None
    ann_seat = done.seats[0]
    assert (ann_seat.kind, ann_seat.user_id, ann_seat.display_name) == (
        SeatKind.HUMAN,
        None,
        DELETED_NAME,
    )
    # The finished game still loads, with the seat under its new name, for the others' sake.
    game = Game.from_json(done.snapshot)
    assert game.players == ("deleted-0", str(BOB))
    assert game.scores == finished.game.scores
    assert ann_card is None
    # Bob's figures stay as earned; only his position moves up into Ann's place.
    assert bob_before is not None
    assert bob_after is not None
    assert dataclasses.replace(bob_after, rank=bob_before.rank) == bob_before
    assert bob_after.rank == 1
    assert {s.display_name for g in history for s in g.seats} == {DELETED_NAME, "Bob"}


async def test_a_server_takes_all_its_data_away(manager: SessionManager) -> None:
    other_guild = GUILD + 1
    done = await start_game(manager, channel=1, target=1)
    await play(done, 2000, random.Random(3))
    live = await start_game(manager, channel=2)
    await play(live, 5, random.Random(4))
    elsewhere = await manager.start(
        guild_id=other_guild,
        channel_id=3,
        host_id=CAT,
        ruleset=live.game.ruleset,
        seats=[NewSeat.human(CAT, "Cat"), NewSeat.computer("Cpu")],
    )
    await play(elsewhere, 5, random.Random(5))

    assert await manager.forget_guild(GUILD) == 2

    assert live.closed
    assert manager.get(2) is None
    assert manager.get(3) is elsewhere
    async with manager.db.transaction() as conn:
        rows = await everything(conn)
        standings = await league.standings(conn, GUILD)
    assert standings.season is None
    game_ids = {row[0] for table, row in rows if table == "games"}
    assert game_ids == {elsewhere.game_id}
    for table, row in rows:
        if table in ("seats", "actions", "rounds", "round_seats", "standings"):
            assert row[0] == elsewhere.game_id, table
        assert str(ANN) not in " ".join(map(str, row)), table
    assert {table for table, _ in rows if table in ("seasons", "league_players")} == set()
