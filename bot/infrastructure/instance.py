"""One bot per database, held by an operating-system lock on a file beside the database.

Two bots on one database would both answer every click and both run every timer. The lock
is ``flock`` on ``<database>.lock``: the kernel drops it when the process ends, however it
ends (a SIGKILL or a power cut included), so a stale lock can never keep the bot from
starting, and the file itself is left in place (removing it would let a third process lock a
new file while the second still holds the old one). The file holds the holder's process id,
so a refused start can say who holds it. Like the database, it is readable by its owner only.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from bot.infrastructure.files import FILE_MODE, FOLDER_MODE, access_hint


class InstanceHeld(Exception):
    """Another process holds the database; ``pid`` is the one it wrote (None if unreadable)."""

    def __init__(self, lock_path: Path, pid: int | None) -> None:
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"{holder} is already running the bot on this database (lock {lock_path});"
            " stop it first, or give this one another DATABASE_PATH"
        )
        self.lock_path = lock_path
        self.pid = pid


class LockUnavailable(Exception):
    """The lock file cannot be created or opened (permissions, a read-only folder)."""


def lock_path_of(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class InstanceLock:
    """Held from :meth:`acquire` until :meth:`release` or the end of the process."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, database: Path) -> InstanceLock:
        """Lock ``database`` for this process, creating its folder (owner-only) if needed;
        :class:`InstanceHeld` when another process has it."""
        path = lock_path_of(database)
        try:
            path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        except OSError as error:
            raise LockUnavailable(access_hint(error, path)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise InstanceHeld(path, pid) from None
        except OSError as error:
            os.close(fd)
            raise LockUnavailable(access_hint(error, path)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        return cls(path, fd)

    @staticmethod
    def held_by(database: Path) -> InstanceHeld | None:
        """Who holds ``database``, without taking it; None when nobody does (or there is no
        lock file yet)."""
        path = lock_path_of(database)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise LockUnavailable(access_hint(error, path)) from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return InstanceHeld(path, _read_pid(fd))
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the lock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
