"""Lobbies live in the database: seats taken and given up before the deal survive a restart,
and only the host or a moderator runs the table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.rummy import DrawStock, preset
from bot.sessions import (
    NAME_LIMIT,
    ChannelBusy,
    Committed,
    EventKind,
    LobbyError,
    NotAllowed,
    NotSeated,
    Session,
    SessionClosed,
    SessionManager,
    SessionStatus,
    clean_name,
)
from bot.storage import GameStatus
from bot.storage.sql_repository import SqlRepository
from bot.values.seats import SeatKind
from tests.sessions.conftest import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    engine_game,
    play,
    reloaded,
    start_game,
    store_of,
)
from tests.waiting import eventually


async def open_lobby(manager: SessionManager, channel: int = CHANNEL) -> Session:
    return await manager.create_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic"),
        seed=11,
    )


async def test_a_lobby_fills_up_and_deals(manager: SessionManager) -> None:
    heard: list[Committed] = []

    async def listener(event: Committed) -> None:
        heard.append(event)

    manager.add_listener(listener)
    lobby = await open_lobby(manager)
    assert lobby.status is SessionStatus.LOBBY
    assert (lobby.host_id, lobby.turn, lobby.legal_actions(str(ANN))) == (ANN, 0, [])
    assert [s.user_id for s in lobby.seats] == [ANN]
    with pytest.raises(LobbyError):
        lobby.view(str(ANN))
    with pytest.raises(LobbyError):
        await lobby.apply(str(ANN), DrawStock())
    with pytest.raises(LobbyError, match="2 to 4"):
        await lobby.start(ANN, moderator=False)  # alone at the table

    joined = await lobby.join(BOB, "Bob")
    assert (joined.kind, joined.status, joined.actor) == (
        EventKind.LOBBY,
        SessionStatus.LOBBY,
        str(BOB),
    )
    assert joined.views == {}
    with pytest.raises(LobbyError, match="already"):
        await lobby.join(BOB, "Bob again")
    computer = await lobby.add_computer(ANN, "hard", moderator=False)
    cpu = computer.seats[-1]
    assert (cpu.kind, cpu.player_id, cpu.level, cpu.display_name) == (
        SeatKind.COMPUTER,
        "cpu-1",
        "hard",
        "Computer 1",
    )
    with pytest.raises(NotAllowed):
        await lobby.add_computer(BOB, "easy", moderator=False)
    with pytest.raises(NotAllowed):
        await lobby.start(BOB, moderator=False)
    assert lobby.player_of(BOB) == str(BOB)
    assert lobby.player_of(CAT) is None
    assert dict(lobby.names) == {str(ANN): "Ann", str(BOB): "Bob", "cpu-1": "Computer 1"}

    started = await lobby.start(ANN, moderator=False)
    assert (started.kind, started.status) == (EventKind.STARTED, SessionStatus.ACTIVE)
    assert set(started.views) == {str(ANN), str(BOB), "cpu-1", None}
    assert lobby.status.value == "active"
    assert engine_game(lobby).players == (str(ANN), str(BOB), "cpu-1")
    assert engine_game(lobby).seed == 11
    # A seated person joining the dealt game is told they sit at it already.
    with pytest.raises(LobbyError, match="already at this table"):
        await lobby.join(BOB, "Bob")  # (leaving and taking over a seat: test_leave_take_over)
    await lobby.apply(str(ANN), DrawStock(), turn=started.turn)
    await eventually(lambda: len(heard) >= 4)
    assert [e.kind for e in heard] == [
        EventKind.LOBBY,
        EventKind.LOBBY,
        EventKind.STARTED,
        EventKind.ACTION,
    ]


async def test_a_full_table_refuses_one_more(manager: SessionManager) -> None:
    lobby = await open_lobby(manager)
    for user in range(1, 4):
        await lobby.join(user, f"P{user}")
    with pytest.raises(LobbyError, match="full"):
        await lobby.join(99, "Late")
    with pytest.raises(LobbyError, match="full"):
        await lobby.add_computer(ANN, "easy", moderator=True)


async def test_leaving_passes_the_host_role_or_cancels(manager: SessionManager) -> None:
    lobby = await open_lobby(manager)
    await lobby.add_computer(ANN, "easy", moderator=False)
    await lobby.join(BOB, "Bob")
    await lobby.join(CAT, "Cat")
    with pytest.raises(NotSeated):
        await lobby.leave(12345)
    event = await lobby.leave(ANN)
    assert event.host_id == BOB == lobby.host_id  # the next person seated, not the computer
    assert [s.player_id for s in lobby.seats] == ["cpu-1", str(BOB), str(CAT)]
    assert [s.seat for s in lobby.seats] == [0, 1, 2]
    with pytest.raises(NotAllowed):
        await lobby.kick(ANN, CAT, moderator=False)  # no longer the host
    await lobby.kick(BOB, "cpu-1", moderator=False)
    await lobby.kick(BOB, CAT, moderator=False)
    with pytest.raises(NotSeated):
        await lobby.kick(BOB, CAT, moderator=False)
    assert [s.user_id for s in lobby.seats] == [BOB]
    last = await lobby.leave(BOB)
    assert (last.kind, last.status) == (EventKind.CANCELLED, SessionStatus.ABANDONED)
    assert lobby.closed
    assert manager.get(CHANNEL) is None
    with pytest.raises(SessionClosed):
        await lobby.join(ANN, "Ann")
    async with store_of(manager).transaction() as conn:
        record = await SqlRepository(conn).load_game(lobby.game_id)
        history = await SqlRepository(conn).recent_games(GUILD)
    assert record is not None
    assert record.status is GameStatus.CANCELLED
    assert history == []  # a cancelled lobby is nobody's history


async def test_a_host_alone_with_computers_who_leaves_cancels(manager: SessionManager) -> None:
    lobby = await open_lobby(manager)
    for level in ("easy", "normal", "hard"):
        await lobby.add_computer(ANN, level, moderator=False)
    await lobby.kick(ANN, "cpu-1", moderator=False)
    event = await lobby.add_computer(ANN, "x" * 100, moderator=False)
    assert [(s.player_id, s.display_name, s.level) for s in event.seats[1:]] == [
        ("cpu-1", "Computer 2", "normal"),
        ("cpu-2", "Computer 3", "hard"),
        ("cpu-3", "Computer 1", "x" * 15 + "…"),
    ]
    event = await lobby.leave(ANN)
    assert event.kind is EventKind.CANCELLED


async def test_a_moderator_may_kick_the_host_and_cancel(manager: SessionManager) -> None:
    lobby = await open_lobby(manager)
    await lobby.join(BOB, "Bob")
    await lobby.kick(CAT, ANN, moderator=True)
    assert lobby.host_id == BOB
    with pytest.raises(NotAllowed):
        await lobby.cancel(CAT, moderator=False)
    event = await lobby.cancel(CAT, moderator=True)
    assert event.kind is EventKind.CANCELLED


async def test_one_lobby_per_channel_and_names_are_bounded(manager: SessionManager) -> None:
    lobby = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="\u202eAnn\x00\n" + "n" * 100,
        ruleset=preset("classic"),
    )
    with pytest.raises(ChannelBusy):
        await open_lobby(manager)
    with pytest.raises(ChannelBusy):
        await start_game(manager)
    await lobby.join(BOB, "\x1b[31mBob\x07")
    names = list(lobby.names.values())
    assert all(len(name) <= NAME_LIMIT for name in names)
    assert names[0].startswith("Ann nnn")
    assert names[0].endswith("…")
    assert names[1] == "[31mBob"
    assert all(ch.isprintable() for name in names for ch in name)


def test_clean_name() -> None:
    assert clean_name("  Ann\u202e\x00  Smith\n") == "Ann Smith"
    assert clean_name("x" * 40) == "x" * 31 + "…"
    assert clean_name("\x07\u200b") == "player"
    assert clean_name("👩\u200d💻 Dev") == "👩\u200d💻 Dev"


async def test_a_lobby_survives_a_restart(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    lobby = await open_lobby(manager)
    await lobby.join(BOB, "Bob")
    await lobby.add_computer(ANN, "hard", moderator=False)
    await lobby.leave(ANN)
    seats, game_id = lobby.seats, lobby.game_id
    await manager.close()

    async with reloaded(db_path) as (_, loaded):
        assert (loaded.game_id, loaded.seats, loaded.host_id) == (game_id, seats, BOB)
        assert loaded.status is SessionStatus.LOBBY
        assert loaded.ruleset == preset("classic")
        await loaded.join(CAT, "Cat")
        started = await loaded.start(BOB, moderator=False)
        assert engine_game(loaded).players == (str(BOB), "cpu-1", str(CAT))
        assert started.status is SessionStatus.ACTIVE
        await play(loaded, 5, random.Random(1))


async def test_start_up_loads_only_the_servers_asked_for(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    await open_lobby(manager, channel=1)
    await start_game(manager, channel=2, guild=GUILD + 1)
    await start_game(manager, channel=3, guild=GUILD + 2)
    await manager.close()

    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active([GUILD, GUILD + 2]) == 2
        assert set(again.sessions) == {1, 3}
        assert await again.load_active([]) == 0
        assert await again.load_active() == 1
        assert set(again.sessions) == {1, 2, 3}
    finally:
        await again.close()


async def test_a_broken_game_can_be_cleared_from_its_channel(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    session = await start_game(manager)
    await play(session, 6, random.Random(2))
    async with store_of(manager).transaction() as conn:
        await conn.execute("UPDATE games SET snapshot = '{broken' WHERE id = ?", (session.game_id,))
        await conn.execute(
            'UPDATE actions SET action = \'{"type": "nonsense"}\' WHERE game_id = ?',
            (session.game_id,),
        )
    await manager.close()

    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 0
        with pytest.raises(ChannelBusy, match="could not be loaded"):
            await open_lobby(again)
        with pytest.raises(NotAllowed):
            await again.clear_broken(CHANNEL, by_user=BOB, moderator=False)
        assert await again.clear_broken(CHANNEL, by_user=ANN, moderator=False)
        assert not await again.clear_broken(CHANNEL, by_user=ANN, moderator=False)
        lobby = await open_lobby(again)
        assert not await again.clear_broken(CHANNEL, by_user=ANN, moderator=True)  # it works
        assert again.get(CHANNEL) is lobby
        async with store_of(again).transaction() as conn:
            record = await SqlRepository(conn).load_game(session.game_id)
        assert record is not None
        assert record.status is GameStatus.ABANDONED
    finally:
        await again.close()


async def test_the_league_facade(manager: SessionManager) -> None:
    finished = await start_game(manager, target=1)
    await play(finished, 2000, random.Random(3))
    assert finished.closed
    page = await manager.services.league.standings(GUILD)
    assert (page.season, page.total_players) == (1, 2)
    card = await manager.services.league.player_card(GUILD, ANN)
    assert card is not None
    assert card.games == 1
    history = await manager.services.league.history(GUILD, user_id=BOB)
    assert [g.id for g in history] == [finished.game_id]
    assert await manager.services.league.history(GUILD, user_id=CAT) == []
    season = await manager.services.league.new_season(GUILD)
    assert season.number == 2
    assert await manager.services.league.current_season(GUILD) == season
    assert (await manager.services.league.standings(GUILD)).rows == ()
    assert (await manager.services.league.standings(GUILD, season=1)).total_players == 2
    assert await manager.services.league.player_card(GUILD, ANN) is None
