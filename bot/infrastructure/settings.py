"""Settings read once at start-up from the environment and an optional ``.env`` file.

Everything the bot needs from its operator is checked here, before any connection is
opened, so a typo in the configuration stops the launcher with one clear sentence instead
of failing later somewhere else. Variables set in the environment win over ``.env``.

``.env`` is looked for in the working directory, then beside the project (the folder that
holds ``pyproject.toml``), so ``/opt/rummy/.venv/bin/python -m bot`` run from anywhere finds
the operator's file; the first found is read, and a missing token names both places. Paths
are made absolute at once (``~`` expanded, a relative path read from the folder of the
``.env`` read, else the working directory), so the log and every error show the very file
meant: ``DATABASE_PATH=~/rummy.sqlite3`` once made a folder literally named ``~``.
"""

from __future__ import annotations

import base64
import difflib
import os
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data") / "rummy.sqlite3"
"""Relative: read from the folder of the ``.env`` read, else the working directory."""
ENV_FILE_NAME = ".env"
ENV_FILE_VARIABLE = "RUMMY_ENV_FILE"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
MAX_HARD_WORKERS = 32
MAX_SHARDS = 65536
_BASE64URL = frozenset(string.ascii_letters + string.digits + "-_")


DEFAULT_SERVER_GRACE_DAYS = 7
MAX_SERVER_GRACE_DAYS = 365
DEFAULT_LOBBY_IDLE_MINUTES = 30
MAX_LOBBY_IDLE_MINUTES = 10080
DEFAULT_LEASE_SECONDS = 15
MAX_LEASE_SECONDS = 600
MAX_CLOCK_OFFSET_SECONDS = 86400
DEFAULT_WEB_HOST = "127.0.0.1"
WEB_SECRET_FILE = "web-secret"
MIN_WEB_SECRET = 32


