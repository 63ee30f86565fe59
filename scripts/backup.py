"""Online backup of the bot's database: ``.venv/bin/python scripts/backup.py DEST``.

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
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.infrastructure.settings import (
    DEFAULT_DATABASE_PATH,
    SettingsError,
    read_sources,
    resolve_path,
)
from bot.storage import StorageFailure, copy_database

FILE_MODE = 0o600
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
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder; name the backup file")
    if not dest.parent.is_dir():
        raise BackupError(f"the folder {dest.parent} does not exist")
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    # Created empty (a valid empty database) with owner-only permissions before SQLite
    # opens it, so the copy is never readable by others, not even for a moment.
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    try:
        _copy(source, partial)
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
            "Copy the bot's SQLite database to DEST with SQLite's online backup; safe while "
            "the bot runs. The database is DATABASE_PATH (environment or .env), by default "
            f"{DEFAULT_DATABASE_PATH}."
        ),
    )
    parser.add_argument("dest", type=Path, help="the backup file to write (replaced if present)")
    parser.add_argument(
        "--database", type=Path, help="the database to copy, instead of DATABASE_PATH"
    )
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
