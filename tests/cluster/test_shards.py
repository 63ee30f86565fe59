"""Discord's routing rule and the fixed ownership of a single process."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.values.shards import StaticOwnership, shard_of

SNOWFLAKES = st.integers(min_value=0, max_value=2**63 - 1)


def test_the_routing_rule_is_discords() -> None:
    # (guild_id >> 22) % shard_count, worked by hand: 197038439483310086 >> 22 = 46977624770.
    assert shard_of(197038439483310086, 1) == 0
    assert shard_of(197038439483310086, 2) == 0
    assert shard_of(197038439483310086, 3) == 46977624770 % 3 == 2
    assert shard_of(41771983423143937, 4) == 2


@given(SNOWFLAKES, st.integers(min_value=1, max_value=64))
def test_every_server_belongs_to_exactly_one_shard(guild: int, count: int) -> None:
    owners = [s for s in range(count) if StaticOwnership(count, frozenset({s})).owns_guild(guild)]
    assert owners == [shard_of(guild, count)]


def test_one_process_owns_everything_by_default() -> None:
    alone = StaticOwnership()
    assert alone.held() == frozenset({0})
    assert alone.owns_guild(123456789012345678)


def test_shard_ids_outside_the_count_are_refused() -> None:
    with pytest.raises(ValueError, match=r"\[2\]"):
        StaticOwnership(2, frozenset({0, 2}))
    with pytest.raises(ValueError, match="at least 1"):
        StaticOwnership(0)
