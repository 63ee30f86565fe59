"""The settings the launcher adds: discord.py's own log level and the two test-only URLs."""

from __future__ import annotations

import pytest

from bot.settings import Settings, SettingsError

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
