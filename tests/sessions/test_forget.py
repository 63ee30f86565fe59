"""A person can be forgotten and a server can take all its data away: the sessions let go of
them and nothing stored points at them any more."""

from __future__ import annotations

import dataclasses
import logging
import random
from pathlib import Path

import pytest

from bot.rummy import Game, preset
from bot.sessions import Committed, EventKind, SessionManager
from bot.storage import GameStatus
from bot.storage.models import DELETED_NAME
from bot.storage.pg_connection import PgConnection
from bot.storage.rows import Connection
from bot.storage.sql_repository import SqlRepository
from bot.values.seats import NewSeat, SeatKind
from tests.sessions.conftest import ANN, BOB, CAT, GUILD, engine_game, play, start_game, store_of
from tests.waiting import eventually

# Names nothing else in the database could contain by chance.
ANN_NAME, HOST_NAME = "Annabel Quixotic", "Zebulon Hostname"
DAN = 444_444_444_444_444_444


async def everything(conn: Connection) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of every table, to look for a value anywhere in the database."""
    if isinstance(conn, PgConnection):
        listing = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    else:
        listing = "SELECT name FROM sqlite_master WHERE type = 'table'"
    tables = await conn.execute_fetchall(listing)
    rows = []
    for (table,) in tables:
        rows += [
            (table, tuple(row)) for row in await conn.execute_fetchall(f"SELECT * FROM {table}")
        ]
    return rows


def traces(path: Path | str, user_id: int, name: str) -> list[str]:
    """Where the id (as text or as SQLite stores an integer) or the name still shows in the
    bytes of the database file and its write-ahead log (SQLite's; PostgreSQL's files are
    the server's, and its WAL keeps copies until recycled: see docs/postgresql.md)."""
    if not isinstance(path, Path):
        return []
    needles = {
        "id as text": str(user_id).encode(),
        "id as integer": user_id.to_bytes(8, "big"),
        "name": name.encode(),
    }
    found = []
    for file in (path, path.with_name(path.name + "-wal")):
        data = file.read_bytes() if file.exists() else b""
        found += [f"{what} in {file.name}" for what, needle in needles.items() if needle in data]
    return found


async def test_a_forgotten_player_leaves_no_trace(
    manager: SessionManager, db_path: Path | str
) -> None:
    ann = NewSeat.human(ANN, ANN_NAME)
    finished = await start_game(
        manager, channel=1, target=1, seats=[ann, NewSeat.human(BOB, "Bob")]
    )
    await play(finished, 2000, random.Random(3))
    assert finished.closed
    final_scores = engine_game(finished).scores
    live = await start_game(manager, channel=2, seats=[NewSeat.human(BOB, "Bob"), ann])
    await play(live, 5, random.Random(4))
    lobby = await manager.create_lobby(
        guild_id=GUILD, channel_id=3, host_id=ANN, host_name=ANN_NAME, ruleset=preset("classic")
    )
    await lobby.join(CAT, "Cat")
    async with store_of(manager).transaction() as conn:
        bob_before = await SqlRepository(conn).player_card(GUILD, BOB)
    if isinstance(db_path, Path):
        assert traces(db_path, ANN, ANN_NAME)  # the scan finds what is there

    report = await manager.forget_user(ANN)

    assert report.abandoned_games == (live.game_id,)
    assert report.anonymized_seats == 2
    assert report.league_rows == 1
    assert manager.get(2) is None
    # The lobby goes on without her, under the next person seated.
    assert manager.get(3) is lobby
    assert (lobby.host_id, [s.user_id for s in lobby.seats]) == (CAT, [CAT])
    assert lobby.player_of(ANN) is None
    async with store_of(manager).transaction() as conn:
        rows = await everything(conn)
        done = await SqlRepository(conn).load_game(finished.game_id)
        stopped = await SqlRepository(conn).load_game(live.game_id)
        ann_card = await SqlRepository(conn).player_card(GUILD, ANN)
        bob_after = await SqlRepository(conn).player_card(GUILD, BOB)
        history = await SqlRepository(conn).recent_games(GUILD)
    for table, row in rows:
        text = " ".join(map(str, row))
        assert str(ANN) not in text, table
        assert ANN_NAME not in text, table
    assert traces(db_path, ANN, ANN_NAME) == []
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
    assert done.snapshot is not None
    game = Game.from_json(done.snapshot)
    assert game.players == ("deleted-0", str(BOB))
    assert game.scores == final_scores
    assert ann_card is None
    # Bob's figures stay as earned; only his position moves up into Ann's place.
    assert bob_before is not None
    assert bob_after is not None
    assert dataclasses.replace(bob_after, rank=bob_before.rank) == bob_before
    assert bob_after.rank == 1
    assert {s.display_name for g in history for s in g.seats} == {DELETED_NAME, "Bob"}


async def test_a_forgotten_host_leaves_the_live_session(manager: SessionManager) -> None:
    lobby = await manager.create_lobby(
        guild_id=GUILD, channel_id=1, host_id=DAN, host_name=HOST_NAME, ruleset=preset("classic")
    )
    await lobby.join(BOB, "Bob")
    await lobby.join(CAT, "Cat")
    await lobby.kick(BOB, DAN, moderator=True)  # the host role passes to Bob
    await lobby.start(BOB, moderator=False)
    # A session whose stored host is someone no longer seated (an older lobby's host).
    lobby._record = dataclasses.replace(lobby._record, host_id=DAN)
    events: list[Committed | None] = []

    async def hear(event: Committed) -> None:
        events.append(event)

    manager.add_listener(hear)
    await manager.forget_user(DAN)
    assert lobby.host_id is None
    assert not lobby.closed
    await eventually(lambda: lobby.waiting_events == 0)
    assert all(e is None or e.kind is not EventKind.CANCELLED for e in events)


async def test_a_server_takes_all_its_data_away(
    manager: SessionManager, db_path: Path | str
) -> None:
    other_guild = GUILD + 1
    ann = NewSeat.human(ANN, ANN_NAME)
    done = await start_game(manager, channel=1, target=1, seats=[ann, NewSeat.human(BOB, "Bob")])
    await play(done, 2000, random.Random(3))
    live = await start_game(manager, channel=2, seats=[ann, NewSeat.human(BOB, "Bob")])
    await play(live, 5, random.Random(4))
    elsewhere = await start_game(
        manager,
        channel=3,
        guild=other_guild,
        seats=[NewSeat.human(CAT, "Cat"), NewSeat.computer("Cpu")],
    )
    await play(elsewhere, 5, random.Random(5))

    assert await manager.forget_guild(GUILD) == 2

    assert live.closed
    assert manager.get(2) is None
    assert manager.get(3) is elsewhere
    async with store_of(manager).transaction() as conn:
        rows = await everything(conn)
        standings = await SqlRepository(conn).standings(GUILD)
    assert standings.season is None
    game_ids = {row[0] for table, row in rows if table == "games"}
    assert game_ids == {elsewhere.game_id}
    for table, row in rows:
        if table in ("seats", "actions", "rounds", "round_seats", "standings"):
            assert row[0] == elsewhere.game_id, table
        assert str(ANN) not in " ".join(map(str, row)), table
    assert {table for table, _ in rows if table in ("seasons", "league_players")} == set()
    assert traces(db_path, ANN, ANN_NAME) == []


async def test_info_logs_name_no_person(
    manager: SessionManager, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        session = await start_game(manager, target=1)
        await play(session, 300, random.Random(3))
        await manager.clear_broken(99, by_user=ANN, moderator=True)
        await manager.forget_user(BOB)
    info = [r for r in caplog.records if r.levelno >= logging.INFO]
    for record in info:
        text = record.getMessage()
        assert str(ANN) not in text
        assert str(BOB) not in text
