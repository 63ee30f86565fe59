"""Erase a person or a server for the operator: ``.venv/bin/python scripts/forget.py
--user ID`` or ``--guild ID`` (``--database PATH``: another file than ``DATABASE_PATH``).

The same erasure as ``/rummy forget-me`` and ``/rummy forget-server``
(:meth:`~bot.sessions.SessionManager.forget_user` / ``forget_guild``), for a request that
reaches the operator another way (a person who left every server, a server the bot is no
longer in). It runs on a stopped bot only: a running one keeps its games in memory and
would write them back, so the script takes the bot's lock and says who holds it if it
cannot. Afterwards the write-ahead log is emptied; backups the operator made still hold the
data, and are theirs to delete or to keep out of a restore.

With ``DATABASE_URL`` set (PostgreSQL) the script erases there instead. PostgreSQL has no
lock file for it to take: stop every bot process first. The script then holds every
shard's lease while it erases (the fencing refuses writes to live games otherwise), and
refuses to run while a bot process holds one. What PostgreSQL still keeps after
(WAL, backups, replicas) is in docs/postgresql.md, "Erasure on PostgreSQL".
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.cluster.leases import ShardsHeld, every_shard_held
from bot.infrastructure.instance import InstanceHeld, InstanceLock, LockUnavailable
from bot.infrastructure.settings import (
    DEFAULT_DATABASE_PATH,
    SettingsError,
    read_sources,
    redacted,
    resolve_path,
)
from bot.sessions import SessionManager

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


async def forget(database: Path | str, *, user: int | None = None, guild: int | None = None) -> str:
    """Erase ``user`` or ``guild`` from ``database``; the line that says what went."""
    sessions = await SessionManager.open(database)
    try:
        if user is not None:
            report = await sessions.forget_user(user)
            return (
                f"user {user}: {len(report.abandoned_games)} live games ended, "
                f"{report.anonymized_seats} seats renamed, {report.league_rows} league rows removed"
            )
        assert guild is not None
        games = await sessions.forget_guild(guild)
        return f"server {guild}: {games} games and its league removed"
    finally:
        await sessions.close()


async def forget_on_postgres(url: str, user: int | None, guild: int | None) -> str:
    """:func:`forget` on PostgreSQL, holding every shard's lease meanwhile (refused while a
    bot process holds one)."""
    async with every_shard_held(url) as owned:
        return await forget(owned, user=user, guild=guild)


def _snowflake(text: str) -> int:
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"not a Discord id: {text!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/forget.py",
        description=(
            "Erase a person (--user) or a server (--guild) from the bot's database, with the "
            "bot stopped. The database is DATABASE_PATH (environment or .env), by default "
            f"{DEFAULT_DATABASE_PATH}."
        ),
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--user", type=_snowflake, help="the person's Discord user id")
    which.add_argument("--guild", type=_snowflake, help="the server's Discord id")
    parser.add_argument("--database", type=Path, help="the database, instead of DATABASE_PATH")
    args = parser.parse_args(argv)
    url = None if args.database else read_sources().values.get("DATABASE_URL", "").strip()
    if url:
        try:
            print(f"forget: {asyncio.run(forget_on_postgres(url, args.user, args.guild))}")
        except ShardsHeld as problem:
            print(f"forget: {problem}; stop every bot process first", file=sys.stderr)
            return EXIT_USAGE
        except Exception as error:
            print(f"forget: cannot erase from {redacted(url)}: {error}", file=sys.stderr)
            return EXIT_FAILED
        return EXIT_OK
    try:
        database = (
            resolve_path("--database", str(args.database), DEFAULT_DATABASE_PATH)
            if args.database
            else read_sources().database_path()
        )
    except SettingsError as problem:
        print(f"forget: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if not database.is_file():
        print(f"forget: there is no database at {database}", file=sys.stderr)
        return EXIT_USAGE
    try:
        lock = InstanceLock.acquire(database)
    except (InstanceHeld, LockUnavailable) as problem:
        print(f"forget: {problem}; stop the bot first", file=sys.stderr)
        return EXIT_USAGE
    try:
        print(f"forget: {asyncio.run(forget(database, user=args.user, guild=args.guild))}")
    except Exception as error:
        print(f"forget: cannot erase from {database}: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        lock.release()
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
