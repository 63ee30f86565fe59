"""/league: the server's standings, a player's card, recent games and new seasons.

The figures are the storage layer's (kept up to date when a game finishes); this cog only
turns them into the renderer's pictures and a text twin.
"""

from __future__ import annotations

import asyncio
import math

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import RummyBot
from bot.i18n import date_text, locale_of, number, t, tn
from bot.storage.models import GameSummary, LeagueEntry, StandingsPage
from cogs.flows import resolve
from cogs.ui import present
from cogs.ui.client import Interaction
from cogs.ui.picture_words import picture_words
from cogs.ui.replies import guarded, png, send
from cogs.ui.rule_words import variant_name
from rendering import PlayerCard, RecentGame, StandingRow, render_player_card, render_standings


def standing_rows(page: StandingsPage) -> list[StandingRow]:
    return [
        StandingRow(
            place=e.rank,
            name=e.display_name,
            games=e.games,
            wins=e.wins,
            win_rate=e.win_rate,
            rating=e.rating,
            points_for=e.points_for,
            points_against=e.points_against,
        )
        for e in page.rows
    ]


def standings_text(page: StandingsPage, loc: str) -> str:
    """The standings in words: every column of the picture, those it leaves out beside the
    names at phone width (win rate, points for and against) included."""
    if page.season is None or not page.rows:
        return t("league.empty", loc)
    lines = [
        f"**{t('league.title', loc, season=page.season, page=page.page, pages=page.total_pages)}**"
    ]
    for e in page.rows:
        lines.append(
            t(
                "league.row",
                loc,
                place=e.rank,
                player=present.as_text(e.display_name),
                games=tn("unit.games", e.games, loc),
                wins=tn("unit.wins", e.wins, loc),
                rating=number(e.rating, loc, decimals=1),
            )
            + ", "
            + t(
                "league.row_points",
                loc,
                rate=t("picture.percent", loc, value=number(round(e.win_rate * 100), loc)),
                points_for=number(e.points_for, loc),
                points_against=number(e.points_against, loc),
            )
        )
    lines.append(t("league.rating_note", loc))
    return present.fit(lines)


def recent_places(history: list[GameSummary], user_id: int) -> tuple[RecentGame, ...]:
    recent: list[RecentGame] = []
    for game in history:
        seat = next((x for x in game.seats if x.user_id == user_id), None)
        if seat is not None and seat.place is not None:
            recent.append(RecentGame(place=seat.place, players=len(game.seats)))
    return tuple(recent[:10])


def player_card(entry: LeagueEntry, recent: tuple[RecentGame, ...]) -> PlayerCard:
    average = entry.average_place
    return PlayerCard(
        name=entry.display_name,
        games=entry.games,
        wins=entry.wins,
        win_rate=entry.win_rate,
        rounds_won=entry.rounds_won,
        points_for=entry.points_for,
        points_against=entry.points_against,
        avg_place=0.0 if math.isnan(average) else average,
        rating=entry.rating,
        recent=recent,
    )


def player_text(entry: LeagueEntry, loc: str) -> str:
    """A player's league line, then what the rating means."""
    average = entry.average_place
    line = t(
        "league.player",
        loc,
        player=present.as_text(entry.display_name),
        rank=entry.rank,
        games=tn("unit.games", entry.games, loc),
        wins=tn("unit.wins", entry.wins, loc),
        rounds=tn("unit.rounds_won", entry.rounds_won, loc),
        rating=number(entry.rating, loc, decimals=1),
        place="—" if math.isnan(average) else number(average, loc, decimals=2),
    )
    if entry.forfeits:
        line += ", " + t("league.forfeits", loc, count=entry.forfeits)
    return f"{line}\n{t('league.rating_note', loc)}"


