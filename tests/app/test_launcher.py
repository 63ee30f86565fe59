"""The launcher as a self-hoster meets it, run as a separate process: every failed start is one
clear line and a non-zero status, an unreachable Discord is waited for, a signal stops it
cleanly, and the token never shows."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import web

from bot import __version__

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-token-for-tests_0123456789"
ANSI = "\x1b["
_INHERITED = ("DISCORD_", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "NO_COLOR", "RUMMY_")


def environment(**env: str) -> dict[str, str]:
    """The test's settings only: the working directory's .env is read, never the one a
    developer keeps beside the project."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(_INHERITED)}
    return {**clean, "PYTHONUNBUFFERED": "1", "RUMMY_ENV_FILE": ".env", **env}


def run_launcher(
    cwd: Path, *args: str, timeout: float = 60, **env: str
) -> subprocess.CompletedProcess[str]:
    return run_command(cwd, [sys.executable, "-m", "bot", *args], timeout, **env)


def run_command(
    cwd: Path, command: list[str], timeout: float = 60, **env: str
) -> subprocess.CompletedProcess[str]:
    """``command`` with the test's settings only (see :func:`environment`)."""
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def assert_clean(output: str) -> None:
    """No traceback, no colour codes, no token: whatever else the output says."""
    assert "Traceback" not in output
    assert ANSI not in output
    assert TOKEN not in output
    assert TOKEN.split(".")[-1] not in output


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if " ERROR " in line]


