"""Rummy for Discord: the application, its storage and its rules engine (``bot.rummy``).

``__version__`` is the one place the version is written: the package metadata reads it
(pyproject.toml), the launcher prints it, and CHANGELOG.md's newest release must equal it.

It runs on Linux and macOS (it locks its database with ``flock`` and names file owners
through ``pwd``); on Windows it runs inside WSL. Imported on Windows itself, it stops with
that one sentence rather than a traceback about a missing module.
"""

import sys

__version__ = "0.10.0"

SUPPORTED = "Linux and macOS; on Windows, run it inside WSL (the Windows Subsystem for Linux)"

if sys.platform == "win32":
    raise SystemExit(f"rummy-bot runs on {SUPPORTED}")
