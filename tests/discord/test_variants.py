"""Rummy 500 with a deep take and Parlett with jokers swapped and twin cards typed by face,
played by slash commands chosen from autocomplete."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.rummy import preset
from bot.sessions import SessionManager, SessionStatus
from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Strategy, Table, cog_problems, eventually, play_turn, start_bot

__all__ = ["cog_problems"]


async def _play(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    variant: str,
    players: int,
    seed: int,
    done: object,
    **options: object,
) -> tuple[Table, Strategy]:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    users = [fake.add_user(f"p{i}") for i in range(players)]
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3")
    bot = await start_bot(fake, bot_factory, sessions, guild)
    table = Table(fake, bot, sessions, guild, channel, users)
    # A fixed deal: the lobby is opened through the session API with a seed; everything
    # after goes through Discord.
    await sessions.create_lobby(
        guild_id=guild.id,
        channel_id=channel.id,
        host_id=users[0].id,
        host_name="p0",
        ruleset=preset(variant, **options),
        seed=seed,
    )
    for user in users[1:]:
        assert "seat" in await table.text(user, "rummy join")
    assert "dealt" in await table.text(users[0], "rummy start")
    strategy = Strategy()
    session = table.session()
    by_id = {str(u.id): u for u in users}
    for _ in range(400):
        if session.status is not SessionStatus.ACTIVE or done(strategy):  # type: ignore[operator]
            break
        current = session.view(None).current
        assert current is not None
        await play_turn(table, by_id[current], strategy)
    return table, strategy


async def test_rummy_500_with_a_deep_take(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    table, strategy = await _play(
        fake, bot_factory, tmp_path, "500", 2, 4, lambda s: s.deep_takes >= 1 and s.layoffs >= 0
    )
    try:
        assert strategy.deep_takes >= 1
        await eventually(
            lambda: "Discard pile (bottom to top)" in getattr(table.table_message(), "content", "")
        )
    finally:
        await table.bot.close()
        await table.sessions.close()


async def test_parlett_with_two_decks_a_joker_swap_and_a_twin_typed_by_face(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    table, strategy = await _play(
        fake,
        bot_factory,
        tmp_path,
        "parlett",
        4,
        2,
        lambda s: s.swaps >= 1 and s.typed_faces >= 1,
        two_decks=True,
    )
    try:
        assert strategy.swaps >= 1
        assert strategy.typed_faces >= 1
    finally:
        await table.bot.close()
        await table.sessions.close()


async def test_a_four_player_classic_game_played_to_the_end(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    tmp_path: Path,
    cog_problems: list[logging.LogRecord],
) -> None:
    table, strategy = await _play(
        fake, bot_factory, tmp_path, "classic", 4, 11, lambda s: False, target=1
    )
    try:
        assert table.sessions.get(table.channel.id) is None  # the game is over
        assert strategy.melds > 0
        await eventually(
            lambda: any("Game over." in m.content for m in fake.messages(table.channel))
        )
        final = next(m for m in fake.messages(table.channel) if "Game over." in m.content)
        for user in table.players:
            assert user.name in final.content
    finally:
        await table.bot.close()
        await table.sessions.close()
