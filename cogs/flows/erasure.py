"""Erasure a person can reach: ``/rummy forget-me`` (their own data) and
``/rummy forget-server`` (a server's, Manage Server). Each asks first, with a button in an
ephemeral answer only the asker sees; the click runs the session manager's erasure
(:meth:`~bot.sessions.SessionManager.forget_user` / ``forget_guild``), which also empties
the write-ahead log, and the answer says what was erased."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import sessions as s
from bot.i18n import locale_of, t, tn
from cogs.flows import resolve
from cogs.ui.client import Interaction
from cogs.ui.replies import Refused, guarded, send

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 120.0
"""How long the confirmation button stays usable."""


class Confirm(discord.ui.View):
    """One red button that runs ``action`` once, for the person who asked only (the answer
    is ephemeral, so nobody else sees it)."""

    def __init__(self, label: str, action: Callable[[Interaction], Awaitable[str]]) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.add_item(_ConfirmButton(label, action))


class _ConfirmButton(discord.ui.Button[Confirm]):
    def __init__(self, label: str, action: Callable[[Interaction], Awaitable[str]]) -> None:
        super().__init__(label=label, style=discord.ButtonStyle.danger)
        self._action = action

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            if self.view is not None:
                self.view.stop()
            await send(interaction, await self._action(interaction))

        await guarded(interaction, work)


async def forget_me(interaction: Interaction) -> None:
    async def erase(click: Interaction) -> str:
        loc = locale_of(click)
        try:
            report = await resolve.manager(click).forget_user(click.user.id)
        except s.ErasureUnfinished as unfinished:
            log.error("could not finish an erasure", exc_info=unfinished.__cause__)
            games = tn("unit.erased_games", len(unfinished.ended), loc)
            return t("erase.me.unfinished", loc, games=games)
        return t(
            "erase.me.done",
            loc,
            games=tn("unit.erased_games", len(report.abandoned_games), loc),
            seats=tn("unit.renamed_seats", report.anonymized_seats, loc),
            league=tn("unit.removed_league_rows", report.league_rows, loc),
        )

    async def work() -> None:
        loc = locale_of(interaction)
        view = Confirm(t("erase.me.button", loc), erase)
        await send(interaction, t("erase.me.ask", loc), view=view)

    await guarded(interaction, work)


async def forget_server(interaction: Interaction) -> None:
    async def erase(click: Interaction) -> str:
        guild_id = click.guild_id
        if guild_id is None or not resolve.is_moderator(click, "manage_guild"):
            raise Refused("refusal.erase.manage_server")
        games = await resolve.manager(click).forget_guild(guild_id)
        return tn("erase.server.done", games, locale_of(click))

    async def work() -> None:
        loc = locale_of(interaction)
        if interaction.guild_id is None or not resolve.is_moderator(interaction, "manage_guild"):
            raise Refused("refusal.erase.manage_server")
        view = Confirm(t("erase.server.button", loc), erase)
        await send(interaction, t("erase.server.ask", loc), view=view)

    await guarded(interaction, work)
