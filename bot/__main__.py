"""Launcher: settings, logging, database and unfinished games, then the bot.

Order matters: the configuration is checked before anything is opened, the database is
locked for this process (one bot per database), and every unfinished game is loaded back
before the bot connects, so the first click after a restart finds its game. Every way the
start can fail ends in one line that says what to fix and a non-zero exit status: 2 when only
the operator can fix it (a setting, the token Discord refused, the database's file, another
bot on the same database), so a service manager stops instead of restarting it for ever
(systemd: ``RestartPreventExitStatus=2``); 1 for anything else. An unreachable Discord, or
an unreachable PostgreSQL server, is waited for instead, because it usually comes back by
itself. SIGINT and SIGTERM stop the bot
at any moment, closing Discord and the database, with status 0.

``--check`` runs the same checks without connecting to Discord, for scripts and health
checks; it changes nothing a start would not (no database is created, and a shared
PostgreSQL schema is never upgraded by it).
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
from datetime import timedelta
from pathlib import Path
from typing import Literal

import aiohttp
import discord
import yarl

from bot import __version__
from bot.app import RummyBot
from bot.cluster.erasure import ErasureRelay, erasure_relay_for
from bot.cluster.forwarding import forwarding_for
from bot.cluster.handover import Handover
from bot.cluster.identity import process_identity
from bot.cluster.leases import LeaseKeeper
from bot.infrastructure.background import stop_tasks
from bot.infrastructure.files import access_hint, ownership_problem
from bot.infrastructure.instance import InstanceHeld, InstanceLock, LockUnavailable
from bot.infrastructure.logs import RECONNECTS, describe, setup_logging
from bot.infrastructure.settings import (
    DEFAULT_LOBBY_IDLE_MINUTES,
    KNOWN_SETTINGS,
    Settings,
    SettingsError,
    env_file_places,
    redacted,
    token_shape,
)
from bot.sessions import Brains, SessionManager
from bot.storage import StorageError, StorageFailure
from bot.storage.inspection import pg_versions, sqlite_verdict
from bot.storage.leases import Leases, ShardCountMismatch, owner_url
from bot.values.clock import set_offset
from bot.values.shards import Ownership, StaticOwnership

log = logging.getLogger("bot")

EXTENSIONS: tuple[str, ...] = (
    "cogs.notify",
    "cogs.errors",
    "cogs.rummy_command",
    "cogs.play",
    "cogs.rematch",
    "cogs.league",
    "cogs.housekeeping",
    "cogs.web",
)
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
    """Start-up cannot go on; the message is the one line the operator reads, ``status``
    the exit status (:data:`EXIT_CONFIG` when only the operator can fix it)."""

    def __init__(self, message: str, status: int = EXIT_CONFIG) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(Exception):
    """Discord did not answer; worth trying again later."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="rummy-bot",
        description="Rummy for Discord: a self-hosted bot that plays Rummy in any channel.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(
            [
                "settings (the environment, or a .env file looked for in the current folder,",
                "then beside the project; RUMMY_ENV_FILE names another; see .env.example):",
                *(f"  {name:<23} {what}" for name, what in KNOWN_SETTINGS.items()),
                "",
                "Without --sync, commands are synced to DEV_GUILD_ID when it is set, otherwise",
                "globally whenever they changed since the last global sync.",
                "Exit status: 0 stopped by a signal; 2 a problem only the operator can fix",
                "(configuration, token, database file, another bot on the database); 1 anything",
                "else (a service manager restarts the bot).",
            ]
        ),
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands globally at this start (Discord rate-limits this)",
    )
    action.add_argument(
        "--check",
        action="store_true",
        help=(
            "check the settings, the token's shape and the database as a start would see "
            "it (its pages, its unfinished games), without connecting to Discord and "
            "without creating the database; print what was checked; exit 0 or 2"
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser.parse_args(argv)


def point_at_test_server(settings: Settings) -> None:
    """Honour the test-only URLs and clock offset; when unset, leave discord.py and the
    clock as they are (a harness may have patched them already)."""
    if settings.clock_offset:
        set_offset(timedelta(seconds=settings.clock_offset))
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


def lock_database(path: Path) -> InstanceLock:
    """This process's hold on the database, or :class:`StartFailed` naming the holder."""
    try:
        return InstanceLock.acquire(path)
    except InstanceHeld as held:
        raise StartFailed(str(held)) from None
    except LockUnavailable as problem:
        raise StartFailed(f"cannot open the database {path}: {problem}") from None


async def open_sessions(
    target: Path | str,
    hard_workers: int,
    lobby_idle: int = DEFAULT_LOBBY_IDLE_MINUTES,
    ownership: Ownership | None = None,
    *,
    load: bool = True,
    quiet: bool = False,
) -> SessionManager:
    """The sessions on the SQLite file ``target`` or the PostgreSQL URL ``target``, with
    their unfinished games loaded unless ``load`` is false (a process on PostgreSQL loads the
    games of the shards it holds once it holds them)."""
    path = target if isinstance(target, Path) else redacted(target)
    try:
        brains = Brains(workers=hard_workers)
        sessions = await SessionManager.open(target, brains=brains, ownership=ownership)
        sessions.timing.lobby_idle = lobby_idle  # before the lobbies load
    except Exception as error:  # any driver, OS or migration error: all mean the same here
        hint = access_hint(error, target) if isinstance(target, Path) else describe(error)
        raise StartFailed(f"cannot open the database {path}: {hint}") from None
    if not load:
        return sessions
    try:
        loaded = await sessions.load_active()
    except Exception as error:
        await sessions.close()
        raise StartFailed(
            f"cannot read the games in {path}: {describe(error)}", EXIT_FAILED
        ) from None
    if not quiet:
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
        raise StartFailed(f"Discord refused the login: {describe(error)}", EXIT_FAILED) from None


async def serve(settings: Settings, *, sync: bool) -> None:
    """Lock and open the database, then connect to Discord (waiting for it as long as
    needed)."""
    if settings.database_url is not None:  # PostgreSQL: several processes may share it
        await serve_cluster(settings, sync=sync)
        return
    lock = lock_database(settings.database_path)
    try:
        await serve_locked(settings, sync=sync)
    finally:
        lock.release()


async def serve_locked(settings: Settings, *, sync: bool) -> None:
    # Without SHARD_IDS this process runs every shard: it owns every server, whatever the count.
    owned = StaticOwnership(settings.shard_count or 1, settings.shard_ids)
    note_dm_shard(settings)
    sessions = await open_sessions(
        settings.database, settings.hard_workers, settings.lobby_idle_minutes, owned
    )
    try:
        await run_discord(
            settings,
            sessions,
            sync=sync,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
        )
    finally:
        await sessions.close()


def note_dm_shard(settings: Settings) -> None:
    if settings.shard_ids is not None and 0 not in settings.shard_ids:
        log.warning(
            "this process does not run shard 0, to which Discord sends every DM: the buttons"
            " of its games' hand DMs reach the process that runs shard 0"
        )


async def serve_cluster(settings: Settings, *, sync: bool) -> None:
    """On PostgreSQL: hold the leases of this process's shards (standing by while live
    processes hold them), load their games, and run Discord for the shards held; each time
    they change (a dead process's taken over, one lost or handed back) Discord is connected
    again with the new set. The leases are released last, so a standby takes over at once."""
    assert settings.database_url is not None
    note_dm_shard(settings)
    identity = process_identity()
    url = owner_url(settings.database_url, identity)
    count = settings.shard_count or 1  # the leases need the count before Discord is asked
    await wait_for_postgres(url)
    try:
        leases = await Leases.open(url)
    except StorageError as error:
        raise StartFailed(f"cannot open the database {redacted(url)}: {error}") from None
    keeper = LeaseKeeper(
        leases,
        owner=identity,
        shard_count=count,
        shard_ids=settings.shard_ids,
        ttl=settings.lease_seconds,
    )
    try:
        sessions = await open_sessions(
            url, settings.hard_workers, settings.lobby_idle_minutes, keeper, load=False
        )
    except BaseException:
        await leases.close()
        raise
    handover = Handover(sessions)
    keeper.events = handover
    discord_task: asyncio.Task[None] | None = None
    relay: ErasureRelay | None = None
    try:
        log.info("process %s: taking the leases of shards %s", identity, sorted(keeper.wanted))
        try:
            await keeper.start()
        except ShardCountMismatch as problem:
            raise StartFailed(str(problem)) from None
        except StorageError as problem:
            raise StartFailed(f"cannot take the shard leases: {problem}", EXIT_FAILED) from None
        loaded = await sessions.load_shards(keeper.held())
        log.info("shards %s held; %d unfinished games loaded", sorted(keeper.held()), loaded)
        # Erasures asked by other processes, for the live games of the shards held.
        relay = erasure_relay_for(sessions)
        if relay is not None:
            relay.start()
        while True:
            shards = keeper.held()
            handover.changed.clear()
            if not shards:  # every lease lost: stand by until one comes back
                await handover.changed.wait()
                continue
            discord_task = asyncio.create_task(
                run_discord(settings, sessions, sync=sync, shard_count=count, shard_ids=shards)
            )
            sync = False  # --sync asks for one sync, not one per reconnection
            while not discord_task.done() and keeper.held() == shards:
                changed = asyncio.create_task(handover.changed.wait())
                await asyncio.wait({discord_task, changed}, return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
                handover.changed.clear()
            if discord_task.done():
                discord_task.result()
                return
            log.info("shards %s from now on: connecting Discord again", sorted(keeper.held()))
            await stop_tasks(discord_task)
    finally:
        if discord_task is not None and not discord_task.done():  # stopped by a signal
            await stop_tasks(discord_task)
        if relay is not None:
            await relay.close()
        await sessions.close()
        await keeper.stop()
        await leases.close()


OPERATOR_SQLSTATES = frozenset({"28000", "28P01", "3D000", "42501"})
"""The server's refusals only the operator can fix: the role or its password, a database
that does not exist, a missing privilege."""


async def wait_for_postgres(url: str) -> None:
    """Return once the PostgreSQL server answers. While it cannot be reached (stopped,
    starting, the network), say so in one line per attempt and try again, as for an
    unreachable Discord: a server started after the bot, or restarted, is waited for. A
    refusal only the operator can fix ends the start (status 2)."""
    attempt = 0
    while True:
        try:
            await pg_versions(url)
            return
        except StorageFailure as error:
            cause = error.__cause__
            state = getattr(cause, "sqlstate", None)
            if state in OPERATOR_SQLSTATES:
                raise StartFailed(f"cannot open the database {redacted(url)}: {error}") from None
            reason = str(cause).strip().splitlines()[0] if cause is not None else str(error)
        delay = next_delay(attempt)
        attempt += 1
        log.warning(
            "cannot reach the database %s (%s); retrying in %.0f s", redacted(url), reason, delay
        )
        await asyncio.sleep(delay)


async def run_discord(
    settings: Settings,
    sessions: SessionManager,
    *,
    sync: bool,
    shard_count: int | None,
    shard_ids: frozenset[int] | None,
) -> None:
    """Log in and keep the gateway connections of ``shard_ids`` until the bot is closed
    (cancelling this closes it too)."""
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
                legacy_sync_state=state,
                extensions=EXTENSIONS,
                members_intent=settings.members_intent,
                server_grace=timedelta(days=settings.server_grace_days),
                shard_count=shard_count,
                shard_ids=shard_ids,
                web=settings.web,
            )
            # On PostgreSQL, clicks on another process's games are handed to it.
            bot.forwarder = forwarding_for(
                bot.intake, sessions.store, sessions.ownership, sessions.by_game
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
            if error.code in (4010, 4011):
                raise StartFailed(
                    f"Discord refused the shards (code {error.code}: "
                    f"{error.reason or 'invalid shard'}): check SHARD_COUNT and SHARD_IDS"
                ) from None
            raise StartFailed(
                f"Discord closed the connection (code {error.code}): {error.reason or 'no reason'}",
                EXIT_FAILED,
            ) from None
    finally:
        if bot is not None:
            await close_bot(bot)


async def connect(bot: RummyBot) -> None:
    """Open the gateway connections (one per shard this process runs) and keep them; return
    when the bot is closed.

    discord.py connects each shard again by itself, the first time too (every few seconds,
    told in one line each time: :class:`bot.infrastructure.logs.OneLineReconnects`). Before any
    shard connects it asks Discord's API how to shard; an API that does not answer then is waited
    for here.
    """
    RECONNECTS.reason = network_reason
    attempt = 0
    while True:
        try:
            await bot.connect(reconnect=True)
            return
        except (discord.GatewayNotFound, OSError, aiohttp.ClientError) as error:
            if bot.shards or bot.is_closed():
                raise
            delay = next_delay(attempt)
            attempt += 1
            cause = error.__cause__ if isinstance(error, discord.GatewayNotFound) else error
            log.warning(
                "Discord did not say how to connect the shards (%s); retrying in %.0f s",
                network_reason(cause) if cause is not None else describe(error),
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
        return problem.status
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(signum)
    log.info("stopped")
    return EXIT_OK


class Report:
    """``--check``'s lines on standard output, the token and the database password blanked
    out of each (a driver's message may quote a malformed URL)."""

    def __init__(self, secrets: Sequence[str]) -> None:
        self._secrets = tuple(s for s in secrets if s)

    def __call__(self, line: str) -> None:
        for secret in self._secrets:
            line = line.replace(secret, "**********")
        print(line, flush=True)


async def check(settings: Settings) -> int:
    """``--check``: each check on one line of standard output, without connecting to
    Discord; 0 when all pass, 2 at the first that fails (the line says what to fix). It sees
    what a start would see (SQLite's verdict on its pages, every unfinished game read back)
    and changes nothing a start would not: it never creates a database, and never upgrades a
    schema other processes may share."""
    say = Report(settings.secrets)
    path = settings.database_path
    say(f"settings: read from {settings.source}")
    for warning in settings.warnings:
        say(f"settings: warning: {warning}")
    try:
        bot_id = token_shape(settings.discord_token.reveal())
    except SettingsError as problem:
        say(f"token: {problem}")
        return EXIT_CONFIG
    say(f"token: shaped like a bot token (bot id {bot_id}); not sent to Discord")
    if settings.dev_guild_id is not None:
        say(
            f"DEV_GUILD_ID: {settings.dev_guild_id}; the bot must be in that server (a start"
            " says so when it is not)"
        )
    if settings.database_url is not None:
        return await check_postgres(settings, say)
    if not path.exists():
        hint = ownership_problem(path)
        if hint is not None:
            say(f"database: {path} does not exist, and the bot could not create it: {hint}")
            return EXIT_CONFIG
        say(f"database: {path} does not exist yet; the bot creates it at its first start")
        passed(settings, say)
        return EXIT_OK
    try:
        held = InstanceLock.held_by(path)
        if held is not None:
            who = f"process {held.pid}" if held.pid is not None else "another process"
            say(f"database: {path} is in use by the running bot ({who}); not opened")
            say(web_line(settings))
            return EXIT_OK
        lock = lock_database(path)
    except LockUnavailable as problem:
        say(f"database: cannot read the lock of {path}: {problem}")
        return EXIT_CONFIG
    except StartFailed as problem:
        say(f"database: {problem}")
        return EXIT_CONFIG
    try:
        try:
            verdict = sqlite_verdict(path)
        except StorageFailure as error:
            cause = error.__cause__ or error
            say(f"database: cannot open the database {path}: {access_hint(cause, path)}")
            return EXIT_CONFIG
        if verdict != "ok":
            say(
                f"database: {path} is damaged (SQLite's quick_check: {verdict.splitlines()[-1]});"
                " restore it from a backup"
            )
            return EXIT_CONFIG
        return await check_games(settings, path, say)
    finally:
        lock.release()


def passed(settings: Settings, say: Report) -> None:
    """The last lines of a ``--check`` that passed: the web table's, then ``ok``."""
    say(web_line(settings))
    say("ok")


def web_line(settings: Settings) -> str:
    """``--check``'s line on the web table: off, or where it listens and for which address."""
    web = settings.web
    if web is None:
        return "web: off (set WEB_PORT and WEB_URL to serve the web table)"
    if web.secret is not None:
        key = "links signed with WEB_SECRET"
    elif web.secret_file.exists():
        key = f"links signed with the secret in {web.secret_file}"
    else:
        key = f"links signed with a secret the first start writes to {web.secret_file}"
    return f"web: listens on {web.host}:{web.port} for {web.url}; {key}"


async def check_games(settings: Settings, target: Path | str, say: Report) -> int:
    """Open the store as a start does and read every unfinished game back."""
    try:
        sessions = await open_sessions(target, 1, settings.lobby_idle_minutes, quiet=True)
    except StartFailed as problem:
        say(f"database: {problem}")
        return EXIT_CONFIG
    try:
        count = len(sessions.sessions)
    finally:
        await sessions.close()
    say(f"database: {settings.database_name} opened; {count} unfinished games read back")
    passed(settings, say)
    return EXIT_OK


async def check_postgres(settings: Settings, say: Report) -> int:
    """``--check`` on PostgreSQL: say how far the schema is from this program's; a schema to
    upgrade is only reported (a start upgrades it, under the migration lock, while other
    processes may be using it); a current one is opened and its games read back."""
    assert settings.database_url is not None
    name = settings.database_name
    try:
        current, wanted = await pg_versions(settings.database_url)
    except StorageFailure as error:
        say(f"database: cannot reach the database {name}: {error}")
        return EXIT_CONFIG
    if current > wanted:
        say(
            f"database: {name} is at schema version {current}, newer than this program"
            f" ({wanted}): upgrade the bot instead of using an older one"
        )
        return EXIT_CONFIG
    if current < wanted:
        say(
            f"database: {name} is at schema version {current}; the bot's next start upgrades"
            f" it to {wanted} (one process at a time, under the migration lock); not changed now"
        )
        passed(settings, say)
        return EXIT_OK
    return await check_games(settings, settings.database_url, say)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as problem:
        print(f"rummy-bot: {problem}", file=sys.stderr)
        if not any(place.is_file() for place in env_file_places()):
            print(
                "rummy-bot: copy .env.example to .env and fill it in (see README.md)",
                file=sys.stderr,
            )
        return EXIT_CONFIG
    if args.check:
        return asyncio.run(check(settings))
    setup_logging(
        settings.log_level, discord_level=settings.discord_log_level, secrets=settings.secrets
    )
    log.info(
        "rummy-bot %s; settings read from %s; database %s",
        __version__,
        settings.source,
        settings.database_name,
    )
    for warning in settings.warnings:
        log.warning("%s", warning)
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
