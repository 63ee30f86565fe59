"""A process's identity among all of the bot's, and whether the process behind one is
provably gone.

A lease names its holder by identity (``host:pid:…``). When a holder dies its lease runs
out a lease's time later; a bot restarted on the same machine (systemd, a shell, a test)
would wait that long before it could play again. The identity therefore also carries where
the process ran: the machine's boot and the process-id namespace (the same for processes of
one machine outside containers, different in each container). A process that finds a lease
held by an identity of its own place whose process id no longer runs knows that holder is
dead, and may take its leases at once. Anything less certain (another machine, another
container, a process id in use again, a system without ``/proc``) waits for the lease to
run out, as before.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from functools import cache
from pathlib import Path

PROC = Path("/proc")


@cache
def place() -> str | None:
    """This machine's boot and this process's pid namespace, hashed short; None where
    they cannot be read (not Linux)."""
    try:
        boot = (PROC / "sys/kernel/random/boot_id").read_text().strip()
        namespace = os.readlink(PROC / "self/ns/pid")
    except OSError:
        return None
    return hashlib.sha256(f"{boot} {namespace}".encode()).hexdigest()[:8]


def process_identity() -> str:
    """Host, process id, the place, and a random part (a process id is used again after a
    restart, and two containers may share host name and pid)."""
    here = place()
    token = secrets.token_hex(4)
    tail = token if here is None else f"{here}.{token}"
    return f"{socket.gethostname()}:{os.getpid()}:{tail}"


def runs(pid: int) -> bool:
    """Whether process ``pid`` of this namespace runs (a zombie, killed and not yet reaped
    by its parent, does not)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        return True  # unreadable: assume it runs
    # "pid (command) state …": the command may hold spaces and parentheses.
    state = stat.rpartition(")")[2].split()
    return not (state and state[0] in ("Z", "X"))


def gone(identity: str) -> bool:
    """Whether ``identity`` is of a process of this place, not this one, that no longer
    runs: its leases may be taken without waiting for them to run out."""
    here = place()
    parts = identity.split(":")
    if here is None or len(parts) < 3 or not parts[-1].startswith(f"{here}."):
        return False
    try:
        pid = int(parts[-2])
    except ValueError:
        return False
    return pid != os.getpid() and not runs(pid)
