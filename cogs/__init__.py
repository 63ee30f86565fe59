"""Discord adapters: slash commands, buttons, select menus, DMs and error replies.

Each module here is a discord.py extension; the Bot loads the ones named in
``EXTENSIONS``. A cog parses input, calls the session and presents the result: it never
decides a rule and never writes SQL.
"""

EXTENSIONS: tuple[str, ...] = ("cogs.notify", "cogs.lobby", "cogs.play", "cogs.league")
"""Extensions loaded at start-up: the after-commit notifier first, then the commands."""
