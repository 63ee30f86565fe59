"""SHARD_COUNT and SHARD_IDS: read as the total and this process's shards, and every mistake
refused in one line that names the setting."""

from __future__ import annotations

import pytest

from bot.infrastructure.settings import Settings, SettingsError

TOKEN = "abc.def.ghi"


def read(**values: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **values}, env_files=())


def test_unset_the_count_is_discords_and_every_shard_runs_here() -> None:
    settings = read()
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert (read(SHARD_COUNT=" 4 ").shard_count, read(SHARD_COUNT="4").shard_ids) == (4, None)


def test_the_shards_of_this_process_are_read() -> None:
    settings = read(SHARD_COUNT="4", SHARD_IDS="3, 1")
    assert settings.shard_count == 4
    assert settings.shard_ids == frozenset({1, 3})
    assert read(SHARD_COUNT="1", SHARD_IDS="0").shard_ids == frozenset({0})


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"SHARD_COUNT": "0"},
            "SHARD_COUNT must be a whole number of shards from 1 to 65536, not '0'",
        ),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number of shards"),
        ({"SHARD_COUNT": "70000"}, "SHARD_COUNT must be a whole number of shards"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0;1"},
            "SHARD_IDS must be shard numbers separated by commas",
        ),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "SHARD_IDS must be shard numbers"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "1,2"},
            "SHARD_IDS names shard 2, but SHARD_COUNT=2 numbers the shards 0 to 1",
        ),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,1"}, "SHARD_IDS names shard 1 twice"),
    ],
)
def test_each_mistake_is_one_line_naming_the_setting(values: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as refused:
        read(**values)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
