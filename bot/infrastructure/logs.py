"""Logging for an operator reading a terminal or a service journal.

Three things matter more than looks: the token never reaches the output (whatever the source
of the text), discord.py's DEBUG output (whole gateway events, so people's messages and
names) stays off unless asked for by its own setting, and a line written to a file or a
journal carries no colour codes.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from typing import TextIO

import discord

REDACTED = "**********"
_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
_DATE = "%Y-%m-%d %H:%M:%S"
_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"
_CHATTY = ("aiosqlite", "PIL")
"""Libraries whose DEBUG output is noise or people's data (aiosqlite logs SQL parameters)."""


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then blanks out every secret, tracebacks included."""

    def __init__(self, secrets: tuple[str, ...], *, colour: bool) -> None:
        super().__init__(_FORMAT, _DATE)
        self._secrets = tuple(s for s in secrets if s)
        self._colour = colour

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        if self._colour:
            return f"{_COLOURS.get(record.levelno, '')}{text}{_RESET}"
        return text


class OneLineReconnects(logging.Filter):
    """discord.py logs each gateway reconnect with a whole traceback; one line says as much.

    The record keeps its logger; the traceback becomes a short reason. ``silent`` tells
    when the launcher reports the failure itself (the first connection), and the record is
    dropped then. A shard that cannot connect at all (discord.py tries again every
    ``SHARD_RETRY`` seconds) is told as the gateway it cannot reach, with ``reason``'s words.
    """

    def __init__(self) -> None:
        super().__init__()
        self.silent: Callable[[], bool] = lambda: False
        self.reason: Callable[[BaseException], str] = lambda error: describe(error)

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info:
            return True
        error = record.exc_info[1] or Exception()
        message = str(record.msg)
        if message.startswith("Attempting a reconnect"):
            if self.silent():
                return False
            record.msg = "no connection to Discord's gateway (%s); trying again in %.0f s"
            given = record.args if isinstance(record.args, tuple) else ()
            record.args = (describe(error), *given[-1:])  # the delay: the last argument
        elif message.startswith("Failed to connect for shard_id"):
            record.msg = (
                "cannot reach Discord's gateway at %s (%s) for shard %s; retrying in %.0f s"
            )
            gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
            shard = (record.args or ("?",))[0] if isinstance(record.args, tuple) else "?"
            record.args = (gateway, self.reason(error), shard, SHARD_RETRY)
        else:
            return True
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


SHARD_RETRY = 5.0
"""Seconds discord.py waits before connecting a shard again after a failed first attempt."""


RECONNECTS = OneLineReconnects()
"""The filter :func:`setup_logging` installs on discord.py's client logger."""


def describe(error: BaseException | None) -> str:
    """A short reason for a network error, without its traceback."""
    if error is None:
        return "unknown error"
    if isinstance(error, OSError) and error.strerror:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror.lower()}{where}"
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def setup_logging(
    level: str,
    *,
    discord_level: str | None = None,
    secrets: tuple[str, ...] = (),
    stream: TextIO | None = None,
) -> None:
    """Route every log record to ``stream`` (stderr) through one redacting handler."""
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(secrets, colour=wants_colour(stream)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    at_least_info = logging.getLevelName(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord").setLevel(discord_level or at_least_info)
    for name in _CHATTY:
        logging.getLogger(name).setLevel(at_least_info)
    for name in ("discord.client", "discord.shard"):
        client = logging.getLogger(name)
        for old_filter in [f for f in client.filters if isinstance(f, OneLineReconnects)]:
            client.removeFilter(old_filter)
        client.addFilter(RECONNECTS)
    quiet_voice()


def quiet_voice() -> None:
    """A card game uses no voice: drop discord.py's warnings about missing voice libraries."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
