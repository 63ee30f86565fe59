"""Settings come from the environment over .env, and bad values stop the start with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE_PATH, Settings, SettingsError

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
