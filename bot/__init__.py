"""Rummy for Discord: the application, its storage and its rules engine (``bot.rummy``).

``__version__`` is the one place the version is written: the package metadata reads it
(pyproject.toml), the launcher prints it, and CHANGELOG.md's newest release must equal it.
"""

__version__ = "0.9.0"
