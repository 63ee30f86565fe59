"""Settings come from the environment over .env, and bad values stop the start with a reason;
the launcher's own settings (discord.py's log level, the test-only URLs, the hard players'
workers) are read the same way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import open_sessions
from bot.infrastructure.settings import (
    DEFAULT_DATABASE_PATH,
    PROJECT_ROOT,
    Settings,
    SettingsError,
    default_hard_workers,
    env_file_places,
    token_shape,
)

TOKEN = "abc.def.ghi"


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=())
    assert settings.discord_token.reveal() == TOKEN
    assert Path("data/rummy.sqlite3") == DEFAULT_DATABASE_PATH
    assert settings.database_path == Path.cwd() / "data" / "rummy.sqlite3"
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=/srv/a.db\nLOG_LEVEL=debug\nDEV_GUILD_ID=42\n"
    )
    settings = Settings.from_env({"DATABASE_PATH": "/srv/b.db"}, env_files=[env_file])
    assert settings.discord_token.reveal() == TOKEN
    assert settings.database_path == Path("/srv/b.db")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 42


def test_the_token_never_shows() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=())
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
        Settings.from_env(environ, env_files=())


def test_unset_means_unchanged() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=())
    assert settings.discord_log_level is None
    assert settings.api_base_url is None
    assert settings.gateway_url is None
    assert settings.clock_offset == 0


def test_the_test_urls_are_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/",
            "DISCORD_LOG_LEVEL": "debug",
            "CLOCK_OFFSET_SECONDS": "-600",
        },
        env_files=(),
    )
    assert settings.clock_offset == -600
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
        ("CLOCK_OFFSET_SECONDS", "ten minutes"),
        ("CLOCK_OFFSET_SECONDS", "86401"),
    ],
)
def test_bad_values_are_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, name: value}, env_files=())


def test_hard_player_workers_default_leaves_the_bot_a_core() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=())
    assert settings.hard_workers == default_hard_workers()
    assert 1 <= settings.hard_workers <= max(1, (os.cpu_count() or 2) - 1)


@pytest.mark.parametrize(("text", "workers"), [("3", 3), (" 1 ", 1), ("32", 32)])
def test_hard_player_workers_are_read(text: str, workers: int) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "HARD_PLAYER_WORKERS": text}
    assert Settings.from_env(env, env_files=()).hard_workers == workers


@pytest.mark.parametrize("text", ["0", "33", "two", "1.5", "-1"])
def test_bad_hard_player_workers_are_refused_by_name(text: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "HARD_PLAYER_WORKERS": text}
    with pytest.raises(SettingsError, match="HARD_PLAYER_WORKERS must be a whole number"):
        Settings.from_env(env, env_files=())


@pytest.mark.parametrize(
    ("text", "on"), [("", False), ("false", False), ("true", True), (" On ", True)]
)
def test_the_members_intent_is_a_switch(text: str, on: bool) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "MEMBERS_INTENT": text}
    assert Settings.from_env(env, env_files=()).members_intent is on


def test_a_bad_members_intent_is_refused_by_name() -> None:
    env = {"DISCORD_TOKEN": TOKEN, "MEMBERS_INTENT": "maybe"}
    with pytest.raises(SettingsError, match="MEMBERS_INTENT must be true or false"):
        Settings.from_env(env, env_files=())


def test_the_servers_grace_period_is_read_in_days() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=()).server_grace_days == 7
    env = {"DISCORD_TOKEN": TOKEN, "SERVER_DATA_GRACE_DAYS": "0"}
    assert Settings.from_env(env, env_files=()).server_grace_days == 0


@pytest.mark.parametrize("text", ["-1", "366", "a week"])
def test_a_bad_grace_period_is_refused_by_name(text: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "SERVER_DATA_GRACE_DAYS": text}
    with pytest.raises(SettingsError, match="SERVER_DATA_GRACE_DAYS must be a whole number"):
        Settings.from_env(env, env_files=())


def test_the_lobby_idle_time_is_read_in_minutes() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=()).lobby_idle_minutes == 30
    env = {"DISCORD_TOKEN": TOKEN, "LOBBY_IDLE_MINUTES": " 5 "}
    assert Settings.from_env(env, env_files=()).lobby_idle_minutes == 5


@pytest.mark.parametrize("text", ["0", "10081", "soon"])
def test_a_bad_lobby_idle_time_is_refused_by_name(text: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "LOBBY_IDLE_MINUTES": text}
    with pytest.raises(SettingsError, match="LOBBY_IDLE_MINUTES must be a whole number"):
        Settings.from_env(env, env_files=())


def test_the_lease_time_is_read_in_seconds() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}, env_files=()).lease_seconds == 15
    env = {"DISCORD_TOKEN": TOKEN, "LEASE_SECONDS": "4"}
    assert Settings.from_env(env, env_files=()).lease_seconds == 4


@pytest.mark.parametrize("text", ["0", "601", "1.5"])
def test_a_bad_lease_time_is_refused_by_name(text: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "LEASE_SECONDS": text}
    with pytest.raises(SettingsError, match="LEASE_SECONDS must be a whole number"):
        Settings.from_env(env, env_files=())


async def test_the_launcher_gives_the_lobbies_their_idle_time(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "rummy.sqlite3", 1, 7)
    try:
        assert sessions.timing.lobby_idle == 7
    finally:
        await sessions.close()


async def test_the_launcher_gives_the_hard_players_that_many_processes(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "rummy.sqlite3", 3)
    try:
        assert sessions.brains.workers == 3
    finally:
        await sessions.close()


# --- paths and the .env file ----------------------------------------------------------------


def test_home_and_relative_paths_are_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))

    def read(text: str) -> Path:
        env = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": text}
        return Settings.from_env(env, env_files=()).database_path

    assert read("~/rummy.sqlite3") == tmp_path / "home" / "rummy.sqlite3"
    assert read("db/../games/rummy.sqlite3") == tmp_path / "games" / "rummy.sqlite3"
    assert read("") == tmp_path / "data" / "rummy.sqlite3"
    assert read("/srv/rummy/rummy.sqlite3") == Path("/srv/rummy/rummy.sqlite3")
    assert list(tmp_path.iterdir()) == []  # reading settings creates nothing


def test_a_home_that_does_not_exist_is_refused_not_made_a_folder() -> None:
    env = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "~no-such-user-here/rummy.sqlite3"}
    with pytest.raises(SettingsError, match="DATABASE_PATH: cannot tell which home folder"):
        Settings.from_env(env, env_files=())


def test_env_is_looked_for_here_then_beside_the_project(tmp_path: Path) -> None:
    places = env_file_places(tmp_path, {})
    assert places == (tmp_path / ".env", PROJECT_ROOT / ".env")
    assert env_file_places(PROJECT_ROOT, {}) == (PROJECT_ROOT / ".env",)
    named = {"RUMMY_ENV_FILE": "conf/bot.env"}
    assert env_file_places(tmp_path, named) == (tmp_path / "conf" / "bot.env",)
    assert env_file_places(tmp_path, {"RUMMY_ENV_FILE": ""}) == ()
    beside, here = tmp_path / "project.env", tmp_path / "here.env"
    beside.write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=DEBUG\n", encoding="utf-8")
    settings = Settings.from_env({}, env_files=[here, beside])
    assert settings.log_level == "DEBUG"
    assert settings.source == f"the environment and {beside}"
    here.write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")  # the first found wins
    assert Settings.from_env({}, env_files=[here, beside]).log_level == "INFO"


def test_a_missing_token_names_where_it_was_looked_for(tmp_path: Path) -> None:
    here, beside = tmp_path / "a" / ".env", tmp_path / "b" / ".env"
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({}, env_files=[here, beside])
    assert f"there is no .env at {here} or {beside}" in str(refused.value)
    beside.parent.mkdir()
    beside.write_text("LOG_LEVEL=DEBUG\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=f"neither the environment nor {beside} sets it"):
        Settings.from_env({}, env_files=[here, beside])


# --- the token's shape (--check) -------------------------------------------------------------


def test_a_token_shaped_like_a_bot_token_gives_the_bot_id() -> None:
    assert token_shape("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-token-for-tests_0123456789") == (
        123456789012345678
    )


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("abcdef", "three parts"),
        ("MTIz..xyz", "three parts"),
        ("MTIz.ab+c.xyz", "characters a bot token never has"),
        ("c2VjcmV0.abc.def", "first part is not a bot's id"),
    ],
)
def test_a_token_of_another_shape_is_refused(token: str, reason: str) -> None:
    with pytest.raises(SettingsError, match=reason):
        token_shape(token)


def test_relative_paths_in_a_env_file_start_from_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project's .env, read from elsewhere, still means the project's database."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    env_file = project / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")
    settings = Settings.from_env({}, env_files=[elsewhere / ".env", env_file])
    assert settings.database_path == project / "data" / "rummy.sqlite3"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=games/r.sqlite3\n", "utf-8")
    settings = Settings.from_env({}, env_files=[elsewhere / ".env", env_file])
    assert settings.database_path == project / "games" / "r.sqlite3"


def test_database_url_wins_over_the_path_and_is_shown_without_its_password() -> None:
    url = "postgresql://rummy:s3cret@db.example:5432/rummy?options=-c%20x%3Dy"
    settings = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url, "DATABASE_PATH": "/srv/b.db"},
        env_files=(),
    )
    assert settings.database == url
    assert settings.database_name == "postgresql://rummy:***@db.example:5432/rummy"
    plain = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "/srv/b.db"}, env_files=())
    assert (plain.database_url, plain.database) == (None, Path("/srv/b.db"))


def test_a_database_url_of_another_kind_is_refused_without_echoing_it() -> None:
    with pytest.raises(SettingsError, match="postgresql://") as caught:
        Settings.from_env(
            {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://u:s3cret@h/db"}, env_files=()
        )
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    ("password", "says"),
    [
        ("pa ss", "holds a space"),
        ("p@ss", "more than one @"),
        ("se%cret", "a % that is not followed by two hex digits"),
    ],
)
def test_a_malformed_database_url_is_refused_without_its_password(password: str, says: str) -> None:
    url = f"postgresql://rummy:{password}@db.example:5432/rummy"
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, env_files=())
    message = str(refused.value)
    assert says in message
    assert password not in message
    assert "db.example" not in message  # nothing of the URL is echoed


def test_the_password_is_a_secret_as_written_and_decoded() -> None:
    url = "postgresql://rummy:p%40ss%20w@db.example/rummy?password=other"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, env_files=())
    assert {"p%40ss%20w", "p@ss w", "other", TOKEN} <= set(settings.secrets)
    assert "p%40ss" not in settings.database_name
