"""Launcher: settings, logging, database and unfinished games, then the bot.

Order matters: the configuration is checked before anything is opened, and every unfinished
game is loaded back before the bot connects, so the first click after a restart finds its
game. Every way the start can fail ends in one line that says what to fix and a non-zero exit
status (2: configuration, 1: anything else); an unreachable Discord is waited for instead,
because it usually comes back by itself. SIGINT and SIGTERM stop the bot at any moment,
closing Discord and the database, with status 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import signal
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Literal

import aiohttp
import discord
import yarl

from bot.app import RummyBot
from bot.logs import RECONNECTS, describe, setup_logging
from bot.sessions import Brains, SessionManager
from bot.settings import Settings, SettingsError

log = logging.getLogger("bot")

EXTENSIONS: tuple[str, ...] = ("cogs.notify", "cogs.lobby", "cogs.play", "cogs.league")
"""The Discord extensions, loaded in this order: the after-commit notifier first, then the
commands. Named here, by the launcher, so the application never imports its adapters."""

PROBE_TIMEOUT = 10.0
"""Seconds to wait for Discord's API to answer before calling it unreachable."""
LOGIN_TIMEOUT = 120.0
"""Seconds for the whole login (token check, application, command sync)."""
RETRY_CAP = 60.0
"""The longest wait between two attempts to reach Discord."""
CLOSE_TIMEOUT = 10.0
"""Seconds the bot may take to close; the database is closed after it either way."""

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2
TOKEN_REFUSED = (
    "Discord refused the token: check DISCORD_TOKEN (reset it in the Developer Portal if it leaked)"
)


class StartFailed(Exception):
    """Start-up cannot go on; the message is the one line the operator reads."""


class Unreachable(Exception):
    """Discord did not answer; worth trying again later."""


def version() -> str:
    try:
        return metadata.version("rummy-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="rummy-bot",
        description="Rummy for Discord: a self-hosted bot that plays Rummy in any channel.",
        epilog=(
            "Settings come from the environment or from a .env file in the current folder: "
            "DISCORD_TOKEN (required), DATABASE_PATH, DEV_GUILD_ID, LOG_LEVEL, "
            "DISCORD_LOG_LEVEL, HARD_PLAYER_WORKERS. See .env.example. Without --sync, "
            "commands are synced to DEV_GUILD_ID when it is set, otherwise globally "
            "whenever they changed since the last global sync."
        ),
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands globally at this start (Discord rate-limits this)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    return parser.parse_args(argv)


def point_at_test_server(settings: Settings) -> None:
    """Honour the test-only URLs; when unset, leave discord.py as it is (a harness may have
    patched it already)."""
    if settings.api_base_url is not None:
        discord.http.Route.BASE = settings.api_base_url
    if settings.gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class CappedBackoff(discord.backoff.ExponentialBackoff[Literal[False]]):
    """discord.py's gateway reconnect delays, capped: its own grow to 17 minutes."""

    def delay(self) -> float:
        return min(RETRY_CAP, super().delay())


def cap_reconnect_delays() -> None:
    """Make discord.py wait at most ``RETRY_CAP`` between two gateway connection attempts."""
    discord.client.ExponentialBackoff = CappedBackoff  # type: ignore[attr-defined,assignment]


async def open_sessions(path: Path, hard_workers: int) -> SessionManager:
    try:
        sessions = await SessionManager.open(path, brains=Brains(workers=hard_workers))
    except Exception as error:  # any driver, OS or migration error: all mean the same here
        raise StartFailed(f"cannot open the database {path}: {describe(error)}") from None
    try:
        loaded = await sessions.load_active()
    except Exception as error:
        await sessions.close()
        raise StartFailed(f"cannot read the games in {path}: {describe(error)}") from None
    log.info("database %s ready; %d unfinished games loaded", path, loaded)
    return sessions


async def probe(timeout: float = PROBE_TIMEOUT) -> None:
    """Raise :class:`Unreachable` unless Discord's API answers (any HTTP status will do)."""
    url = f"{discord.http.Route.BASE}/gateway"
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http,
            http.get(url) as response,
        ):
            await response.read()
    except TimeoutError:
        raise Unreachable(f"no answer within {timeout:g} s") from None
    except (aiohttp.ClientError, OSError) as error:
        raise Unreachable(network_reason(error)) from None


def network_reason(error: BaseException) -> str:
    """Why a connection failed, in a few words."""
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "its name cannot be looked up (DNS)"
    if isinstance(error, aiohttp.ClientConnectorError):
        return _connect_reason(error.os_error)
    if isinstance(error, TimeoutError):
        return "no answer"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    return describe(error)


def next_delay(attempt: int, cap: float = RETRY_CAP) -> float:
    """1, 2, 4 … seconds up to ``cap``, each spread by ±20 % so restarted bots don't march
    in step."""
    base = min(cap, 2.0 ** min(attempt, 16))
    return min(cap, base * random.uniform(0.8, 1.2))


def _connect_reason(error: OSError) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if error.errno:
        return os.strerror(error.errno).lower()
    return describe(error)