def default_hard_workers() -> int:
    """One core is left to the bot itself; a second process on a two-core machine would
    slow every game's answers to speed up the hard players' thinking."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


KNOWN_SETTINGS: dict[str, str] = {
    "DISCORD_TOKEN": "the bot's token (required)",
    "DATABASE_PATH": f"the SQLite file (default {DEFAULT_DATABASE_PATH})",
    "DATABASE_URL": "postgresql://… instead of the SQLite file",
    "LOG_LEVEL": "DEBUG, INFO (default), WARNING, ERROR or CRITICAL",
    "DISCORD_LOG_LEVEL": "discord.py's own level (default: LOG_LEVEL, never below INFO)",
    "DEV_GUILD_ID": "a server whose commands are registered at every start (development)",
    "HARD_PLAYER_WORKERS": "processes the hard computer players search in",
    "MEMBERS_INTENT": "true: ask for the privileged members intent (default false)",
    "SERVER_DATA_GRACE_DAYS": "days a server's data is kept after the bot leaves it (7)",
    "LOBBY_IDLE_MINUTES": "minutes before an idle lobby closes itself (30)",
    "SHARD_COUNT": "shards of the bot across all its processes",
    "SHARD_IDS": "the shards this process runs (needs SHARD_COUNT)",
    "LEASE_SECONDS": "PostgreSQL only: how long a process's shard leases live (15)",
    "WEB_PORT": "the web table's port (with WEB_URL; unset: no web server)",
    "WEB_URL": "the address people open the web table at (https://… behind a proxy)",
    "WEB_HOST": "the address the web server binds (default 127.0.0.1)",
    "WEB_SECRET": f"signs the web links (default: the file {WEB_SECRET_FILE} beside the database)",
    "DISCORD_API_BASE_URL": "tests only: a fake Discord's REST root",
    "DISCORD_GATEWAY_URL": "tests only: a fake Discord's gateway",
    "CLOCK_OFFSET_SECONDS": "tests only: seconds this process's clock is set off by",
}
"""Every setting the bot reads, with a few words for ``--help``; a ``.env`` key not among
them is named in a warning (with the closest known one), never silently ignored."""


def unknown_keys(keys: Sequence[str]) -> tuple[str, ...]:
    """A warning for each of ``keys`` (a ``.env`` file's) the bot does not read, naming the
    known setting it is closest to."""
    warnings = []
    for key in keys:
        if key in KNOWN_SETTINGS or key == ENV_FILE_VARIABLE:
            continue
        close = difflib.get_close_matches(key.upper(), list(KNOWN_SETTINGS), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
        warnings.append(f"the .env setting {key} is not one the bot reads, so it is ignored{hint}")
    return tuple(warnings)


class SettingsError(ValueError):
    """A missing or malformed setting; the message names the variable and what it needs."""


def env_file_places(
    cwd: Path | None = None, environ: Mapping[str, str] | None = None
) -> tuple[Path, ...]:
    """Where ``.env`` is looked for, in order: the working directory, then beside the
    project when this is a source checkout (an installed package has no project folder).
    ``RUMMY_ENV_FILE`` names the one file to read instead (empty: none), for a second bot
    from one checkout, and for tests that must never read the developer's own ``.env``."""
    here = Path(os.path.abspath(cwd or Path.cwd()))
    chosen = (os.environ if environ is None else environ).get(ENV_FILE_VARIABLE)
    if chosen is not None:
        return (Path(os.path.abspath(here / Path(chosen).expanduser())),) if chosen else ()
    places = [here / ENV_FILE_NAME]
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        beside = PROJECT_ROOT / ENV_FILE_NAME
        if beside != places[0]:
            places.append(beside)
    return tuple(places)


@dataclass(frozen=True, slots=True)
class Sources:
    """What the settings were read from: the values, and the ``.env`` file (if any)."""

    values: Mapping[str, str]
    env_file: Path | None
    looked_in: tuple[Path, ...]
    file_keys: tuple[str, ...] = ()
    """The keys the ``.env`` file sets (the environment's own are never judged)."""

    @property
    def base(self) -> Path:
        """Where relative paths start: the folder of the ``.env`` read, so that the project's
        ``data/rummy.sqlite3`` is the same file from whatever folder the bot is started;
        without one, the working directory."""
        return self.env_file.parent if self.env_file is not None else Path.cwd()

    def database_path(self) -> Path:
        text = self.values.get("DATABASE_PATH", "")
        return resolve_path("DATABASE_PATH", text, DEFAULT_DATABASE_PATH, self.base)

    def where(self) -> str:
        """Where the settings came from, for a message to the operator."""
        if self.env_file is not None:
            return f"the environment and {self.env_file}"
        if not self.looked_in:
            return "the environment"
        return f"the environment only; no .env file at {self.looked()}"

    def looked(self) -> str:
        return " or ".join(str(p) for p in self.looked_in)


def read_sources(
    environ: Mapping[str, str] | None = None, env_files: Sequence[Path] | None = None
) -> Sources:
    """The raw values: the first ``.env`` of ``env_files`` (default: :func:`env_file_places`)
    that exists, overridden by ``environ`` (default: os.environ)."""
    places = env_file_places(environ=environ) if env_files is None else tuple(env_files)
    values: dict[str, str] = {}
    found = next((p for p in places if p.is_file()), None)
    keys: tuple[str, ...] = ()
    if found is not None:
        in_file = dotenv_values(found)
        keys = tuple(in_file)
        values.update({k: v for k, v in in_file.items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return Sources(values, found, places, keys)


def resolve_path(name: str, text: str, default: Path, base: Path | None = None) -> Path:
    """An absolute, normalised path: ``~`` expanded, a relative path read from ``base`` (by
    default the working directory). A ``~`` that cannot be expanded is refused rather than
    made a folder."""
    raw = Path(text.strip()) if text.strip() else default
    try:
        expanded = raw.expanduser()
    except RuntimeError:  # no such user, or no home folder known
        expanded = raw
    if expanded.parts and expanded.parts[0].startswith("~"):
        raise SettingsError(
            f"{name}: cannot tell which home folder {text!r} means; write the path in full"
        )
    return Path(os.path.abspath((base or Path.cwd()) / expanded))


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
class WebSettings:
    """The web table's server (``WEB_PORT``, ``WEB_URL``, ``WEB_HOST``, ``WEB_SECRET``).

    It binds the loopback address unless ``WEB_HOST`` says otherwise: people reach it through
    a reverse proxy that adds HTTPS, never the bot's plain HTTP port itself."""

    port: int
    url: str
    """Where people open it, without a trailing slash: the links and the allowed origin."""
    host: str = DEFAULT_WEB_HOST
    secret: Secret | None = None
    """``WEB_SECRET``; None: a random one kept in :attr:`secret_file`."""
    secret_file: Path = Path(WEB_SECRET_FILE)
    """Beside the database, created (mode 0600) at the first start without ``WEB_SECRET``."""

    @property
    def origin(self) -> str:
        """The scheme, host and port of :attr:`url`: what a browser's ``Origin`` says."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}".lower()

    @property
    def secure(self) -> bool:
        """Whether people reach it over HTTPS (its cookies are then marked Secure)."""
        return self.url.lower().startswith("https://")


@dataclass(frozen=True, slots=True)
class Settings:
    discord_token: Secret
    database_path: Path = DEFAULT_DATABASE_PATH
    database_url: str | None = None
    """``DATABASE_URL=postgresql://…``: PostgreSQL instead of the SQLite file (it wins over
    ``DATABASE_PATH``). It may hold a password, so it is never printed or logged whole."""
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    """Commands are synced to this server only, which Discord applies at once (for development)."""
    discord_log_level: str | None = None
    """discord.py's own level; unset, it is ``log_level`` but never below INFO, because
    discord.py's DEBUG output holds whole gateway events (messages, names: personal data)."""
    hard_workers: int = field(default_factory=default_hard_workers)
    """Processes in which hard computer players search (``HARD_PLAYER_WORKERS``): with one,
    the hard players of different games think one after another."""
    members_intent: bool = False
    """``MEMBERS_INTENT=true``: ask Discord for the privileged members intent, so a member who
    leaves a server loses their seat to a computer player (a ban is noticed without it).
    Off by default: the intent must also be switched on in the Developer Portal."""
    server_grace_days: int = DEFAULT_SERVER_GRACE_DAYS
    """Days a server's data is kept after the bot is removed from it
    (``SERVER_DATA_GRACE_DAYS``; 0: erased at once); added back before, the bot keeps it."""
    lobby_idle_minutes: int = DEFAULT_LOBBY_IDLE_MINUTES
    """Minutes a lobby may go without a join, a leave or an added computer before it closes
    itself (``LOBBY_IDLE_MINUTES``, 1 to a week), so an abandoned table frees its channel."""
    shard_count: int | None = None
    """How many shards the bot runs across all its processes (``SHARD_COUNT``); unset: the
    count Discord recommends, every shard in this process."""
    shard_ids: frozenset[int] | None = None
    """The shards this process runs (``SHARD_IDS``, which needs ``SHARD_COUNT``); unset: all."""
    lease_seconds: int = DEFAULT_LEASE_SECONDS
    """On PostgreSQL, seconds a process's shard leases live without renewal
    (``LEASE_SECONDS``, 1 to 600): how soon another process takes a dead one's games over.
    Renewed every third of it; shorter means faster takeovers and more renewals."""
    web: WebSettings | None = None
    """The web table's server; None (the default) when ``WEB_PORT`` and ``WEB_URL`` are unset."""
    api_base_url: str | None = None
    """For tests only: the REST API root (``DISCORD_API_BASE_URL``), e.g. a local fake Discord."""
    gateway_url: str | None = None
    """For tests only: the gateway websocket (``DISCORD_GATEWAY_URL``)."""
    clock_offset: int = 0
    """For tests only: seconds this process's clock reads ahead (below 0: behind) of the
    machine's (``CLOCK_OFFSET_SECONDS``, at most a day): a machine whose clock is wrong."""
    source: str = "the environment"
    """Where the settings were read: the environment, and which ``.env`` file (for the log
    and ``--check``)."""
    warnings: tuple[str, ...] = ()
    """What the operator should hear about the settings that stops nothing (a misspelt key)."""

    @property
    def database(self) -> Path | str:
        """What :func:`bot.storage.open_store` opens: the PostgreSQL URL if set, else the
        SQLite file."""
        return self.database_url or self.database_path

    @property
    def secrets(self) -> tuple[str, ...]:
        """What the log and ``--check`` never show: the token and the database password."""
        found = url_secrets(self.database_url) if self.database_url else ()
        web = self.web.secret.reveal() if self.web and self.web.secret else None
        return (self.discord_token.reveal(), *found, *((web,) if web else ()))

    @property
    def database_name(self) -> str:
        """The database for messages and the log (a URL without its password)."""
        return redacted(self.database_url) if self.database_url else str(self.database_path)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_files: Sequence[Path] | None = None,
    ) -> Settings:
        """Read the settings; ``environ`` defaults to os.environ, ``env_files`` to
        :func:`env_file_places` (``()`` reads no ``.env``)."""
        sources = read_sources(environ, env_files)
        values = sources.values
        shard_count, shard_ids = _shards(values.get("SHARD_COUNT", ""), values.get("SHARD_IDS", ""))
        return cls(
            discord_token=_token(values.get("DISCORD_TOKEN", ""), sources),
            database_path=sources.database_path(),
            database_url=_database_url(values.get("DATABASE_URL", "")),
            log_level=_log_level(values.get("LOG_LEVEL", "")),
            dev_guild_id=_guild_id(values.get("DEV_GUILD_ID", "")),
            discord_log_level=_optional_log_level(
                "DISCORD_LOG_LEVEL", values.get("DISCORD_LOG_LEVEL", "")
            ),
            hard_workers=_workers(values.get("HARD_PLAYER_WORKERS", "")),
            members_intent=_switch("MEMBERS_INTENT", values.get("MEMBERS_INTENT", "")),
            server_grace_days=_grace_days(values.get("SERVER_DATA_GRACE_DAYS", "")),
            lobby_idle_minutes=_lobby_idle(values.get("LOBBY_IDLE_MINUTES", "")),
            shard_count=shard_count,
            shard_ids=shard_ids,
            lease_seconds=_bounded(
                "LEASE_SECONDS",
                values.get("LEASE_SECONDS", ""),
                DEFAULT_LEASE_SECONDS,
                1,
                MAX_LEASE_SECONDS,
                "seconds",
            ),
            web=_web(values, sources.database_path()),
            api_base_url=_url(
                "DISCORD_API_BASE_URL", values.get("DISCORD_API_BASE_URL", ""), ("http", "https")
            ),
            gateway_url=_url(
                "DISCORD_GATEWAY_URL", values.get("DISCORD_GATEWAY_URL", ""), ("ws", "wss")
            ),
            clock_offset=_bounded(
                "CLOCK_OFFSET_SECONDS",
                values.get("CLOCK_OFFSET_SECONDS", ""),
                0,
                -MAX_CLOCK_OFFSET_SECONDS,
                MAX_CLOCK_OFFSET_SECONDS,
                "seconds",
            ),
            source=sources.where(),
            warnings=unknown_keys(sources.file_keys),
        )


def _token(text: str, sources: Sources) -> Secret:
    token = text.strip()
    if not token:
        if sources.env_file is not None:
            where = f"neither the environment nor {sources.env_file} sets it"
        elif sources.looked_in:
            where = f"it is not in the environment, and there is no .env at {sources.looked()}"
        else:
            where = "it is not in the environment"
        raise SettingsError(
            f"DISCORD_TOKEN is not set ({where}): put the bot's token in the environment or in .env"
        )
    if any(c.isspace() for c in token):
        raise SettingsError("DISCORD_TOKEN contains white space: copy the token again")
    return Secret(token)


def _log_level(text: str, name: str = "LOG_LEVEL") -> str:
    level = text.strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise SettingsError(f"{name} must be one of {', '.join(_LOG_LEVELS)}, not {text!r}")
    return level


def _optional_log_level(name: str, text: str) -> str | None:
    return _log_level(text, name) if text.strip() else None


def redacted(url: str) -> str:
    """``url`` without its password (and without its query, which may carry one too)."""
    parts = urlsplit(url)
    if parts.password is None:
        netloc = parts.netloc
    else:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc, query=""))


