"""The league as the Discord layer asks for it: standings, a player's card, history and
seasons, each read in its own unit of work, so no caller ever holds a connection."""

from __future__ import annotations

from bot.storage import GameSummary, LeagueEntry, Season, StandingsPage, Store
from bot.values.clock import utc_now

PAGE_SIZE = 10
HISTORY_LIMIT = 50


class League:
    """Read-mostly access to one store's league tables."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def standings(
        self, guild_id: int, season: int | None = None, page: int = 1, page_size: int = PAGE_SIZE
    ) -> StandingsPage:
        """One page of a season's table (default: the current season); ``page`` is clamped
        into range, and a server without a finished game gets an empty page (season None)."""
        async with self._store.unit() as repo:
            return await repo.standings(guild_id, page, page_size, season)

    async def player_card(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> LeagueEntry | None:
        """A player's figures and rank in a season; None if they have not played in it."""
        async with self._store.unit() as repo:
            return await repo.player_card(guild_id, user_id, season)

    async def history(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """Finished and abandoned games of a server, newest first (one person's if given)."""
        limit = min(max(limit, 1), HISTORY_LIMIT)
        async with self._store.unit() as repo:
            return await repo.recent_games(guild_id, user_id, limit)

    async def current_season(self, guild_id: int) -> Season | None:
        async with self._store.unit() as repo:
            return await repo.current_season(guild_id)

    async def new_season(self, guild_id: int) -> Season:
        """Open the server's next season: standings and ratings start again from nothing
        (the earlier seasons stay readable by number)."""
        async with self._store.unit() as repo:
            return await repo.start_season(guild_id, utc_now())
