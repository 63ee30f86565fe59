"""Discord's global limit is the bot's: each process paces its workers at its shards' share
of it, and follows the shards it holds. The pacers run on a clock of the test's own: a
pause moves it on at once, so a loaded machine cannot stretch what is measured."""

from __future__ import annotations

import asyncio

import pytest

from bot.values.shards import StaticOwnership
from cogs.display.pacing import PACE, Pacer, share_of


class Held:
    """An ownership whose shards change, as a lease-backed one's do."""

    def __init__(self, count: int, ids: set[int]) -> None:
        self.shard_count = count
        self.ids = set(ids)

    def held(self) -> frozenset[int]:
        return frozenset(self.ids)

    def owns_guild(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.shard_count in self.ids


class Clock:
    """Time that passes only when a pacer pauses."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def paced(rate: float, ownership: StaticOwnership, clock: Clock) -> Pacer:
    return Pacer(rate, ownership=ownership, clock=clock, sleep=clock.sleep)


async def sent_in(pacer: Pacer, clock: Clock, requests: int) -> float:
    """Seconds ``requests`` take once the burst is spent."""
    for _ in range(int(pacer.burst)):
        await pacer()
    start = clock.now
    for _ in range(requests):
        await pacer()
    return clock.now - start


def test_the_share_follows_the_shards_held() -> None:
    assert share_of(StaticOwnership()) == PACE
    assert share_of(StaticOwnership(2, frozenset({1}))) == PACE / 2
    assert share_of(StaticOwnership(4, frozenset({0, 2, 3}))) == PACE * 3 / 4


async def test_a_process_with_one_of_two_shards_paces_at_half() -> None:
    clock = Clock()
    whole = paced(400.0, StaticOwnership(2), clock)
    half = paced(400.0, StaticOwnership(2, frozenset({0})), clock)
    assert (whole.rate, half.rate) == (400.0, 200.0)
    # 20 requests after the burst: 0.05 s at the whole pace, 0.1 s at half of it.
    assert await sent_in(half, clock, 20) == pytest.approx(20 / 200.0)
    assert await sent_in(whole, clock, 20) == pytest.approx(20 / 400.0)


async def test_the_pace_is_computed_again_when_the_shards_held_change() -> None:
    held = Held(4, {0})
    pacer = Pacer(40.0, ownership=held)
    assert pacer.rate == 10.0
    held.ids |= {1, 2}
    await pacer()
    assert pacer.rate == 30.0
    held.ids.clear()
    await pacer()
    assert pacer.rate == 10.0  # none held: one shard's part, never a standstill
    assert Pacer(40.0).rate == 40.0  # no ownership: the pace given