def url_secrets(url: str) -> tuple[str, ...]:
    """The password of a database URL as it may show up anywhere (as written, decoded, or
    given in the query), for the log and ``--check`` to blank out."""
    parts = urlsplit(url)
    found: list[str] = []
    if parts.password:
        found += [parts.password, unquote(parts.password)]
    for key, value in parse_qsl(parts.query, keep_blank_values=False):
        if key.lower() == "password":
            found += [value, unquote(value)]
    return tuple(sorted({s for s in found if s}, key=len, reverse=True))


_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _database_url(text: str) -> str | None:
    url = text.strip()
    if not url:
        return None
    scheme, sep, rest = url.partition("://")
    # None of these refusals echoes the value: it may hold a password.
    if not sep or scheme.lower() not in ("postgresql", "postgres") or not rest:
        raise SettingsError("DATABASE_URL must be a postgresql:// URL (or be left unset)")
    authority = rest.split("/", 1)[0].split("?", 1)[0]
    if any(c.isspace() for c in url):
        raise SettingsError(
            "DATABASE_URL holds a space: write it percent-encoded (%20), in the password too"
        )
    if authority.count("@") > 1:
        raise SettingsError(
            "DATABASE_URL holds more than one @ before the host: an @ in the user name or the"
            " password must be written %40"
        )
    if _BAD_PERCENT.search(url):
        raise SettingsError(
            "DATABASE_URL holds a % that is not followed by two hex digits: write a % of the"
            " password as %25"
        )
    return url


