"""Settings come from the environment over .env, and bad values stop the start with a reason;
the launcher's own settings (discord.py's log level, the test-only URLs, the hard players'
workers) are read the same way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import open_sessions
from bot.settings import DEFAULT_DATABASE_PATH, Settings, SettingsError, default_hard_workers

TOKEN = "abc.def.ghi"


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_file=None)
    assert settings.discord_token.reveal() == TOKEN
    assert settings.database_path == DEFAULT_DATABASE_PATH == Path("data/rummy.sqlite3")
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=/srv/a.db\nLOG_LEVEL=debug\nDEV_GUILD_ID=42\n"
    )
    settings = Settings.from_env({"DATABASE_PATH": "/srv/b.db"}, env_file=env_file)
    assert settings.discord_token.reveal() == TOKEN
    assert settings.database_path == Path("/srv/b.db")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 42


def test_the_token_never_shows() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_file=None)
    for text in (repr(settings), str(settings), f"{settings.discord_token}"):
        assert TOKEN not in text


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "a b"}, "DISCORD_TOKEN contains white space"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "-3"}, "DEV_GUILD_ID must be a positive"),
    ],
)
def test_bad_values_are_explained(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(environ, env_file=None)


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
