"""Who plays a seat of a running game: ``/rummy join`` and ``/rummy leave`` once the cards
are dealt, and the seat buttons (Leave the game, its confirmation, Take my seat back, Take
a seat).

Leaving hands the seat to a computer player for the rest of the game; joining takes back
one's own seat from a stand-in, or takes over the first seat a computer holds. The session
decides and commits; the display tells the channel and updates the hands (``cogs.display``).
"""

from __future__ import annotations

import discord

from bot import sessions as s
from bot.i18n import locale_of, t
from cogs.flows import lobby as lobby_flows
from cogs.flows import resolve
from cogs.ui.client import Interaction
from cogs.ui.present import as_text
from cogs.ui.queue import queue_answer
from cogs.ui.replies import after_commit, guarded, send
from cogs.ui.seat_items import SeatButton


async def seat_command(interaction: Interaction, verb: str) -> None:
    """/rummy join or /rummy leave: about a running game here, else the lobby's."""
    session = resolve.session_here(interaction) if interaction.guild_id is not None else None
    if session is None or session.status is not s.SessionStatus.ACTIVE:
        await lobby_flows.lobby_command(interaction, verb)
        return

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        resolve.remember(interaction)
        if verb == "join":
            await join_running(interaction, session)
        else:
            await leave_running(interaction, session)

    await guarded(interaction, work)


async def join_running(interaction: Interaction, session: s.Session) -> None:
    """Back to one's own seat from its stand-in; else take over the first computer-held
    seat; with none, :func:`lobby_flows.join_running_without_seat` decides."""
    user = interaction.user
    loc = locale_of(interaction)
    player = session.player_of(user.id)
    if player is not None:
        if session.computer_level(player) is None:
            raise s.LobbyError("refusal.lobby.seated")
        await session.join(user.id, user.display_name)  # back from the stand-in
        with after_commit("error.after_commit.lobby"):
            await send(interaction, t("timer.you_are_back", loc))
        return
    free = session.free_seat()
    if free is None:
        await lobby_flows.join_running_without_seat(interaction, session)
        return
    try:
        await session.join(user.id, user.display_name)
    except s.NoFreeSeat:  # taken by someone else meanwhile
        await lobby_flows.join_running_without_seat(interaction, session)
        return
    with after_commit("error.after_commit.lobby"):
        await send(interaction, t("seat.you_took", loc, seat=as_text(free.display_name)))


async def leave_running(interaction: Interaction, session: s.Session) -> None:
    """Leave one's seat to a computer player; someone not seated leaves the queue."""
    if session.player_of(interaction.user.id) is None:
        loc = locale_of(interaction)
        answer = await queue_answer(session, interaction.user, "leave", loc)
        if answer is not None:
            await send(interaction, answer)
            return
    event = await session.leave(interaction.user.id)
    with after_commit("error.after_commit.lobby"):
        last = event.kind is s.EventKind.CANCELLED
        await send(
            interaction,
            t("seat.you_left_last" if last else "seat.you_left", locale_of(interaction)),
        )


async def seat_button(interaction: Interaction, verb: str, game_id: int) -> None:
    """Leave asks first (an ephemeral Leave, so a slip never leaves); the others act."""

    async def work() -> None:
        loc = locale_of(interaction)
        resolve.remember(interaction)
        session = resolve.game_session(interaction, game_id, in_dm=verb != "take")
        if verb == "leave":
            resolve.seated(session, interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(SeatButton("sure", game_id, t("button.leave", loc)))
            await send(interaction, t("seat.leave_confirm", loc), view=view)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if verb == "sure":
            await leave_running(interaction, session)
        elif verb == "back":
            player = resolve.seated(session, interaction)
            if session.computer_level(player) is None:
                raise s.StaleAction("refusal.turn.seat_returned")
            await join_running(interaction, session)
        else:
            await join_running(interaction, session)

    await guarded(interaction, work)