def _url(name: str, text: str, schemes: tuple[str, ...]) -> str | None:
    # The API root loses a trailing slash (paths are appended to it); the gateway keeps its own.
    url = text.strip().rstrip("/") if "http" in schemes else text.strip()
    if not url:
        return None
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in schemes or not rest:
        raise SettingsError(f"{name} must be a {' or '.join(schemes)} URL, not {text!r}")
    return url


def _web(values: Mapping[str, str], database: Path) -> WebSettings | None:
    """The web server's settings: ``WEB_PORT`` and ``WEB_URL`` together, or neither."""
    port_text, url_text = values.get("WEB_PORT", "").strip(), values.get("WEB_URL", "").strip()
    if not port_text and not url_text:
        for name in ("WEB_HOST", "WEB_SECRET"):
            if values.get(name, "").strip():
                raise SettingsError(f"{name} needs WEB_PORT and WEB_URL (the web table is off)")
        return None
    if not port_text or not url_text:
        missing = "WEB_URL" if port_text else "WEB_PORT"
        raise SettingsError(
            f"the web table needs WEB_PORT and WEB_URL together: set {missing} too, or neither"
        )
    port = _whole_number(port_text)
    if port is None or not 1 <= port <= 65535:
        raise SettingsError(f"WEB_PORT must be a port number from 1 to 65535, not {port_text!r}")
    url = _url("WEB_URL", url_text, ("http", "https"))
    assert url is not None
    if urlsplit(url).query or urlsplit(url).fragment or not urlsplit(url).hostname:
        raise SettingsError(f"WEB_URL must be an address like https://rummy.example, not {url!r}")
    host = values.get("WEB_HOST", "").strip() or DEFAULT_WEB_HOST
    secret_text = values.get("WEB_SECRET", "").strip()
    if secret_text and len(secret_text) < MIN_WEB_SECRET:
        # Never echoed: it is a secret, even a short one.
        raise SettingsError(
            f"WEB_SECRET must be at least {MIN_WEB_SECRET} characters (or unset: the bot keeps"
            " a random one in its data folder)"
        )
    return WebSettings(
        port=port,
        url=url,
        host=host,
        secret=Secret(secret_text) if secret_text else None,
        secret_file=database.with_name(WEB_SECRET_FILE),
    )


