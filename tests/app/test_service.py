"""``python -m bot`` as a service manager runs it: one bot per database (a second start names
the holder and exits 2, a killed holder leaves no stale lock), paths shown in full, every
file it writes owner-only, a file of another user explained, and ``--check`` for health
checks."""

from __future__ import annotations

import asyncio
import os
import pwd
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.infrastructure.settings import KNOWN_SETTINGS
from bot.storage import Database
from tests.app.test_launcher import TOKEN, Running, assert_clean, environment, run_launcher
from tests.waiting import PATIENCE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def nowhere() -> Iterator[str]:
    """An API root nothing answers (a port bound, never listening): the bot keeps retrying,
    holding its database, until it is stopped."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/api/v10"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_second_bot_on_the_same_database_names_the_first_and_exits_2(
    tmp_path: Path, nowhere: str
) -> None:
    first = Running(tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL=nowhere)
    lock = tmp_path / "data" / "rummy.sqlite3.lock"
    try:
        first.wait_for_lines("cannot reach Discord", 1, timeout=30)
        second = run_launcher(tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL=nowhere)
        checked = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN)
        assert first.process.poll() is None  # the first one never noticed
    finally:
        first.process.kill()  # SIGKILL: no clean-up at all
        first.process.communicate()
    assert second.returncode == 2, second.stderr
    errors = [line for line in second.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, second.stderr
    assert f"process {first.process.pid} is already running the bot" in errors[0]
    assert f"(lock {lock})" in errors[0]
    assert "cannot reach Discord" not in second.stderr  # stopped before connecting
    assert_clean(second.stderr)
    assert checked.returncode == 0, checked.stdout
    assert f"in use by the running bot (process {first.process.pid})" in checked.stdout
    assert mode(lock) == 0o600
    # The kernel dropped the killed bot's lock: the next start takes the database at once.
    after = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN)
    assert after.returncode == 0, after.stdout
    assert "opened" in after.stdout


def test_home_and_relative_paths_are_used_and_shown_in_full(tmp_path: Path, nowhere: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    running = Running(
        tmp_path,
        HOME=str(home),
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE_URL=nowhere,
        DATABASE_PATH="~/games/rummy.sqlite3",
    )
    try:
        lines = running.wait_for_lines("unfinished games loaded", 1, timeout=30)
        code, _ = running.stop(signal.SIGTERM, timeout=PATIENCE)
    finally:
        running.kill()
    assert code == 0
    assert f"database {home}/games/rummy.sqlite3 ready" in lines[0]
    assert not (tmp_path / "~").exists()
    assert (home / "games" / "rummy.sqlite3").is_file()
    settings_line = next(line for line in running.lines if "settings read from" in line)
    assert f"no .env file at {tmp_path}/.env" in settings_line


def test_every_file_the_bot_writes_is_its_owners_only(tmp_path: Path, nowhere: str) -> None:
    running = Running(tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL=nowhere)
    try:
        running.wait_for_lines("cannot reach Discord", 1, timeout=30)
        data = tmp_path / "data"
        written = sorted(p.name for p in data.iterdir())
        modes = {p.name: mode(p) for p in data.iterdir()}
    finally:
        running.kill()
    assert written == [
        "rummy.sqlite3",
        "rummy.sqlite3-shm",
        "rummy.sqlite3-wal",
        "rummy.sqlite3.lock",
    ]
    assert modes == dict.fromkeys(written, 0o600)
    assert mode(tmp_path / "data") == 0o700


# --- --check ------------------------------------------------------------------------------


def make_database(path: Path) -> None:
    """The bot's database at ``path``, as its first start leaves it."""

    async def create() -> None:
        await (await Database.open(path)).close()

    asyncio.run(create())


def test_check_creates_no_database_and_says_what_it_checked(tmp_path: Path) -> None:
    result = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN, DATABASE_PATH="db/r.sqlite3")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("settings: read from the environment only; no .env file at")
    assert (
        lines[1]
        == "token: shaped like a bot token (bot id 123456789012345678); not sent to Discord"
    )
    assert lines[2] == (
        f"database: {tmp_path}/db/r.sqlite3 does not exist yet; the bot creates it at its"
        " first start"
    )
    assert lines[-1] == "ok"
    assert_clean(result.stdout + result.stderr)
    assert not (tmp_path / "db").exists()

    make_database(tmp_path / "db" / "r.sqlite3")
    again = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN, DATABASE_PATH="db/r.sqlite3")
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"database: {tmp_path}/db/r.sqlite3 opened; 0 unfinished games read back" in (
        again.stdout.splitlines()
    )


def test_check_fails_on_a_damaged_page_as_a_start_would(tmp_path: Path) -> None:
    database = tmp_path / "data" / "rummy.sqlite3"
    make_database(database)
    with sqlite3.connect(database) as conn:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games'").fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    with database.open("r+b") as out:  # the games table's page: a header, then garbage
        out.seek(size * (root - 1))
        out.write(b"\x0d\x00\x00\x00\x05" + b"\xff" * 200)
    result = run_launcher(tmp_path, "--check", DISCORD_TOKEN=TOKEN)
    assert result.returncode == 2, result.stdout
    assert result.stdout.splitlines()[-1].startswith(f"database: {database} is damaged")
    assert "restore it from a backup" in result.stdout


