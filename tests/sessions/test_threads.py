"""A lobby that moves into the thread started from its message: found by the thread from
then on (a restart too), its channel free again, and never dealt before it is there."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.rummy import preset
from bot.sessions import ChannelBusy, Committed, LobbyError, SessionManager, SessionStatus
from tests.sessions.conftest import ANN, BOB, CHANNEL, GUILD

THREAD = CHANNEL + 1000


async def test_a_lobby_moves_into_its_thread_and_is_dealt_only_once_there(
    db_path: Path | str,
) -> None:
    manager = await SessionManager.open(db_path)
    heard: list[Committed] = []

    async def listener(event: Committed) -> None:
        heard.append(event)

    manager.add_listener(listener)
    try:
        lobby = await manager.create_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ANN,
            host_name="Ann",
            ruleset=preset("classic"),
            seed=3,
            placing=True,
        )
        await lobby.join(BOB, "Bob")
        start = asyncio.create_task(lobby.start(ANN, moderator=False))
        await asyncio.sleep(0.05)
        assert not start.done()  # the deal waits for the lobby to be placed
        await manager.move_to_thread(lobby, THREAD)
        lobby.placed()
        started = await start
        assert (started.channel_id, started.lobby_channel_id) == (THREAD, CHANNEL)
        assert manager.get(THREAD) is lobby
        assert manager.get(CHANNEL) is None
        assert manager.opened_in(CHANNEL) == [lobby]
        with pytest.raises(LobbyError):
            await manager.move_to_thread(lobby, THREAD + 1)  # dealt: it stays
        with pytest.raises(ChannelBusy):
            await manager.create_lobby(
                guild_id=GUILD,
                channel_id=THREAD,
                host_id=BOB,
                host_name="Bob",
                ruleset=preset("classic"),
            )
        # The channel is free for another table.
        other = await manager.create_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=BOB,
            host_name="Bob",
            ruleset=preset("classic"),
        )
        assert manager.get(CHANNEL) is other
    finally:
        await manager.close()
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 2
        back = again.get(THREAD)
        assert back is not None
        assert back.status is SessionStatus.ACTIVE
        assert back.lobby_channel_id == CHANNEL
        # A loaded game is placed: it was dealt already, or is dealt at once.
        assert again.get(CHANNEL) is not None
    finally:
        await again.close()
