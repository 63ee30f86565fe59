"""Discord adapters: slash commands, buttons, select menus, DMs and error replies.

Every module in this folder is an extension the launcher loads (``cogs.notify``,
``cogs.errors``, ``cogs.rummy_command``, ``cogs.play``, ``cogs.rematch``, ``cogs.league``,
``cogs.housekeeping``); what they share sits in sub-packages, one floor each, importing
downwards only: :mod:`cogs.ui` (ids, components, words, replies) <- :mod:`cogs.display` (the
notifier that shows every commit) <- :mod:`cogs.flows` (what a command or a click does) <- the
extensions. A cog parses input, calls the session and presents the result: it never decides a
rule and never writes SQL.
"""
