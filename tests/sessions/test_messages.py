"""The Discord messages that show a game are stored with it and come back after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rummy import preset
from bot.sessions import SessionManager
from bot.sessions.messages import MessageKind
from bot.storage import MessageRef
from tests.sessions.conftest import ANN, BOB, CHANNEL, GUILD


async def test_message_ids_survive_a_restart_and_follow_changes(db_path: Path | str) -> None:
    manager = await SessionManager.open(db_path)
    try:
        session = await manager.create_lobby(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ANN, host_name="Ann", ruleset=preset()
        )
        await session.join(BOB, "Bob")
        await manager.services.messages.keep(session.game_id, MessageKind.LOBBY, "", CHANNEL, 1)
        await manager.services.messages.keep(session.game_id, MessageKind.TABLE, "", CHANNEL, 2)
        await manager.services.messages.keep(session.game_id, MessageKind.TABLE, "", CHANNEL, 3)
        await manager.services.messages.keep(session.game_id, MessageKind.HAND, str(ANN), 77, 4)
        await manager.services.messages.keep(session.game_id, MessageKind.HAND, str(BOB), 88, 5)
        await manager.services.messages.keep(session.game_id, MessageKind.HAND, str(BOB), 88, None)
        game_id = session.game_id
    finally:
        await manager.close()
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 1
        loaded = again.by_game(game_id)
        assert loaded is not None
        assert dict(again.services.messages.shown(game_id)) == {
            (MessageKind.LOBBY, ""): MessageRef("lobby", "", CHANNEL, 1),
            (MessageKind.TABLE, ""): MessageRef("table", "", CHANNEL, 3),
            (MessageKind.HAND, str(ANN)): MessageRef("hand", str(ANN), 77, 4),
        }
        # A person who asks to be forgotten leaves no DM reference behind.
        await again.forget_user(ANN)
    finally:
        await again.close()
    last = await SessionManager.open(db_path)
    try:
        await last.load_active()
        kept = last.by_game(game_id)
        assert kept is not None  # Bob is left, as host
        assert (MessageKind.HAND, str(ANN)) not in last.services.messages.shown(game_id)
        assert (MessageKind.TABLE, "") in last.services.messages.shown(game_id)
    finally:
        await last.close()


async def test_a_hand_message_names_its_player(manager: SessionManager) -> None:
    session = await manager.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANN, host_name="Ann", ruleset=preset()
    )
    with pytest.raises(ValueError, match="names its player"):
        await manager.services.messages.keep(session.game_id, MessageKind.HAND, "", 1, 2)
    with pytest.raises(ValueError, match="names its player"):
        await manager.services.messages.keep(session.game_id, MessageKind.TABLE, "x", 1, 2)
