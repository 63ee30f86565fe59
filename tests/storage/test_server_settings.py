"""Per-server settings (a name and a JSON value per changed setting) and games that move
into the thread started from their lobby message."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rummy import preset
from bot.services.server_settings import ServerSettings, ServerSettingsBook
from bot.storage import Database, DuplicateLiveGame, GameChanged, GameRecord, GameStatus, open_store
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats


async def test_settings_default_change_survive_a_reopen_and_go_with_the_server(
    db_path: Path | str,
) -> None:
    db = await open_store(db_path)
    try:
        book = ServerSettingsBook(db)
        assert await book.of(7) == ServerSettings(threads=True)
        assert (await book.change(7, threads=False)).threads is False
        assert (await book.of(8)).threads is True
        with pytest.raises(ValueError, match="unknown"):
            await book.change(7, colour="red")
        with pytest.raises(TypeError):
            await book.change(7, threads="off")
    finally:
        await db.close()
    db = await open_store(db_path)
    try:
        assert (await ServerSettingsBook(db).of(7)).threads is False
        async with db.unit() as repo:
            assert await repo.server_settings(7) == {"threads": False}
            # A setting back at its default is no row at all.
            await repo.save_server_setting(8, "threads", None)
            assert await repo.server_settings(8) == {}
            await repo.forget_guild(7)
            assert await repo.server_settings(7) == {}
    finally:
        await db.close()


def test_stored_values_that_no_longer_fit_are_left_at_their_defaults() -> None:
    assert ServerSettings.from_stored({"threads": False, "retired": 3}).threads is False
    assert ServerSettings.from_stored({"threads": "no"}) == ServerSettings()
    assert ServerSettings.from_stored({"threads": 0}) == ServerSettings()


async def _lobby(db: Database, channel_id: int) -> GameRecord:
    async with db.unit() as repo:
        return await repo.create_game(
            guild_id=1,
            channel_id=channel_id,
            host_id=1,
            ruleset=preset("classic").to_json(),
            seed=1,
            seats=assign_seats([NewSeat.human(1, "Ann")]),
            snapshot=None,
            at=utc_now(),
            status=GameStatus.LOBBY,
        )


async def test_a_game_moves_into_its_thread_once_and_frees_its_channel(db: Database) -> None:
    first = await _lobby(db, 5)
    async with db.unit() as repo:
        await repo.move_game(first.id, 50)
        moved = await repo.load_game(first.id)
    assert moved is not None
    assert (moved.channel_id, moved.lobby_channel_id) == (50, 5)
    second = await _lobby(db, 5)  # the channel is free again
    with pytest.raises(DuplicateLiveGame):
        async with db.unit() as repo:
            await repo.move_game(second.id, 50)  # one live game per thread
    with pytest.raises(GameChanged):
        async with db.unit() as repo:
            await repo.move_game(first.id, 51)  # a game moves once
    third = await _lobby(db, 6)
    async with db.unit() as repo:
        await repo.start_game(third.id, 1, "{}")
    with pytest.raises(GameChanged):
        async with db.unit() as repo:
            await repo.move_game(third.id, 60)  # dealt: it stays where its messages are
    async with db.unit() as repo:
        assert [g.id for g in await repo.live_games()] == [first.id, second.id, third.id]
        assert (await repo.live_game_in_channel(5)) == await repo.load_game(second.id)