async def log_in(bot: RummyBot, token: str) -> None:
    """Log in (check the token, load the cogs, sync), or raise what went wrong."""
    try:
        await asyncio.wait_for(bot.login(token), timeout=LOGIN_TIMEOUT)
    except discord.LoginFailure:
        raise StartFailed(TOKEN_REFUSED) from None
    except TimeoutError:
        raise Unreachable(f"the login took more than {LOGIN_TIMEOUT:.0f} s") from None
    except discord.DiscordServerError as error:
        raise Unreachable(f"Discord answered {error.status}") from None
    except (aiohttp.ClientError, OSError) as error:
        raise Unreachable(network_reason(error)) from None
    except discord.HTTPException as error:
        raise StartFailed(f"Discord refused the login: {describe(error)}") from None


async def serve(settings: Settings, *, sync: bool) -> None:
    """Open the database, then connect to Discord (waiting for it as long as needed)."""
    sessions = await open_sessions(settings.database_path, settings.hard_workers)
    token = settings.discord_token.reveal()
    state = settings.database_path.with_name(settings.database_path.name + ".commands.json")
    bot: RummyBot | None = None
    try:
        attempt = 0
        while True:
            bot = RummyBot(
                sessions,
                dev_guild_id=settings.dev_guild_id,
                sync_globally=sync,
                sync_state=state,
                extensions=EXTENSIONS,
            )
            try:
                await probe()
                await log_in(bot, token)
                break
            except Unreachable as problem:
                await close_bot(bot)
                bot = None
                delay = next_delay(attempt)
                attempt += 1
                log.warning(
                    "cannot reach Discord at %s (%s); retrying in %.0f s",
                    discord.http.Route.BASE,
                    problem,
                    delay,
                )
                await asyncio.sleep(delay)
        try:
            await connect(bot)
        except discord.PrivilegedIntentsRequired:
            raise StartFailed(
                "Discord refused an intent the bot asked for: enable it in the Developer "
                "Portal (Bot → Privileged Gateway Intents)"
            ) from None
        except discord.ConnectionClosed as error:
            if error.code == 4004:
                raise StartFailed(TOKEN_REFUSED) from None
            raise StartFailed(
                f"Discord closed the connection (code {error.code}): {error.reason or 'no reason'}"
            ) from None
    finally:
        if bot is not None:
            await close_bot(bot)
        await sessions.close()


async def connect(bot: RummyBot) -> None:
    """Open the gateway connection and keep it; return when the bot is closed.

    Once connected, discord.py reconnects by itself. Before that, discord.py 2.7.1 cannot:
    after a failed first attempt it reads the missing connection's state and raises an
    AttributeError, so the first connection is retried here.
    """

    def never_connected() -> bool:
        ws: object | None = bot.ws  # typed as always set; it is None until the first connection
        return ws is None

    RECONNECTS.silent = never_connected
    attempt = 0
    while True:
        try:
            await bot.connect(reconnect=True)
            return
        except (AttributeError, OSError, aiohttp.ClientError, TimeoutError) as error:
            cause = error.__context__ if isinstance(error, AttributeError) else error
            network = isinstance(cause, (OSError, aiohttp.ClientError, TimeoutError))
            if cause is None or not network or not never_connected() or bot.is_closed():
                raise
            delay = next_delay(attempt)
            attempt += 1
            log.warning(
                "cannot reach Discord's gateway at %s (%s); retrying in %.0f s",
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
                network_reason(cause),
                delay,
            )
            await asyncio.sleep(delay)


async def close_bot(bot: RummyBot) -> None:
    """Unload the cogs (so they detach from the shared sessions) and close the connection."""
    for name in list(bot.extensions):
        with contextlib.suppress(Exception):
            await bot.unload_extension(name)
    with contextlib.suppress(Exception, TimeoutError):
        await asyncio.wait_for(bot.close(), timeout=CLOSE_TIMEOUT)


async def run(settings: Settings, *, sync: bool) -> int:
    """Serve until stopped; a signal cancels the work, whose ``finally`` blocks close it all."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopping: list[int] = []

    def stop(signum: int) -> None:
        if not stopping:  # a second signal while closing changes nothing
            stopping.append(signum)
            log.info("%s received; stopping", signal.Signals(signum).name)
            task.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows: Ctrl-C still works
            loop.add_signal_handler(signum, stop, signum)
    try:
        await serve(settings, sync=sync)
    except asyncio.CancelledError:
        if not stopping:
            raise
    except StartFailed as problem:
        log.error("%s", problem)
        return EXIT_FAILED
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(signum)
    log.info("stopped")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as problem:
        print(f"rummy-bot: {problem}", file=sys.stderr)
        print(
            "rummy-bot: copy .env.example to .env and fill it in (see README.md)", file=sys.stderr
        )
        return EXIT_CONFIG
    token = settings.discord_token.reveal()
    setup_logging(settings.log_level, discord_level=settings.discord_log_level, secrets=(token,))
    point_at_test_server(settings)
    cap_reconnect_delays()
    try:
        return asyncio.run(run(settings, sync=args.sync))
    except KeyboardInterrupt:  # Ctrl-C where no signal handler could be installed
        log.info("stopped")
        return EXIT_OK
    except Exception as error:
        log.error("unexpected error: %s (LOG_LEVEL=DEBUG shows where)", describe(error))
        log.debug("details", exc_info=error)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
