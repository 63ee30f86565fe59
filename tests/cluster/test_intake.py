"""The intake's memory of recent interactions: bounded, oldest forgotten first."""

from __future__ import annotations

from bot.cluster.intake import RecentIds


def test_a_repeat_is_known_until_it_is_among_the_oldest_forgotten() -> None:
    recent = RecentIds(size=3)
    assert [recent.first_time(i) for i in (1, 2, 3)] == [True, True, True]
    assert not recent.first_time(2)
    assert recent.first_time(4)  # 1 is forgotten to keep 3
    assert not recent.first_time(3)
    assert recent.first_time(1)
