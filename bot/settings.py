"""Settings read once at start-up from the environment and an optional ``.env`` file.

Everything the bot needs from its operator is checked here, before any connection is
opened, so a typo in the configuration stops the launcher with one clear sentence instead
of failing later somewhere else. Variables set in the environment win over ``.env``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data") / "rummy.sqlite3"
DEFAULT_ENV_FILE = Path(".env")
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
MAX_HARD_WORKERS = 32


def default_hard_workers() -> int:
    """One core is left to the bot itself; a second process on a two-core machine would
    slow every game's answers to speed up the hard players' thinking."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class SettingsError(ValueError):
    """A missing or malformed setting; the message names the variable and what it needs."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A value that must not end up in logs, tracebacks or ``repr`` output by accident.

    Reading it takes a deliberate ``.reveal()``, which is easy to find in a review.
    """

    _value: str = field(repr=False)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __str__(self) -> str:
        return "**********"


@dataclass(frozen=True, slots=True)
class Settings:
    discord_token: Secret
    database_path: Path = DEFAULT_DATABASE_PATH
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    """Commands are synced to this server only, which Discord applies at once (for development)."""
    discord_log_level: str | None = None
    """discord.py's own level; unset, it is ``log_level`` but never below INFO, because
    discord.py's DEBUG output holds whole gateway events (messages, names: personal data)."""
    hard_workers: int = field(default_factory=default_hard_workers)
    """Processes in which hard computer players search (``HARD_PLAYER_WORKERS``): with one,
    the hard players of different games think one after another."""
    api_base_url: str | None = None
    """For tests only: the REST API root (``DISCORD_API_BASE_URL``), e.g. a local fake Discord."""
    gateway_url: str | None = None
    """For tests only: the gateway websocket (``DISCORD_GATEWAY_URL``)."""

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: Path | None = DEFAULT_ENV_FILE,
    ) -> Settings:
        """Read the settings; ``environ`` defaults to os.environ, ``env_file=None`` skips .env."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls(
            discord_token=_token(values.get("DISCORD_TOKEN", "")),
            database_path=_path(values.get("DATABASE_PATH", "")),
            log_level=_log_level(values.get("LOG_LEVEL", "")),
            dev_guild_id=_guild_id(values.get("DEV_GUILD_ID", "")),
            discord_log_level=_optional_log_level(
                "DISCORD_LOG_LEVEL", values.get("DISCORD_LOG_LEVEL", "")
            ),
            hard_workers=_workers(values.get("HARD_PLAYER_WORKERS", "")),
            api_base_url=_url(
                "DISCORD_API_BASE_URL", values.get("DISCORD_API_BASE_URL", ""), ("http", "https")
            ),
            gateway_url=_url(
                "DISCORD_GATEWAY_URL", values.get("DISCORD_GATEWAY_URL", ""), ("ws", "wss")
            ),
        )


def _token(text: str) -> Secret:
    token = text.strip()
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: put the bot's token in the environment or in .env"
        )
    if any(c.isspace() for c in token):
        raise SettingsError("DISCORD_TOKEN contains white space: copy the token again")
    return Secret(token)


def _path(text: str) -> Path:
    return Path(text.strip()) if text.strip() else DEFAULT_DATABASE_PATH


def _log_level(text: str, name: str = "LOG_LEVEL") -> str:
    level = text.strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise SettingsError(f"{name} must be one of {', '.join(_LOG_LEVELS)}, not {text!r}")
    return level


def _optional_log_level(name: str, text: str) -> str | None:
    return _log_level(text, name) if text.strip() else None


def _url(name: str, text: str, schemes: tuple[str, ...]) -> str | None:
    # The API root loses a trailing slash (paths are appended to it); the gateway keeps its own.
    url = text.strip().rstrip("/") if "http" in schemes else text.strip()
    if not url:
        return None
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in schemes or not rest:
        raise SettingsError(f"{name} must be a {' or '.join(schemes)} URL, not {text!r}")
    return url


def _whole_number(text: str) -> int | None:
    """The whole number ``text`` spells (spaces around it allowed), or None; each setting
    words its own refusal, so this only reads."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def _guild_id(text: str) -> int | None:
    if not text.strip():
        return None
    guild_id = _whole_number(text)
    if guild_id is None:
        raise SettingsError(f"DEV_GUILD_ID must be a server id (a whole number), not {text!r}")
    if guild_id <= 0:
        raise SettingsError(f"DEV_GUILD_ID must be a positive server id, not {text!r}")
    return guild_id


def _workers(text: str) -> int:
    if not text.strip():
        return default_hard_workers()
    workers = _whole_number(text)
    if workers is None or not 1 <= workers <= MAX_HARD_WORKERS:
        raise SettingsError(
            f"HARD_PLAYER_WORKERS must be a whole number from 1 to {MAX_HARD_WORKERS}, not {text!r}"
        )
    return workers
