"""The online copy behind ``scripts/backup.py`` (which says why a file copy is no backup).

SQLite's backup API copies a consistent snapshot inside one read transaction, which in WAL
mode never blocks the bot's writes. It is specific to the driver, so it lives here; the
script names the files and judges the result.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.errors import StorageFailure


def copy_database(source: Path, target: Path) -> str:
    """Copy the database at ``source`` into the (empty or new) file ``target`` and return
    SQLite's verdict on the copy's integrity (``"ok"`` when it is sound).

    A failure of SQLite leaves as :class:`StorageFailure` with the driver's error as its
    cause and the driver's message as its own.
    """
    try:
        # The URI keeps SQLite from creating an empty database should the file vanish.
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)  # all pages in one step: one read transaction, one snapshot
                (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as error:
        raise StorageFailure(str(error)) from error
    return str(verdict)
