"""The web table's settings: off by default, WEB_PORT and WEB_URL together, loopback unless
told, a secret long enough; and what ``--check`` says of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import check, web_line
from bot.infrastructure.settings import Settings, SettingsError

TOKEN = "abc.def.ghi"


def read(tmp_path: Path, **values: str) -> Settings:
    return Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "r.sqlite3"), **values}, ()
    )


def test_the_web_table_is_off_unless_its_port_and_address_are_set(tmp_path: Path) -> None:
    settings = read(tmp_path)
    assert settings.web is None
    assert web_line(settings).startswith("web: off")


def test_the_web_table_binds_the_loopback_address_by_default(tmp_path: Path) -> None:
    settings = read(tmp_path, WEB_PORT="8080", WEB_URL="https://Rummy.example/")
    web = settings.web
    assert web is not None
    assert (web.host, web.port, web.url) == ("127.0.0.1", 8080, "https://Rummy.example")
    assert web.origin == "https://rummy.example"
    assert web.secure
    assert web.secret_file == tmp_path / "web-secret"
    assert web_line(settings) == (
        "web: listens on 127.0.0.1:8080 for https://Rummy.example; links signed with a secret"
        f" the first start writes to {tmp_path / 'web-secret'}"
    )


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"WEB_PORT": "8080"}, "set WEB_URL too"),
        ({"WEB_URL": "https://rummy.example"}, "set WEB_PORT too"),
        ({"WEB_PORT": "80800", "WEB_URL": "https://r.example"}, "port number from 1 to 65535"),
        ({"WEB_PORT": "8080", "WEB_URL": "rummy.example"}, "WEB_URL must be a http or https URL"),
        ({"WEB_HOST": "0.0.0.0"}, "WEB_HOST needs WEB_PORT and WEB_URL"),
        (
            {"WEB_PORT": "1", "WEB_URL": "http://r.example", "WEB_SECRET": "short"},
            "at least 32 characters",
        ),
    ],
)
def test_a_web_setting_that_cannot_work_is_refused(
    tmp_path: Path, values: dict[str, str], said: str
) -> None:
    with pytest.raises(SettingsError, match=said) as refused:
        read(tmp_path, **values)
    assert "short" not in str(refused.value)


def test_the_web_secret_is_never_shown(tmp_path: Path) -> None:
    secret = "s" * 40
    settings = read(tmp_path, WEB_PORT="1", WEB_URL="http://r.example", WEB_SECRET=secret)
    assert secret in settings.secrets
    assert secret not in repr(settings)
    assert web_line(settings).endswith("links signed with WEB_SECRET")


async def test_check_says_where_the_web_table_listens_before_its_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-token-for-tests_0123456789"
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": token,
            "DATABASE_PATH": str(tmp_path / "r.sqlite3"),
            "WEB_PORT": "8080",
            "WEB_URL": "https://rummy.example",
            "WEB_HOST": "10.0.0.2",
        },
        (),
    )
    assert await check(settings) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("web: listens on 10.0.0.2:8080 for https://rummy.example;")
    assert lines[-1] == "ok"
