"""Logs: no token, no colour off a terminal, no gateway events, one line per reconnect."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import discord
import pytest

from bot.__main__ import next_delay
from bot.infrastructure.logs import REDACTED, describe, setup_logging

TOKEN = "MTIz.abc.the-secret"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    dlog = logging.getLogger("discord")
    dlevel = dlog.level
    chatty = {name: logging.getLogger(name).level for name in ("aiosqlite", "PIL")}
    client_filters = list(logging.getLogger("discord.client").filters)
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    dlog.setLevel(dlevel)
    for name, saved in chatty.items():
        logging.getLogger(name).setLevel(saved)
    logging.getLogger("discord.client").filters = client_filters


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("restore_logging")
def test_the_token_is_blanked_even_inside_a_traceback() -> None:
    stream = io.StringIO()
    setup_logging("INFO", secrets=(TOKEN,), stream=stream)
    log = logging.getLogger("bot.test")
    log.info("token is %s", TOKEN)
    try:
        raise ValueError(f"bad header Bot {TOKEN}")
    except ValueError:
        log.exception("failed")
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count(REDACTED) == 2  # the message and the exception text


@pytest.mark.usefixtures("restore_logging")
def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    pipe, tty = io.StringIO(), Tty()
    setup_logging("INFO", stream=pipe)
    logging.getLogger("bot.test").warning("hello")
    setup_logging("INFO", stream=tty)
    logging.getLogger("bot.test").warning("hello")
    assert "hello" in pipe.getvalue()
    assert "\x1b[" not in pipe.getvalue()
    assert "\x1b[" in tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    quiet = Tty()
    setup_logging("INFO", stream=quiet)
    logging.getLogger("bot.test").warning("hello")
    assert "\x1b[" not in quiet.getvalue()


@pytest.mark.usefixtures("restore_logging")
def test_discord_stays_at_info_unless_asked() -> None:
    setup_logging("DEBUG", stream=io.StringIO())
    assert logging.getLogger("bot").getEffectiveLevel() == logging.DEBUG
    assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.INFO
    assert logging.getLogger("aiosqlite").getEffectiveLevel() == logging.INFO
    setup_logging("WARNING", stream=io.StringIO())
    assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.WARNING
    setup_logging("INFO", discord_level="DEBUG", stream=io.StringIO())
    assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.DEBUG


@pytest.mark.usefixtures("restore_logging")
def test_a_gateway_reconnect_is_one_line() -> None:
    stream = io.StringIO()
    setup_logging("INFO", stream=stream)
    try:
        raise OSError(111, "Connect call failed ('127.0.0.1', 9)")
    except OSError:
        # What discord.Client.connect logs before each reconnect.
        logging.getLogger("discord.client").exception("Attempting a reconnect in %.2fs", 3.5)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert "WARNING" in lines[0]
    assert "trying again in 4 s" in lines[0]
    assert "connect call failed" in lines[0]


@pytest.mark.usefixtures("restore_logging")
def test_no_voice_warnings() -> None:
    stream = io.StringIO()
    setup_logging("INFO", stream=stream)
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    setup_logging("INFO", stream=stream)
    client = discord.Client(intents=discord.Intents.none())
    del client
    assert "voice" not in stream.getvalue().lower()


def test_describe_is_short() -> None:
    assert describe(IsADirectoryError(21, "Is a directory", "data")) == "is a directory: data"
    assert describe(ValueError("first\nsecond")) == "ValueError: first"
    assert describe(TimeoutError()) == "TimeoutError"


def test_retry_delays_grow_and_are_capped() -> None:
    delays = [next_delay(n) for n in range(12)]
    assert 0.8 <= delays[0] <= 1.2
    assert 1.6 <= delays[1] <= 2.4
    assert all(d <= 60 for d in delays)
    assert delays[-1] >= 48
    assert next_delay(10_000) <= 60


@pytest.mark.usefixtures("restore_logging")
def test_a_shard_that_cannot_connect_or_reconnect_is_one_line() -> None:
    stream = io.StringIO()
    setup_logging("INFO", stream=stream)
    for message, args in (
        ("Failed to connect for shard_id: %s. Retrying...", (1,)),
        ("Attempting a reconnect for shard ID %s in %.2fs", (1, 3.5)),
    ):
        try:
            raise OSError(111, "Connect call failed ('127.0.0.1', 9)")
        except OSError:
            # What discord.py's sharded client logs before trying a shard again.
            logging.getLogger("discord.shard").exception(message, *args)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert all("WARNING" in line and "connect call failed" in line for line in lines)
    assert "cannot reach Discord's gateway at" in lines[0]
    assert "(connect call failed" in lines[0]
    assert "for shard 1" in lines[0]
    assert "retrying in 5 s" in lines[0]
    assert "trying again in 4 s" in lines[1]
