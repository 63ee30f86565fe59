"""Leaving a running game, taking over a computer's seat and taking one's own seat back, on
a real SQLite file: what the table does at once, what is stored (across a restart), and what
the league makes of the finished game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.rummy.computer import safe_action
from bot.sessions import (
    Brains,
    EventKind,
    LobbyError,
    NoFreeSeat,
    NotSeated,
    Session,
    SessionManager,
    SessionStatus,
)
from bot.values.seats import NewSeat, SeatKind
from tests.sessions.conftest import ANN, BOB, CAT, GUILD, reloaded, start_game
from tests.waiting import eventually


async def _play_people(session: Session, people: dict[str, int]) -> None:
    """Play the people's turns safely until the game is over (the computers play theirs)."""
    while session.status is SessionStatus.ACTIVE:
        current = session.view(None).current
        if current is None or session.computer_level(current) is not None:
            await eventually(_moved_or_over(session, session.seq))
            continue
        assert current in people
        legal = session.legal_actions(current)
        await session.apply(current, safe_action(session.view(current), legal))


def _moved_or_over(session: Session, seq: int) -> Callable[[], bool]:
    return lambda: session.seq > seq or session.status is not SessionStatus.ACTIVE


async def test_leaving_hands_the_seat_to_a_computer_that_plays_at_once(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await start_game(manager, target=5)
        first = session.view(None).current
        assert first is not None
        leaver = ANN if first == str(ANN) else BOB
        event = await session.leave(leaver)
        assert event.kind is EventKind.SEAT
        assert event.actor == str(leaver)
        seat = next(s for s in session.seats if s.player_id == str(leaver))
        assert (seat.kind, seat.user_id, seat.level, seat.assisted) == (
            SeatKind.COMPUTER,
            None,
            "normal",
            True,
        )
        assert session.player_of(leaver) is None
        # It was the leaver's turn: the computer plays it without anyone waiting.
        seq = session.seq
        await eventually(lambda: session.seq > seq)
        # The leaver cannot come back: neither their seat nor another one.
        with pytest.raises(LobbyError) as refused:
            await session.join(leaver, "again")
        assert refused.value.key == "refusal.seat.left"
        with pytest.raises(NotSeated):
            await session.leave(leaver)
    finally:
        await manager.close()
    async with reloaded(db_path) as (_, loaded):
        seat = next(s for s in loaded.seats if s.player_id == str(leaver))
        assert seat.kind is SeatKind.COMPUTER
        assert seat.assisted
        with pytest.raises(LobbyError):
            await loaded.join(leaver, "again")


async def test_a_person_takes_over_a_left_seat_and_the_league_counts_a_forfeit(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await start_game(manager, target=5)
        assert session.free_seat() is None
        with pytest.raises(NoFreeSeat):
            await session.join(CAT, "Cat")
        await session.leave(ANN)
        free = session.free_seat()
        assert free is not None
        assert free.player_id == str(ANN)
        event = await session.join(CAT, "Cat")
        assert event.kind is EventKind.SEAT
        assert event.actor == str(ANN)
        assert session.player_of(CAT) == str(ANN)  # the engine's id of the seat stays
        assert session.names[str(ANN)] == "Cat"
        assert session.free_seat() is None
        await _play_people(session, {str(ANN): CAT, str(BOB): BOB})
        assert session.status is SessionStatus.FINISHED
        cat = await manager.services.league.player_card(GUILD, CAT)
        bob = await manager.services.league.player_card(GUILD, BOB)
        ann = await manager.services.league.player_card(GUILD, ANN)
        assert cat is not None
        assert bob is not None
        assert ann is not None
        assert (cat.games, bob.games, ann.games) == (1, 1, 1)
        assert (ann.wins, ann.forfeits, ann.place_sum) == (0, 1, 3)  # last, after 2 seats
        assert (cat.forfeits, bob.forfeits) == (0, 0)
        # Nobody's rating moved: a seat changed hands.
        assert (cat.rated_games, bob.rated_games, ann.rated_games) == (0, 0, 0)
    finally:
        await manager.close()


async def test_a_lobby_computer_seat_can_be_taken_over(db_path: Path | str) -> None:
    """When the host opened the seats of the computers they added."""
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        seats = [NewSeat.human(ANN, "Ann"), NewSeat.computer("Computer 1", "easy")]
        session = await start_game(manager, seats=seats, target=5, open_seats=True)
        await session.join(BOB, "Bob")
        seat = next(s for s in session.seats if s.player_id == "cpu-1")
        assert (seat.kind, seat.user_id, seat.display_name) == (SeatKind.HUMAN, BOB, "Bob")
        assert session.computer_level("cpu-1") is None
    finally:
        await manager.close()
    async with reloaded(db_path) as (_, loaded):
        assert loaded.player_of(BOB) == "cpu-1"


async def test_a_stand_in_move_leaves_ratings_unchanged_also_after_the_seat_came_back(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await start_game(manager, target=5)
        me = str(ANN)
        # The timer hands Ann's seat to a stand-in, which moves for her.
        await eventually(lambda: session.view(None).current is not None)
        while session.view(None).current != me:
            await _one_move(session)
        seq = session.seq
        assert await session.miss_turn(me, limit=1, stand_in="normal") is not None
        await eventually(lambda: session.seq > seq)
        seat = next(s for s in session.seats if s.player_id == me)
        assert seat.assisted
        assert seat.stand_in == "normal"
        # She takes her seat back and plays to the end.
        back = await session.join(ANN, "Ann")
        assert back.kind is EventKind.SEAT
        await _play_people(session, {me: ANN, str(BOB): BOB})
        ann = await manager.services.league.player_card(GUILD, ANN)
        bob = await manager.services.league.player_card(GUILD, BOB)
        assert ann is not None
        assert bob is not None
        assert (ann.games, bob.games) == (1, 1)
        assert (ann.rated_games, bob.rated_games) == (0, 0)
    finally:
        await manager.close()


async def test_a_game_its_people_play_to_the_end_is_rated(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await start_game(manager, target=5)
        await _play_people(session, {str(ANN): ANN, str(BOB): BOB})
        ann = await manager.services.league.player_card(GUILD, ANN)
        assert ann is not None
        assert ann.rated_games == 1
    finally:
        await manager.close()


async def _one_move(session: Session) -> None:
    current = session.view(None).current
    assert current is not None
    await session.apply(current, safe_action(session.view(current), session.legal_actions(current)))


async def test_a_leaver_who_asks_to_be_forgotten_gets_no_forfeit(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:
        session = await start_game(manager, target=5)
        await session.leave(ANN)
        await manager.forget_user(ANN)
        assert session.status is SessionStatus.ACTIVE  # the game goes on without them
        await _play_people(session, {str(BOB): BOB})
        assert await manager.services.league.player_card(GUILD, ANN) is None
        bob = await manager.services.league.player_card(GUILD, BOB)
        assert bob is not None
        assert bob.games == 1
    finally:
        await manager.close()


async def test_a_computer_the_host_added_is_not_taken_over_unless_the_host_opened_it(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=60))
    try:
        seats = [NewSeat.human(ANN, "Ann"), NewSeat.computer("Computer 1", "easy")]
        session = await start_game(manager, seats=seats, target=5)
        assert session.free_seat() is None
        with pytest.raises(NoFreeSeat):
            await session.join(BOB, "Bob")
        assert session.player_of(BOB) is None
    finally:
        await manager.close()
