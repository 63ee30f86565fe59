"""The settings the launcher adds: discord.py's own log level and the two test-only URLs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import open_sessions
from bot.settings import Settings, SettingsError, default_hard_workers

TOKEN = "abc.def.ghi"


def test_unset_means_unchanged() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_file=None)
    assert settings.discord_log_level is None
    assert settings.api_base_url is None
    assert settings.gateway_url is None


def test_the_test_urls_are_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/",
            "DISCORD_LOG_LEVEL": "debug",
        },
        env_file=None,
    )
    assert settings.api_base_url == "http://127.0.0.1:8080/api/v10"
    assert settings.gateway_url == "ws://127.0.0.1:8080/"
    assert settings.discord_log_level == "DEBUG"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_API_BASE_URL", "127.0.0.1:8080"),
        ("DISCORD_API_BASE_URL", "ws://127.0.0.1:8080"),
        ("DISCORD_GATEWAY_URL", "http://127.0.0.1:8080"),
        ("DISCORD_LOG_LEVEL", "chatty"),
    ],
)
def test_bad_values_are_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, name: value}, env_file=None)


def test_hard_player_workers_default_leaves_the_bot_a_core() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_file=None)
    assert settings.hard_workers == default_hard_workers()
    assert 1 <= settings.hard_workers <= max(1, (os.cpu_count() or 2) - 1)


@pytest.mark.parametrize(("text", "workers"), [("3", 3), (" 1 ", 1), ("32", 32)])
def test_hard_player_workers_are_read(text: str, workers: int) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "HARD_PLAYER_WORKERS": text}
    assert Settings.from_env(env, env_file=None).hard_workers == workers


@pytest.mark.parametrize("text", ["0", "33", "two", "1.5", "-1"])
def test_bad_hard_player_workers_are_refused_by_name(text: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "HARD_PLAYER_WORKERS": text}
    with pytest.raises(SettingsError, match="HARD_PLAYER_WORKERS must be a whole number"):
        Settings.from_env(env, env_file=None)


async def test_the_launcher_gives_the_hard_players_that_many_processes(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "rummy.sqlite3", 3)
    try:
        assert sessions.brains.workers == 3
    finally:
        await sessions.close()