def history_text(history: list[GameSummary], loc: str) -> str:
    if not history:
        return t("league.no_history", loc)
    lines = [f"**{t('league.history_title', loc)}**"]
    for game in history:
        seats = sorted(game.seats, key=lambda x: (x.place is None, x.place or 0))
        players = ", ".join(
            present.as_text(x.display_name)
            + (f" ({number(x.score, loc)})" if x.score is not None else "")
            for x in seats
        )
        when = date_text(game.finished_at or game.created_at, loc)
        status = t("league.abandoned", loc) if game.status.value == "abandoned" else ""
        variant = variant_name(game.ruleset_name, loc)
        lines.append(f"#{game.id} {when} {variant}: {players} {status}".rstrip())
    return present.fit(lines)


class League(commands.Cog):
    league = app_commands.Group(
        name="league", description="This server's Rummy league", guild_only=True
    )

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @league.command(name="table", description="The league standings")
    @app_commands.describe(season="Which season (default: the current one)", page="Which page")
    async def table(
        self,
        interaction: Interaction,
        season: app_commands.Range[int, 1, 100000] | None = None,
        page: app_commands.Range[int, 1, 100000] = 1,
    ) -> None:
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            guild_id = interaction.guild_id or 0
            found = await resolve.services(interaction).league.standings(
                guild_id, season=season, page=page
            )
            loc = locale_of(interaction, public=True)
            text = standings_text(found, loc)
            if found.season is None or not found.rows:
                await send(interaction, text, ephemeral=False)
                return
            # The picture writes its own page label under the title.
            title = t("league.title_picture", loc, season=found.season)
            picture = await asyncio.to_thread(
                render_standings,
                standing_rows(found),
                title=title,
                page=found.page,
                pages=found.total_pages,
                words=picture_words(loc),
            )
            await send(interaction, text, ephemeral=False, file=png(picture, "league.png"))

        await guarded(interaction, work)

    @league.command(name="player", description="A player's league card (yours: only you see it)")
    @app_commands.describe(user="Whose card (default: yours)")
    async def player(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async def work() -> None:
            who = user or interaction.user
            # About yourself: only you need to see it; about someone else: the channel may.
            mine = who.id == interaction.user.id
            await interaction.response.defer(ephemeral=mine, thinking=True)
            guild_id = interaction.guild_id or 0
            facade = resolve.services(interaction).league
            entry = await facade.player_card(guild_id, who.id)
            loc = locale_of(interaction, public=not mine)
            if entry is None:
                await send(
                    interaction,
                    t("league.no_player", loc, player=present.as_text(who.display_name)),
                    ephemeral=mine,
                )
                return
            history = list(await facade.history(guild_id, who.id, limit=10))
            card = player_card(entry, recent_places(history, who.id))
            words = picture_words(loc)
            picture = await asyncio.to_thread(render_player_card, card, words=words)
            await send(
                interaction,
                player_text(entry, loc),
                ephemeral=mine,
                file=png(picture, "player.png"),
            )

        await guarded(interaction, work)

    @league.command(name="history", description="The server's recent games")
    async def history(self, interaction: Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            games = list(
                await resolve.services(interaction).league.history(
                    interaction.guild_id or 0, None, limit=10
                )
            )
            await send(
                interaction,
                history_text(games, locale_of(interaction, public=True)),
                ephemeral=False,
            )

        await guarded(interaction, work)

    @league.command(name="newseason", description="Start a new league season (Manage Server)")
    # Checked here and answered by the tree's handler (cogs/errors.py). Discord ignores
    # default_permissions on a subcommand, so the command cannot be hidden from members
    # without hiding /league too.
    @app_commands.checks.has_permissions(manage_guild=True)
    async def newseason(self, interaction: Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            season = await resolve.services(interaction).league.new_season(
                interaction.guild_id or 0
            )
            await send(
                interaction,
                t("league.new_season", locale_of(interaction, public=True), season=season.number),
                ephemeral=False,
            )

        await guarded(interaction, work)


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(League(bot))
