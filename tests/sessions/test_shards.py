"""A process loads and plays only its shards' servers' games; it can take more shards over
(their games resumed as at a restart) and let some go (their sessions dropped, nothing
written)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.rummy import preset
from bot.sessions import Brains, Seat, SessionManager
from bot.storage import GameStatus
from bot.values.shards import StaticOwnership, shard_of
from tests.sessions.conftest import ANN, run_out_while_down, start_game, two_humans
from tests.waiting import eventually

ON_0 = 1000  # (1000 >> 22) % 2 == 0
ON_1 = (1 << 22) | 1000
HERE, THERE = 2001, 2002


def test_the_servers_are_on_the_shards_meant() -> None:
    assert (shard_of(ON_0, 2), shard_of(ON_1, 2)) == (0, 1)


async def stored(manager: SessionManager, game_id: int) -> tuple[GameStatus, int]:
    record = await manager.stored_game(game_id)
    assert record is not None
    return record.status, record.action_count


async def test_a_process_loads_only_its_shards_games_and_takes_others_over(
    db_path: Path,
) -> None:
    manager = await SessionManager.open(db_path)
    try:
        mine = await start_game(manager, HERE, two_humans(), guild=ON_0)
        theirs = await start_game(manager, THERE, two_humans(), guild=ON_1)
    finally:
        await manager.close()

    second = await SessionManager.open(db_path, ownership=StaticOwnership(2, frozenset({1})))
    try:
        assert await second.load_active() == 1
        assert second.get(THERE) is not None
        assert second.get(HERE) is None
        assert await second.load_shards([0]) == 1
        assert second.by_game(mine.game_id) is not None
        assert await second.load_shards([0, 1]) == 0  # both are loaded already
        before = await stored(second, theirs.game_id)

        assert await second.unload_shards([1]) == 1
        assert second.get(THERE) is None
        assert second.by_game(theirs.game_id) is None
        assert second.get(HERE) is not None
        assert await stored(second, theirs.game_id) == before  # left as it was, still live
        assert before[0] is GameStatus.ACTIVE
        assert await second.unload_shards([1]) == 0
        assert await second.load_shards([1]) == 1  # and back again, from the store
        again = second.get(THERE)
        assert again is not None
        assert again.seq == theirs.seq
    finally:
        await second.close()


async def test_every_shard_is_loaded_by_default(db_path: Path) -> None:
    manager = await SessionManager.open(db_path)
    try:
        await start_game(manager, HERE, two_humans(), guild=ON_0)
        await start_game(manager, THERE, two_humans(), guild=ON_1)
    finally:
        await manager.close()
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 2
    finally:
        await again.close()
    nothing = await SessionManager.open(db_path, ownership=StaticOwnership(4, frozenset({2, 3})))
    try:
        assert await nothing.load_active() == 0
    finally:
        await nothing.close()


async def test_a_game_taken_over_runs_its_timer_from_the_stored_deadline(db_path: Path) -> None:
    manager = await SessionManager.open(db_path, brains=Brains(delay=0))
    try:  # a real minute: the turn goes on until the process stops
        session = await start_game(manager, HERE, two_humans(), guild=ON_0, turn_timer=1)
        absent = session.view(None).current
        seq = session.seq
        deadline = session.deadline
        assert deadline is not None
    finally:
        await manager.close()
    assert session.seq == seq
    await run_out_while_down(db_path, deadline)  # while no process runs the shard
    other = await SessionManager.open(db_path, ownership=StaticOwnership(2, frozenset({1})))
    try:
        assert await other.load_active() == 0
        assert await other.load_shards([0]) == 1
        taken = other.get(HERE)
        assert taken is not None

        def seat() -> Seat:
            return next(s for s in taken.seats if s.player_id == absent)

        await eventually(lambda: seat().missed == 1)
        assert taken.seq >= seq + 2
    finally:
        await other.close()


async def test_a_released_game_with_a_computer_player_stops_and_writes_nothing(
    db_path: Path,
) -> None:
    both = StaticOwnership(2)
    manager = await SessionManager.open(db_path, brains=Brains(delay=0.05), ownership=both)
    try:
        session = await manager.create_lobby(
            guild_id=ON_1,
            channel_id=THERE,
            host_id=ANN,
            host_name="Ann",
            ruleset=preset("classic"),
            seed=5,
        )
        await session.add_computer(ANN, "easy", moderator=False)
        await session.add_computer(ANN, "easy", moderator=False)
        await session.start(ANN, moderator=False)
        # A stand-in plays Ann's seat while she is away: computers play on by themselves.
        await session.miss_turn(str(ANN), limit=1, stand_in="easy")
        await eventually(lambda: session.seq >= 3)
        assert await manager.unload_shards([1]) == 1
        assert session.closed
        status, count = await stored(manager, session.game_id)
        await asyncio.sleep(0.4)  # several computer moves' time
        assert await stored(manager, session.game_id) == (status, count)
        assert await manager.load_shards([1]) == 1  # the computers are caught up: they go on
        resumed = manager.get(THERE)
        assert resumed is not None
        await eventually(lambda: resumed.seq > count or resumed.closed)
    finally:
        await manager.close()


async def test_a_shard_taken_back_reads_its_servers_settings_afresh(db_path: Path) -> None:
    """Process A caches a server's settings, lets its shard go; B, holding it, changes
    them; A takes the shard back and reads what B stored, not what it cached."""
    both = StaticOwnership(2)
    first = await SessionManager.open(db_path, ownership=both)
    second = await SessionManager.open(db_path, ownership=both)
    try:
        assert (await first.services.server_settings.of(ON_1)).opener_role == 0
        await first.unload_shards([1])
        await second.load_shards([1])
        await second.services.server_settings.change(ON_1, opener_role=77, timer=5)
        await second.unload_shards([1])
        await first.load_shards([1])
        again = await first.services.server_settings.of(ON_1)
        assert (again.opener_role, again.timer) == (77, 5)
    finally:
        await second.close()
        await first.close()
