"""The session manager's decisions when a game's place goes away, without Discord: a channel
or a server gone ends its games quietly (no event, no league effect, not loaded again); a
member gone hands their seat to a computer player; a server left is erased after its grace
period unless the bot is back."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.rummy import preset
from bot.sessions import Committed, EventKind, SessionManager
from bot.storage import GameStatus
from tests.sessions.conftest import ANN, BOB, CHANNEL, GUILD, start_game, store_of


async def test_a_channel_gone_ends_its_game_without_an_event(
    manager: SessionManager, db_path: Path | str
) -> None:
    heard: list[Committed] = []

    async def listen(event: Committed) -> None:
        heard.append(event)

    session = await start_game(manager)
    manager.add_listener(listen)
    assert await manager.channel_gone(CHANNEL) == (session.game_id,)
    assert manager.get(CHANNEL) is None
    await session.notifier
    assert EventKind.CANCELLED not in [e.kind for e in heard]  # what was queued before only
    assert await manager.channel_gone(CHANNEL) == ()  # nothing live there any more
    again = await SessionManager.open(db_path)
    try:
        assert await again.load_active() == 0
    finally:
        await again.close()


async def test_a_server_gone_ends_its_games_and_only_those(manager: SessionManager) -> None:
    ours = await start_game(manager)
    other = await start_game(manager, channel=CHANNEL + 1, guild=GUILD + 1)
    assert await manager.guild_gone(GUILD) == (ours.game_id,)
    assert ours.closed
    assert not other.closed


async def test_a_member_gone_hands_the_seat_to_a_computer(manager: SessionManager) -> None:
    session = await start_game(manager)
    assert await manager.member_gone(GUILD + 1, BOB) == ()  # another server: nothing
    assert await manager.member_gone(GUILD, BOB) == (session.game_id,)
    bob = session.player_of(BOB)
    assert bob is not None
    assert session.computer_level(bob) == "normal"
    assert await manager.member_gone(GUILD, BOB) == ()  # already handed over


async def test_a_member_gone_from_a_lobby_leaves_it(manager: SessionManager) -> None:
    lobby = await manager.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANN, host_name="Ann", ruleset=preset("classic")
    )
    await lobby.join(BOB, "Bob")
    await manager.member_gone(GUILD, ANN)
    assert [s.user_id for s in lobby.seats] == [BOB]
    assert lobby.host_id == BOB


async def test_a_server_left_is_erased_after_its_grace_unless_the_bot_is_back(
    manager: SessionManager,
) -> None:
    ours = await start_game(manager)
    other = await start_game(manager, channel=CHANNEL + 1, guild=GUILD + 1)
    assert await manager.guild_left(GUILD)
    assert await manager.guild_left(GUILD + 1)
    assert await manager.erase_departed(timedelta(days=7)) == ()
    assert await manager.erase_departed(timedelta(0), present=[GUILD + 1]) == (GUILD,)
    assert not await manager.guild_back(GUILD + 1)  # its departure was already cancelled
    assert await manager.erase_departed(timedelta(0)) == ()
    async with store_of(manager).unit() as repo:
        erased = await repo.load_game(ours.game_id)
        kept = await repo.load_game(other.game_id)
    assert erased is None
    assert kept is not None
    assert kept.status is GameStatus.ABANDONED  # ended when the bot left, but kept
