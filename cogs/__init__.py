"""Discord adapters: slash commands, buttons, select menus, DMs and error replies.

The launcher names the extensions to load (``cogs.notify``, ``cogs.lobby``, ``cogs.play``,
``cogs.league``); the other modules here are shared by them and import in one direction:
ids <- items <- components <- display <- flows <- the extensions. A cog parses input, calls the
session and presents the result: it never decides a rule and never writes SQL.
"""
