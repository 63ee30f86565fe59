"""The live games of some shards, read in SQL: Discord's rule ``(guild_id >> 22) % count``
on real snowflakes, lobbies and dealt games, finished games left out."""

from __future__ import annotations

from bot.rummy import preset
from bot.storage import Database, GameRecord, GameStatus
from bot.values.clock import utc_now
from bot.values.seats import NewSeat, assign_seats
from bot.values.shards import shard_of

SNOWFLAKES = (
    81384788765712384,  # Discord API's own server
    613425648685547541,
    1234567890123456789,
    9223372036854775807,  # the largest a signed 64-bit id can be
    1000,
    (7 << 22) | 5,
)


async def _game(db: Database, guild_id: int, channel_id: int) -> GameRecord:
    async with db.unit() as repo:
        return await repo.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=1,
            ruleset=preset("classic").to_json(),
            seed=1,
            seats=assign_seats([NewSeat.human(1, "Ann")]),
            snapshot=None,
            at=utc_now(),
            status=GameStatus.LOBBY,
        )


async def test_each_shard_reads_the_games_discord_routes_to_it(db: Database) -> None:
    games = [(await _game(db, guild, 10 + n), guild) for n, guild in enumerate(SNOWFLAKES)]
    async with db.unit() as repo:
        await repo.start_game(games[0][0].id, 1, "{}")  # dealt games count too
        for count in (1, 2, 3, 16):
            for shard in range(count):
                found = await repo.live_games_of_shards(count, [shard])
                expected = [g.id for g, guild in games if shard_of(guild, count) == shard]
                assert [g.id for g in found] == expected, (count, shard)
            every = await repo.live_games_of_shards(count, range(count))
            assert [g.id for g in every] == [g.id for g, _ in games]
        assert await repo.live_games_of_shards(2, []) == []


async def test_finished_and_abandoned_games_are_not_read(db: Database) -> None:
    kept = await _game(db, SNOWFLAKES[0], 1)
    gone = await _game(db, SNOWFLAKES[0], 2)
    async with db.unit() as repo:
        await repo.abandon_game(gone.id, utc_now())
        found = await repo.live_games_of_shards(1, [0])
    assert [g.id for g in found] == [kept.id]
