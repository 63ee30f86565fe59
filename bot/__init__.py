"""Rummy for Discord: the application (settings, launcher, sessions, storage).

It runs on Linux and macOS (it locks its database with ``flock`` and names file owners
through ``pwd``); on Windows it runs inside WSL. Imported on Windows itself, it stops with
that one sentence rather than a traceback about a missing module.
"""

import sys

SUPPORTED = "Linux and macOS; on Windows, run it inside WSL (the Windows Subsystem for Linux)"

if sys.platform == "win32":
    raise SystemExit(f"rummy-bot runs on {SUPPORTED}")
