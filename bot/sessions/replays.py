"""Finished games read back for their replays: the game itself (replayed from its stored
seed and log), who sat where, and the server's recent finished games to offer.

A replay is a server's own business: a game of another server is answered as unknown, like a
number that was never a game, so no server learns about another's games. Each request reads
in its own unit of work, like the league.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from bot.rummy import Game
from bot.sessions.restore import restore_game
from bot.storage import GameStatus, GameSummary, Store

RECENT = 25
"""Discord's most autocomplete choices."""


class NoSuchGame(Exception):
    """No game of this number was played on this server."""


class NotFinished(Exception):
    """The game is still played (or waits in its lobby), or was stopped before its end."""

    def __init__(self, status: GameStatus) -> None:
        super().__init__(status.value)
        self.status = status


@dataclass(frozen=True, slots=True)
class FinishedGame:
    id: int
    game: Game
    """The game as it ended, its whole log with it."""
    names: Mapping[str, str]
    """Player id to the name the table showed."""
    finished_at: datetime


class Replays:
    """The finished games of one store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def finished_game(self, guild_id: int, game_id: int) -> FinishedGame:
        """Game ``game_id`` of the server ``guild_id``, finished. Raises :class:`NoSuchGame`
        (none, a cancelled lobby, or another server's) or :class:`NotFinished`."""
        async with self._store.unit() as repo:
            record = await repo.load_game(game_id)
            if (
                record is None
                or record.guild_id != guild_id
                or record.status is GameStatus.CANCELLED
            ):
                raise NoSuchGame
            if record.status is not GameStatus.FINISHED or record.finished_at is None:
                raise NotFinished(record.status)
            log = (await repo.game_logs([game_id])).get(game_id, [])
        names = {seat.player_id: seat.display_name for seat in record.seats}
        return FinishedGame(record.id, restore_game(record, log), names, record.finished_at)

    async def recent(self, guild_id: int) -> list[GameSummary]:
        """The server's latest finished games, newest first (at most :data:`RECENT`)."""
        async with self._store.unit() as repo:
            games = await repo.recent_games(guild_id, None, RECENT)
        return [g for g in games if g.status is GameStatus.FINISHED]
