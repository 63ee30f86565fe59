"""The storage layer's own exceptions: callers react to these, never to a driver's.

Keeping the database driver's exception types inside ``bot/storage`` is what lets another
backend (PostgreSQL) replace SQLite without the sessions noticing.
"""

from __future__ import annotations


class StorageError(RuntimeError):
    """The stored state disagrees with what the caller expected."""


class DuplicateLiveGame(StorageError):
    """The channel already has a lobby or a game in play: the database refused a second."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has a live game")
        self.channel_id = channel_id


class GameChanged(StorageError):
    """A conditional write found the game no longer as the caller last saw it: another
    writer (a second process, a deletion) got there first, so the caller must reload."""

    def __init__(self, game_id: int, expected: str) -> None:
        super().__init__(f"game {game_id} is no longer {expected}")
        self.game_id = game_id


class StorageFailure(StorageError):
    """The database itself failed (a full disk, a corrupt file, a broken constraint): the
    unit of work was rolled back. ``__cause__`` holds the driver's own error for the log."""


class LeaseLost(StorageError):
    """PostgreSQL refused a game write: this process no longer holds the lease of the shard
    the game's server belongs to (it could not renew it in time, and another process may
    have taken the shard over). Nothing of the unit was written; the game is the new
    holder's now."""
