"""Rummy 500 with a deep take and Parlett with jokers swapped and twin cards typed by face,
played by slash commands chosen from autocomplete."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.rummy import preset
from bot.sessions import SessionStatus
from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, Strategy, Table, bots, cog_problems, play_turn
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def _play(
    table: Table, variant: str, seed: int, done: Callable[[Strategy], bool], **options: object
) -> Strategy:
    users, sessions = table.players, table.sessions
    # A fixed deal: the lobby is opened through the session API with a seed; everything
    # after goes through Discord.
    await sessions.create_lobby(
        guild_id=table.guild.id,
        channel_id=table.channel.id,
        host_id=users[0].id,
        host_name=users[0].name,
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
        if session.status is not SessionStatus.ACTIVE or done(strategy):
            break
        current = session.view(None).current
        assert current is not None
        await play_turn(table, by_id[current], strategy)
    return strategy


async def test_rummy_500_with_a_deep_take(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("p0", "p1") as table:
        strategy = await _play(table, "500", 4, lambda s: s.deep_takes >= 1 and s.layoffs >= 0)
        assert strategy.deep_takes >= 1
        await eventually(
            lambda: "Discard pile (bottom to top)" in getattr(table.table_message(), "content", "")
        )


async def test_parlett_with_two_decks_a_joker_swap_and_a_twin_typed_by_face(
    bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("p0", "p1", "p2", "p3") as table:
        strategy = await _play(
            table, "parlett", 2, lambda s: s.swaps >= 1 and s.typed_faces >= 1, two_decks=True
        )
        assert strategy.swaps >= 1
        assert strategy.typed_faces >= 1


async def test_a_four_player_classic_game_played_to_the_end(
    fake: FakeDiscord, bots: Bots, cog_problems: list[logging.LogRecord]
) -> None:
    async with bots.table("p0", "p1", "p2", "p3") as table:
        strategy = await _play(table, "classic", 11, lambda s: False, target=1)
        assert table.sessions.get(table.channel.id) is None  # the game is over
        assert strategy.melds > 0
        await eventually(
            lambda: any("Game over." in m.content for m in fake.messages(table.channel))
        )
        final = next(m for m in fake.messages(table.channel) if "Game over." in m.content)
        for user in table.players:
            assert user.name in final.content