def test_check_warns_of_an_unknown_setting_with_the_closest_known_one(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nDATABSE_PATH=elsewhere.sqlite3\n", encoding="utf-8"
    )
    result = run_launcher(tmp_path, "--check", RUMMY_ENV_FILE=".env")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (
        "settings: warning: the .env setting DATABSE_PATH is not one the bot reads, so it is"
        " ignored; did you mean DATABASE_PATH?"
    ) in result.stdout.splitlines()


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DISCORD_TOKEN": "not-a-token"}, "token: DISCORD_TOKEN is not shaped like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "."}, "database: cannot open the database"),
    ],
)
def test_check_stops_at_the_first_failure_with_status_2(
    tmp_path: Path, env: dict[str, str], says: str
) -> None:
    result = run_launcher(tmp_path, "--check", timeout=60, **env)
    assert result.returncode == 2
    assert says in result.stdout.splitlines()[-1]
    assert_clean(result.stdout + result.stderr)


def test_check_without_a_token_creates_nothing(tmp_path: Path) -> None:
    result = run_launcher(tmp_path, "--check")
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert list(tmp_path.iterdir()) == []


# --- a database that belongs to someone else ---------------------------------------------


def as_someone_else(*, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The launcher run so that our files are not its own to write. As root, without any
    capability (root ignores file modes only through them), on files given to ``nobody``;
    as anyone else, on files made read-only (see :func:`give_away`)."""
    prefix = (
        ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--"] if os.geteuid() == 0 else []
    )
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot"],
        cwd=cwd,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def give_away(path: Path) -> None:
    if os.geteuid() == 0:
        os.chown(path, pwd.getpwnam("nobody").pw_uid, -1)
    else:
        path.chmod(0o500 if path.is_dir() else 0o400)


@pytest.mark.parametrize("whose", ["folder", "file"])
def test_a_database_of_another_user_is_explained(tmp_path: Path, whose: str) -> None:
    data, database = tmp_path / "data", tmp_path / "data" / "rummy.sqlite3"
    make_database(database)
    in_the_way = data if whose == "folder" else database
    give_away(in_the_way)
    try:
        result = as_someone_else(
            cwd=tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL="http://127.0.0.1:9/api/v10"
        )
    finally:
        if os.geteuid() != 0:
            in_the_way.chmod(0o700 if whose == "folder" else 0o600)
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, result.stderr
    assert f"cannot open the database {database}" in errors[0]
    if os.geteuid() == 0:
        assert f"the {whose} {in_the_way} belongs to nobody" in errors[0]
        assert "the bot runs as root: run the bot as nobody" in errors[0]
    else:
        assert f"the {whose} {in_the_way} is not writable" in errors[0]
    assert "cannot reach Discord" not in result.stderr
    assert_clean(result.stderr)


@pytest.mark.parametrize("below", [True, False])
def test_the_advice_names_only_the_database_s_own_folder(tmp_path: Path, below: bool) -> None:
    """A database in a folder of the system's (``/var/lib/nope/x.db``, ``/var/lib/x.db``):
    the advice is a folder of the bot's own, never to take over the folder above."""
    system = tmp_path / "lib"
    system.mkdir()
    (system / "dpkg").write_text("the system's\n", encoding="utf-8")
    database = system / "nope" / "x.db" if below else system / "x.db"
    give_away(system)
    try:
        result = as_someone_else(
            cwd=tmp_path,
            DISCORD_TOKEN=TOKEN,
            DATABASE_PATH=str(database),
            DISCORD_API_BASE_URL="http://127.0.0.1:9/api/v10",
        )
    finally:
        if os.geteuid() != 0:
            system.chmod(0o700)
    assert result.returncode == 2, result.stderr
    (error,) = [line for line in result.stderr.splitlines() if " ERROR " in line]
    own = database.parent if below else system / "rummy-bot"
    assert f"mkdir -p {own} && chown " in error, error
    assert "chown -R" not in error
    assert f"chown {system}" not in error
    assert not error.endswith(f" {system})")
    if not below:
        assert f"DATABASE_PATH={own / 'x.db'}" in error


def test_a_shared_database_folder_is_warned_about_once(tmp_path: Path, nowhere: str) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    (shared / "notes.txt").write_text("someone else's\n", encoding="utf-8")
    running = Running(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE_URL=nowhere,
        DATABASE_PATH="shared/rummy.sqlite3",
    )
    try:
        running.wait_for_lines("cannot reach Discord", 1, timeout=30)
    finally:
        running.kill()
    warnings = [line for line in running.lines if " WARNING " in line and "readable" in line]
    assert len(warnings) == 1, "\n".join(running.lines)
    assert f"the database folder {shared} is readable by other users" in warnings[0]
    assert mode(shared / "rummy.sqlite3") == 0o600


def test_the_env_example_advice_comes_only_without_an_env_file(tmp_path: Path) -> None:
    missing = run_launcher(tmp_path, "--check")
    assert missing.returncode == 2
    assert "copy .env.example to .env" in missing.stderr
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=LOUD\n", encoding="utf-8")
    wrong = run_launcher(tmp_path, "--check")
    assert wrong.returncode == 2
    assert "LOG_LEVEL must be one of" in wrong.stderr
    assert ".env.example" not in wrong.stderr


def test_help_and_env_example_name_every_setting(tmp_path: Path) -> None:
    shown = run_launcher(tmp_path, "--help")
    assert shown.returncode == 0
    listed = {line.split()[0] for line in shown.stdout.splitlines() if line.startswith("  ")}
    assert set(KNOWN_SETTINGS) <= listed
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = {
        line.lstrip("# ").split("=", 1)[0]
        for line in example.splitlines()
        if re.match(r"^#? ?[A-Z_]+=", line)
    }
    assert named == set(KNOWN_SETTINGS)
    # Commands it names exist where the operator types them (the checkout, no venv active).
    assert "rummy-bot --" not in example