# --- before anything is opened ---------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_print_and_exit_without_a_token(tmp_path: Path, flag: str) -> None:
    result = run_launcher(tmp_path, flag)
    assert result.returncode == 0
    assert "rummy-bot" in result.stdout
    if flag == "--version":
        assert result.stdout.strip() == f"rummy-bot {__version__}"
    else:
        assert "--sync" in result.stdout
        assert "DISCORD_TOKEN" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_rummy_bot_command_is_the_same_launcher(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "rummy-bot"
    result = run_command(tmp_path, [str(script), "--version"])
    assert result.returncode == 0
    assert result.stdout.strip() == f"rummy-bot {__version__}"
    missing = subprocess.run(
        [str(script)], cwd=tmp_path, env=environment(), capture_output=True, text=True, check=False
    )
    assert missing.returncode == 2
    assert "DISCORD_TOKEN is not set" in missing.stderr


def test_an_unknown_option_is_refused(tmp_path: Path) -> None:
    result = run_launcher(tmp_path, "--frobnicate", DISCORD_TOKEN=TOKEN)
    assert result.returncode == 2
    assert "unrecognized arguments: --frobnicate" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_without_a_token_the_launcher_says_so_and_creates_nothing(tmp_path: Path) -> None:
    result = run_launcher(tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert ".env.example" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_bad_setting_is_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=LOUD\n", encoding="utf-8")
    result = run_launcher(tmp_path)
    assert result.returncode == 2
    assert "LOG_LEVEL" in result.stderr
    assert_clean(result.stderr)
    assert not (tmp_path / "data").exists()


# --- the database ---------------------------------------------------------------------


def _a_directory(tmp: Path) -> Path:
    (tmp / "db").mkdir()
    return tmp / "db"


def _not_a_database(tmp: Path) -> Path:
    path = tmp / "notes.sqlite3"
    path.write_bytes(b"these are my shopping notes, not a database\n" * 200)
    return path


def _below_a_file(tmp: Path) -> Path:
    (tmp / "file").write_text("x", encoding="utf-8")
    return tmp / "file" / "rummy.sqlite3"


def _unwritable_place(tmp: Path) -> Path:
    # /proc refuses new files even to root, who ignores permission bits.
    return Path("/proc/rummy-tests/rummy.sqlite3")


@pytest.mark.parametrize("where", [_a_directory, _not_a_database, _below_a_file, _unwritable_place])
def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path, where: object) -> None:
    """Status 2: only the operator can fix the file, so a service manager must not restart."""
    path = where(tmp_path)  # type: ignore[operator]
    result = run_launcher(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DATABASE_PATH=str(path),
        DISCORD_API_BASE_URL="http://127.0.0.1:9/api/v10",
    )
    assert result.returncode == 2
    assert_clean(result.stdout + result.stderr)
    errors = error_lines(result.stderr)
    assert len(errors) == 1, result.stderr
    assert f"cannot open the database {path}" in errors[0]
    assert "cannot reach Discord" not in result.stderr  # stopped before any connection


# --- Discord ----------------------------------------------------------------------------


@dataclass
class Api:
    """A stand-in for Discord's REST API that refuses every token."""

    url: str
    seen_auth: list[str] = field(default_factory=list)


@pytest.fixture
async def refusing_api() -> AsyncIterator[Api]:
    api = Api(url="")

    async def me(request: web.Request) -> web.Response:
        api.seen_auth.append(request.headers.get("Authorization", ""))
        return web.Response(
            status=401,
            text='{"message": "401: Unauthorized", "code": 0}',
            content_type="application/json",
        )

    async def gateway(request: web.Request) -> web.Response:
        return web.Response(text='{"url": "ws://127.0.0.1:9"}', content_type="application/json")

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/gateway", gateway)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    api.url = f"http://127.0.0.1:{port}/api/v10"
    yield api
    await runner.cleanup()


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
async def test_a_token_discord_rejects_is_one_line(
    tmp_path: Path, refusing_api: Api, level: str
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=environment(
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE_URL=refusing_api.url,
            LOG_LEVEL=level,
            DISCORD_LOG_LEVEL=level,
        ),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    stdout, stderr = out.decode(), err.decode()
    assert process.returncode == 2  # a configuration error: a service manager stops here
    assert refusing_api.seen_auth == [f"Bot {TOKEN}"]
    assert_clean(stdout + stderr)
    errors = error_lines(stderr)
    assert len(errors) == 1, stderr
    assert "Discord refused the token" in errors[0]
    assert "DISCORD_TOKEN" in errors[0]
    assert "voice" not in stderr.lower()
    if level == "DEBUG":
        assert " DEBUG " in stderr  # debug logs were on, and still no token


class Running:
    """A launcher process whose stderr is read line by line as it comes."""

    def __init__(self, cwd: Path, **env: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=cwd,
            env=environment(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []

    def wait_for_lines(self, text: str, count: int, timeout: float) -> list[str]:
        assert self.process.stderr is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            matching = [x for x in self.lines if text in x]
            if len(matching) >= count:
                return matching
        raise AssertionError(
            f"expected {count} lines with {text!r}, got:\n" + "\n".join(self.lines)
        )

    def stopped_after(self, text: str, count: int) -> tuple[list[str], int]:
        """Stop the bot (SIGTERM) once ``count`` lines hold ``text``: those lines, and its
        status."""
        try:
            found = self.wait_for_lines(text, count, timeout=60)
            code, _ = self.stop(signal.SIGTERM, timeout=30)
        finally:
            self.kill()
        return found, code

    def stop(self, signum: int, timeout: float) -> tuple[int, str]:
        started = time.monotonic()
        self.process.send_signal(signum)
        out, err = self.process.communicate(timeout=timeout)
        assert time.monotonic() - started < timeout
        self.lines += err.splitlines()
        return self.process.returncode, out + err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port nothing listens on (bound, never listening, so nobody else takes it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def unreachable(cwd: Path, port: int) -> Running:
    """The launcher with a good token and an API root at ``port``, where nothing listens."""
    return Running(
        cwd, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10"
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_unreachable_discord_is_retried_until_a_signal_stops_it(
    tmp_path: Path, closed_port: int, signum: int
) -> None:
    running = unreachable(tmp_path, closed_port)
    try:
        retries = running.wait_for_lines("cannot reach Discord", 2, timeout=30)
        code, _ = running.stop(signum, timeout=30)
    finally:
        running.kill()
    assert code == 0
    assert "connection refused" in retries[0]
    assert f"127.0.0.1:{closed_port}" in retries[0]
    delays = [float(line.rsplit("retrying in ", 1)[1].split()[0]) for line in retries]
    assert delays[0] <= 2
    assert delays[1] >= delays[0]
    whole = "\n".join(running.lines)
    assert_clean(whole)
    assert "stopped" in running.lines[-1]
    assert error_lines(whole) == []
    assert (tmp_path / "data" / "rummy.sqlite3").is_file()  # the database was opened first


def test_the_log_begins_with_the_version_and_where_the_settings_came_from(
    tmp_path: Path, closed_port: int
) -> None:
    running = unreachable(tmp_path, closed_port)
    try:
        running.wait_for_lines("cannot reach Discord", 1, timeout=30)
    finally:
        running.kill()
    assert f" rummy-bot {__version__}; settings read from the environment" in running.lines[0]


def test_an_unreachable_postgresql_is_waited_for_in_one_line_each_time(
    tmp_path: Path, closed_port: int
) -> None:
    """The database server is not up yet (or restarting): the bot says what it waits for
    and tries again, as for Discord, until a signal stops it; its password is never shown."""
    running = Running(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DATABASE_URL=f"postgresql://rummy:s3cret-pw@127.0.0.1:{closed_port}/rummy",
    )
    retries, code = running.stopped_after("cannot reach the database", 2)
    assert code == 0
    assert f"postgresql://rummy:***@127.0.0.1:{closed_port}/rummy" in retries[0]
    assert "retrying in" in retries[0]
    whole = "\n".join(running.lines)
    assert "s3cret-pw" not in whole
    assert_clean(whole)
    assert error_lines(whole) == []
    assert "stopped" in running.lines[-1]


def test_a_signal_during_the_wait_for_an_answer_stops_at_once(tmp_path: Path) -> None:
    """Discord accepts the connection but never answers: a stop is not held up by it."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        running = Running(
            tmp_path,
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
        )
        try:
            running.wait_for_lines("unfinished games loaded", 1, timeout=30)
            time.sleep(0.5)
            code, rest = running.stop(signal.SIGTERM, timeout=30)
        finally:
            running.kill()
    assert code == 0
    assert_clean(rest)
    assert "stopped" in running.lines[-1]


def test_on_windows_the_bot_says_where_it_runs_in_one_line(tmp_path: Path) -> None:
    """Windows lacks fcntl and pwd: importing the bot there says which systems it runs on
    (as Python on Windows would see it: sys.platform is all the check reads)."""
    command = "import sys; sys.platform = 'win32'; import bot.__main__"
    done = run_command(tmp_path, [sys.executable, "-c", command])
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "rummy-bot runs on Linux and macOS; on Windows, run it inside WSL (the Windows"
        " Subsystem for Linux)"
    )
