"""Discord adapters: slash commands, buttons, select menus, DMs and error replies.

Each module here is a discord.py extension; the Bot loads the ones named in
``EXTENSIONS``. A cog parses input, calls the session and presents the result: it never
decides a rule and never writes SQL.
"""

EXTENSIONS: tuple[str, ...] = ()
"""Extensions loaded at start-up; the lobby and play commands are added by the Discord issue."""