def _whole_number(text: str) -> int | None:
    """The whole number ``text`` spells (spaces around it allowed), or None; each setting
    words its own refusal, so this only reads."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def _grace_days(text: str) -> int:
    return _bounded(
        "SERVER_DATA_GRACE_DAYS", text, DEFAULT_SERVER_GRACE_DAYS, 0, MAX_SERVER_GRACE_DAYS, "days"
    )


def _lobby_idle(text: str) -> int:
    return _bounded(
        "LOBBY_IDLE_MINUTES", text, DEFAULT_LOBBY_IDLE_MINUTES, 1, MAX_LOBBY_IDLE_MINUTES, "minutes"
    )


def _bounded(name: str, text: str, default: int, low: int, high: int, unit: str) -> int:
    """A whole number of ``unit`` from ``low`` to ``high``; unset or empty is ``default``."""
    if not text.strip():
        return default
    value = _whole_number(text)
    if value is None or not low <= value <= high:
        raise SettingsError(
            f"{name} must be a whole number of {unit} from {low} to {high}, not {text!r}"
        )
    return value


def _switch(name: str, text: str) -> bool:
    """An on/off setting: unset or empty is off."""
    word = text.strip().lower()
    if word in ("", "0", "false", "no", "off"):
        return False
    if word in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name} must be true or false, not {text!r}")


def _guild_id(text: str) -> int | None:
    if not text.strip():
        return None
    guild_id = _whole_number(text)
    if guild_id is None:
        raise SettingsError(f"DEV_GUILD_ID must be a server id (a whole number), not {text!r}")
    if guild_id <= 0:
        raise SettingsError(f"DEV_GUILD_ID must be a positive server id, not {text!r}")
    return guild_id


def _shards(count_text: str, ids_text: str) -> tuple[int | None, frozenset[int] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS``: the total, and the comma-separated shards of this
    process (each from 0 to the total minus one, named once)."""
    count = None
    if count_text.strip():
        count = _whole_number(count_text)
        if count is None or not 1 <= count <= MAX_SHARDS:
            raise SettingsError(
                f"SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS},"
                f" not {count_text!r}"
            )
    if not ids_text.strip():
        return count, None
    if count is None:
        raise SettingsError(
            "SHARD_IDS needs SHARD_COUNT: set how many shards the bot runs across all its processes"
        )
    ids: list[int] = []
    for part in ids_text.split(","):
        shard = _whole_number(part)
        if shard is None or not part.strip().isdigit():
            raise SettingsError(
                f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_text!r}"
            )
        if shard >= count:
            raise SettingsError(
                f"SHARD_IDS names shard {shard}, but SHARD_COUNT={count} numbers the shards"
                f" 0 to {count - 1}"
            )
        if shard in ids:
            raise SettingsError(f"SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return count, frozenset(ids)


def _workers(text: str) -> int:
    if not text.strip():
        return default_hard_workers()
    workers = _whole_number(text)
    if workers is None or not 1 <= workers <= MAX_HARD_WORKERS:
        raise SettingsError(
            f"HARD_PLAYER_WORKERS must be a whole number from 1 to {MAX_HARD_WORKERS}, not {text!r}"
        )
    return workers


def token_shape(token: str) -> int:
    """The bot's user id a token's first part spells, or :class:`SettingsError` saying why it
    is not shaped like a bot token (three base64 parts, the first the bot's id). This checks
    only the shape, for ``--check``: Discord alone knows whether a token is valid."""
    parts = token.split(".")
    if len(parts) != 3 or not all(parts):
        raise SettingsError(
            "DISCORD_TOKEN is not shaped like a bot token (three parts separated by dots):"
            " copy it again from the Developer Portal (Bot → Reset Token)"
        )
    if not all(set(part) <= _BASE64URL for part in parts):
        raise SettingsError("DISCORD_TOKEN has characters a bot token never has: copy it again")
    first = parts[0]
    try:
        user_id = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        user_id = ""
    if not user_id.isdigit():
        raise SettingsError(
            "DISCORD_TOKEN's first part is not a bot's id: is it the client secret or the"
            " public key? The token is under Bot → Reset Token"
        )
    return int(user_id)
