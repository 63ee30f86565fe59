"""Online backup of the bot's database: ``.venv/bin/python scripts/backup.py DEST``.

The database is the one the bot uses: PostgreSQL when ``DATABASE_URL`` is set (in the
environment or ``.env``), which ``pg_dump`` copies in its custom format (what
``scripts/pg-restore.sh`` reads); else the SQLite file ``DATABASE_PATH``, copied as below.
DEST's folder is made (owner-only) when it does not exist yet.

Copying the file of a running bot's database is not a backup: in WAL mode the latest
commits live in the ``-wal`` file until a checkpoint moves them, and a copy taken while a
page is being written can be torn. SQLite's online backup API instead copies a consistent
snapshot inside one read transaction, which in WAL mode never blocks the bot's writes, so
this is safe to run at any moment, the bot running or not. The copy itself is
:func:`bot.storage.copy_database`: nothing outside ``bot/storage`` names the driver.

The copy is written next to ``DEST`` under a temporary name, checked with
``PRAGMA integrity_check`` and only then renamed to ``DEST``: an interrupted backup never
leaves a half-written file under the name an operator would restore from. Like the
database, the copy is readable by its owner only (it holds names and game history).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from bot.infrastructure.settings import (
    DEFAULT_DATABASE_PATH,
    SettingsError,
    read_sources,
    redacted,
    resolve_path,
)
from bot.storage import StorageFailure, copy_database

FILE_MODE = 0o600
FOLDER_MODE = 0o700
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class BackupError(Exception):
    """The backup cannot be made; the message says why, for the operator."""


def database_path(
    environ: Mapping[str, str] | None = None, env_files: Sequence[Path] | None = None
) -> Path:
    """The database the bot uses: ``DATABASE_PATH`` from the environment, else from
    ``.env``, else the default, read the way the launcher reads it (without needing the
    token, which a backup has no use for)."""
    return read_sources(environ, env_files).database_path()


def backup(source: Path, dest: Path) -> int:
    """Copy the database at ``source`` to ``dest`` (replacing it) and return its size in
    bytes."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if dest.exists() and dest.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database itself")
    partial = _partial(dest)
    # Created empty (a valid empty database) with owner-only permissions before SQLite
    # opens it, so the copy is never readable by others, not even for a moment.
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    try:
        _copy(source, partial)
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return dest.stat().st_size


def _partial(dest: Path) -> Path:
    """The temporary file beside ``dest`` the copy is written to, its folder made
    owner-only when missing (``make backup DEST=backups/…`` in a fresh clone)."""
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder; name the backup file")
    if not dest.parent.is_dir():
        try:
            dest.parent.mkdir(mode=FOLDER_MODE, parents=True)
        except OSError as error:
            raise BackupError(f"cannot make the folder {dest.parent}: {error.strerror}") from None
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    return partial


def database_url(
    environ: Mapping[str, str] | None = None, env_files: Sequence[Path] | None = None
) -> str | None:
    """``DATABASE_URL`` as the launcher reads it (environment, else ``.env``), or None."""
    return read_sources(environ, env_files).values.get("DATABASE_URL", "").strip() or None


def pg_backup(url: str, dest: Path) -> int:
    """Dump the PostgreSQL database at ``url`` to ``dest`` with ``pg_dump`` (one consistent
    snapshot, safe while the bot plays) and return the dump's size in bytes. The password
    goes to ``pg_dump`` in its environment, never on its command line (which other users
    of the machine can read)."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError(
            "DATABASE_URL is set, and pg_dump is not installed: install PostgreSQL's client"
            " programs (Debian: apt install postgresql-client)"
        )
    parts = urlsplit(url)
    env = dict(os.environ)
    bare = url
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
        bare = urlunsplit(parts._replace(netloc=netloc))
    partial = _partial(dest)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    try:
        done = subprocess.run(
            [
                pg_dump,
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                f"--file={partial}",
                f"--dbname={bare}",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "it failed"
            raise BackupError(f"pg_dump could not dump {redacted(url)}: {why}")
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return dest.stat().st_size


def _copy(source: Path, target: Path) -> None:
    verdict = copy_database(source, target)
    if verdict != "ok":
        raise BackupError(f"the copy failed its integrity check: {verdict}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/backup.py",
        description=(
            "Copy the bot's database to DEST, safely while the bot runs: PostgreSQL with "
            "pg_dump when DATABASE_URL is set (environment or .env), else the SQLite file "
            f"DATABASE_PATH (by default {DEFAULT_DATABASE_PATH}) with SQLite's online backup."
        ),
    )
    parser.add_argument("dest", type=Path, help="the backup file to write (replaced if present)")
    parser.add_argument(
        "--database", type=Path, help="the SQLite file to copy, instead of the bot's database"
    )
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="back up the PostgreSQL database DATABASE_URL names; refuse when it is unset",
    )
    args = parser.parse_args(argv)
    url = None if args.database else database_url()
    if args.postgresql and url is None:
        print("backup: DATABASE_URL is not set (environment or .env)", file=sys.stderr)
        return EXIT_USAGE
    if url is not None:
        return _main_postgres(url, args.dest)
    try:
        source = (
            resolve_path("--database", str(args.database), DEFAULT_DATABASE_PATH)
            if args.database
            else database_path()
        )
        dest = resolve_path("DEST", str(args.dest), args.dest)
    except SettingsError as problem:
        print(f"backup: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        size = backup(source, dest)
    except BackupError as problem:
        print(f"backup: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except (StorageFailure, OSError) as error:
        print(f"backup: cannot copy {source} to {dest}: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"backup: {source} copied to {dest} ({size:,} bytes)")
    return EXIT_OK


def _main_postgres(url: str, given: Path) -> int:
    try:
        dest = resolve_path("DEST", str(given), given)
        size = pg_backup(url, dest)
    except (SettingsError, BackupError) as problem:
        print(f"backup: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"backup: cannot write {given}: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"backup: PostgreSQL {redacted(url)} dumped to {dest} ({size:,} bytes)")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
