"""The table display keeps Discord in step with the games: the lobby message, the one table
message per game, each player's hand in their DMs, the turn notice, round summaries and the
final standings.

Everything it shows comes from the ``Committed`` events the sessions hand it; it never reads
a live session back. One module per job:

- ``notifier``: the listener cog (the ``cogs.notify`` extension loads it), and what the
  flows share with it;
- ``changes``: what a commit changed (what to show again, notices, whose turn began);
- ``worker``: one task per game that shows what is out of date;
- ``channel``: the lobby and table messages, round summaries and standings;
- ``hands``: the hands in DMs; ``pings``: turn and timer notices in the channel;
- ``recent``: what happened since a player's last turn, for the table and the DMs;
- ``pacing``: the pace under Discord's global rate limit;
- ``game_messages`` and ``keeping``: which messages show a game, and their ids kept.

Not an extension itself: discord.py forgets an extension's submodules when it unloads it,
and the flows keep using these classes across a reload.
"""
