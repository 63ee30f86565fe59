"""``python -m bot`` against the fake Discord: it connects, registers its commands when (and only
when) it should, stops cleanly on a signal, and explains a gateway that refuses it."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord

GLOBAL_SYNC = "PUT /applications/{application_id}/commands"
GUILD_SYNC = "PUT /applications/{application_id}/guilds/{guild_id}/commands"
_INHERITED = ("DISCORD_", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "NO_COLOR", "RUMMY_")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token="launcher-test-token.abc.DEF", rate_limits=False) as server:
        server.add_guild("Cards")
        yield server
        assert not server.unhandled


class Bot:
    """One ``python -m bot`` process talking to the fake."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, fake: FakeDiscord, cwd: Path, *args: str, **env: str) -> Bot:
        clean = {k: v for k, v in os.environ.items() if not k.startswith(_INHERITED)}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *args,
            cwd=cwd,
            env={**clean, **fake.env(), "PYTHONUNBUFFERED": "1", "RUMMY_ENV_FILE": ".env", **env},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def stop(self, signum: int = signal.SIGTERM, timeout: float = 30.0) -> tuple[int, str]:
        self.process.send_signal(signum)
        return await self.finish(timeout)

    async def finish(self, timeout: float = 30.0) -> tuple[int, str]:
        try:
            out, err = await asyncio.wait_for(self.process.communicate(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.communicate()
            raise
        assert self.process.returncode is not None
        return self.process.returncode, out.decode() + err.decode()


def syncs(fake: FakeDiscord) -> list[str]:
    return [r.route for r in fake.requests if r.route in (GLOBAL_SYNC, GUILD_SYNC)]


def assert_clean(output: str, fake: FakeDiscord) -> None:
    assert "Traceback" not in output
    assert "\x1b[" not in output
    assert fake.token not in output
    assert "voice" not in output.lower()


async def test_a_fresh_install_registers_its_commands_once_and_restarts_quietly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    first = await Bot.start(fake, tmp_path)
    await fake.wait_ready(30, sessions=1)
    code, output = await first.stop()
    assert code == 0, output
    assert_clean(output, fake)
    assert syncs(fake) == [GLOBAL_SYNC]
    assert output.rstrip().endswith("stopped")
    # SQLite removes the write-ahead log when the last connection closes cleanly.
    assert not (tmp_path / "data" / "rummy.sqlite3-wal").exists()
    # The record of the sync is in the database, not in a file beside it.
    assert not (tmp_path / "data" / "rummy.sqlite3.commands.json").exists()
    registered = fake.commands()
    assert registered, "the bot registered no commands"
    untranslated = [c["name"] for c in registered if "fr" not in c.get("name_localizations", {})]
    assert untranslated == []  # the translator ran: every command has its French name

    second = await Bot.start(fake, tmp_path)
    await fake.wait_ready(30, sessions=2)
    code, output = await second.stop(signal.SIGINT)
    assert code == 0, output
    assert_clean(output, fake)
    assert syncs(fake) == [GLOBAL_SYNC]  # nothing changed: nothing sent
    assert "commands unchanged" in output

    forced = await Bot.start(fake, tmp_path, "--sync")
    await fake.wait_ready(30, sessions=3)
    code, output = await forced.stop()
    assert code == 0, output
    assert syncs(fake) == [GLOBAL_SYNC, GLOBAL_SYNC]


async def test_a_dev_server_gets_the_commands_and_the_global_ones_are_left_alone(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = next(iter(fake.guilds.values()))
    bot = await Bot.start(fake, tmp_path, DEV_GUILD_ID=str(guild.id))
    await fake.wait_ready(30, sessions=1)
    code, output = await bot.stop()
    assert code == 0, output
    assert_clean(output, fake)
    assert syncs(fake) == [GUILD_SYNC]
    assert [c["name"] for c in fake.commands(guild)] == [c["name"] for c in fake.commands()] or (
        fake.commands() == []
    )


async def test_a_gateway_that_refuses_the_bot_is_one_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await Bot.start(fake, tmp_path)
    await fake.wait_ready(30, sessions=1)
    await fake.disconnect(4004)  # authentication failed: discord.py must not retry
    code, output = await bot.finish()
    assert code == 2, output
    assert_clean(output, fake)
    errors = [line for line in output.splitlines() if " ERROR " in line]
    assert len(errors) == 1, output
    assert "Discord refused the token" in errors[0]


async def test_a_wrong_token_is_refused_by_the_fake_in_one_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await Bot.start(fake, tmp_path, DISCORD_TOKEN="another-token.abc.XYZ")
    code, output = await bot.finish()
    assert code == 2, output
    assert "another-token.abc.XYZ" not in output
    assert "Traceback" not in output
    assert "Discord refused the token" in output
    assert fake.identify_count == 0


async def test_an_unreachable_gateway_is_retried_in_one_line_each_time(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        bot = await Bot.start(fake, tmp_path, DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/")
        stream = bot.process.stderr
        assert stream is not None
        seen: list[str] = []
        try:
            async with asyncio.timeout(30):
                while sum("cannot reach Discord's gateway" in line for line in seen) < 2:
                    line = (await stream.readline()).decode()
                    assert line, "\n".join(seen)
                    seen.append(line)
        finally:
            code, rest = await bot.stop()
    output = "".join(seen) + rest
    assert code == 0, output
    assert_clean(output, fake)
    assert " ERROR " not in output
    assert output.rstrip().endswith("stopped")
    assert f"ws://127.0.0.1:{port}/ (connection refused)" in output
    assert "no connection to Discord's gateway" not in output  # said once per attempt, not twice


async def test_after_development_the_test_server_lists_each_command_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A run with DEV_GUILD_ID leaves a copy of the commands in that server; the first start
    without it removes the copy, so the server lists only the global commands."""
    guild = next(iter(fake.guilds.values()))
    dev = await Bot.start(fake, tmp_path, DEV_GUILD_ID=str(guild.id))
    await fake.wait_ready(30, sessions=1)
    code, output = await dev.stop()
    assert code == 0, output
    assert fake.commands(guild), "the dev server got no commands"

    production = await Bot.start(fake, tmp_path)
    await fake.wait_ready(30, sessions=2)
    code, output = await production.stop()
    assert code == 0, output
    assert_clean(output, fake)
    assert syncs(fake) == [GUILD_SYNC, GUILD_SYNC, GLOBAL_SYNC]
    assert fake.commands(guild) == []
    assert fake.commands(), "the global commands were not registered"
    assert f"removed the application commands from server {guild.id}" in output

    again = await Bot.start(fake, tmp_path, "--sync")
    await fake.wait_ready(30, sessions=3)
    code, output = await again.stop()
    assert code == 0, output
    assert syncs(fake) == [GUILD_SYNC, GUILD_SYNC, GLOBAL_SYNC, GLOBAL_SYNC]  # forgotten


async def stopped_after(bot: Bot, text: str) -> tuple[int, list[str]]:
    """Stop the bot once it logged a line with ``text``; its status and every line."""
    stream = bot.process.stderr
    assert stream is not None
    seen: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not seen or text not in seen[-1]:
                line = (await stream.readline()).decode()
                assert line, "".join(seen)
                seen.append(line)
    finally:
        code, rest = await bot.stop()
    return code, ("".join(seen) + rest).splitlines()


async def test_a_dev_server_the_bot_is_not_in_is_named_with_the_invite_link(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    absent = 123456789012345678
    code, lines = await stopped_after(
        await Bot.start(fake, tmp_path, DEV_GUILD_ID=str(absent)), "invite it with"
    )
    assert code == 0, lines
    assert_clean("\n".join(lines), fake)
    (error,) = [line for line in lines if " ERROR " in line]
    assert f"could not register the commands in server {absent}" in error
    assert "the bot is not in the server DEV_GUILD_ID names" in error
    ready = next(line for line in lines if "connected as" in line)
    assert "in 1 server; 0 games live" in ready
    invite = next(line for line in lines if "invite it with" in line)
    assert f"not in server {absent} (DEV_GUILD_ID)" in invite
    assert f"client_id={fake.application_id}" in invite
    assert "scope=bot+applications.commands" in invite


async def test_a_bot_in_no_server_prints_its_invite_link(tmp_path: Path) -> None:
    async with FakeDiscord(token="launcher-test-token.abc.DEF", rate_limits=False) as empty:
        code, lines = await stopped_after(await Bot.start(empty, tmp_path), "invite it with")
    assert code == 0, lines
    assert "in 0 servers" in next(line for line in lines if "connected as" in line)
    invite = next(line for line in lines if "invite it with" in line)
    assert "the bot is in no server yet: invite it with https://discord.com/oauth2/authorize?" in (
        invite
    )
    assert "permissions=309237763072" in invite
