"""The files the bot writes beside its database, private to its user, and what to say when
one of them belongs to someone else.

Everything the bot writes holds people's ids and names or says when they played: the
database and its ``-wal``/``-shm`` (``bot/storage``), the record of synced commands, the
instance lock and backups. Each is created owner-only from the start (never created and then
tightened, which leaves a moment when others can read it).

A bot started once by hand as root and then as a service user meets files it cannot open,
and "operation not permitted" alone does not say which file or whose it is; the hint does.
"""

from __future__ import annotations

import errno
import os
import pwd
from pathlib import Path

from bot.infrastructure.logs import describe
from bot.storage.database import FILE_MODE, FOLDER_MODE

__all__ = ["FILE_MODE", "FOLDER_MODE", "access_hint", "ownership_problem", "write_private"]


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``, readable by its owner only, atomically (a crash leaves
    the old file or the new one, never half of one)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


SYSTEM_FOLDERS = frozenset(
    Path(p)
    for p in (
        "/",
        "/root",
        "/home",
        "/usr",
        "/usr/local",
        "/var",
        "/var/lib",
        "/var/local",
        "/etc",
        "/opt",
        "/srv",
        "/tmp",
        "/var/tmp",
        "/mnt",
        "/media",
    )
)
"""Folders of the system itself: the bot is never told to take one over (``chown -R`` on
``/var/lib`` wrecks a machine), only to make a folder of its own inside."""


def _shared(folder: Path, database: Path) -> bool:
    """Whether ``folder`` holds more than the database's own files (or is the system's), so
    that it must not be given to the bot whole."""
    if folder in SYSTEM_FOLDERS:
        return True
    try:
        names = [p.name for p in folder.iterdir()]
    except OSError:  # not even readable to us: nothing says it holds anything else
        return False
    return not all(n.startswith((database.name, f".{database.name}")) for n in names)


def ownership_problem(path: Path) -> str | None:
    """Why this process cannot write ``path`` (or create it), naming the file in the way and
    its owner; None when nothing is in the way that the modes show. The advice names only
    what the database needs: its file, or its own folder, never a folder above it."""
    me = os.geteuid()
    folder = path.parent
    for candidate in (path, *path.parents):
        try:
            info = candidate.stat()
        except OSError:  # absent, or inside a folder we cannot enter: look further up
            continue
        if os.access(candidate, os.W_OK | (os.X_OK if candidate.is_dir() else 0)):
            if candidate == path and info.st_uid != me and me != 0:
                # Writable through its group, but only its owner may make it private.
                return (
                    f"{candidate} belongs to {user_name(info.st_uid)}, and the bot runs as"
                    f" {user_name(me)}: run the bot as {user_name(info.st_uid)}, or give it the"
                    f" file (chown {user_name(me)} {candidate})"
                )
            return None
        kind = "folder" if candidate.is_dir() else "file"
        owner, bits = user_name(info.st_uid), f"mode {info.st_mode & 0o777:o}"
        if candidate not in (path, folder) or (candidate == folder and _shared(folder, path)):
            return _own_folder(path, candidate, owner, bits, user_name(me))
        if info.st_uid == me:
            return f"the {kind} {candidate} is not writable ({bits}): chmod u+rwX {candidate}"
        return (
            f"the {kind} {candidate} belongs to {owner} ({bits}), and the bot runs as"
            f" {user_name(me)}: run the bot as {owner}, or give it the {kind}"
            f" ({'chown -R' if kind == 'folder' else 'chown'} {user_name(me)} {candidate})"
        )
    return None


def _own_folder(path: Path, in_the_way: Path, owner: str, bits: str, me: str) -> str:
    """The advice when the database has no folder of its own that the bot may write."""
    folder = path.parent
    own = folder if in_the_way != folder else folder / "rummy-bot"
    where = "" if own == folder else f", then DATABASE_PATH={own / path.name}"
    what = "does not exist and cannot be made there" if own == folder else "is not the bot's"
    return (
        f"the folder {folder} {what}: {in_the_way} belongs to {owner} ({bits}), and the bot"
        f" runs as {me}; give the database a folder of its own (as {owner}: mkdir -p {own}"
        f" && chown {me} {own}{where})"
    )


def access_hint(error: BaseException, path: Path) -> str:
    """``error`` on ``path`` in one line, with whose file is in the way when that is why."""
    text = describe(error)
    if isinstance(error, OSError) and error.errno == errno.EROFS:
        return f"{text}: {path} is on a read-only file system"
    problem = ownership_problem(path)
    return f"{text}; {problem}" if problem else text
