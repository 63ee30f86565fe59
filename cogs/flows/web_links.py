"""The links to a game's page on the web table, from ``/rummy web`` or Open table: a seat's
for a person seated at it, a spectator's for anyone; without the web table, how to switch it
on."""

from __future__ import annotations

from bot import sessions as s
from bot.i18n import locale_of, t
from cogs.flows.resolve import channel_session, game_session
from cogs.ui.client import Interaction
from cogs.ui.replies import guarded, send
from web.server import WebTable


def links_text(interaction: Interaction, session: s.Session) -> str:
    loc = locale_of(interaction)
    try:
        table = interaction.client.service(WebTable)
    except RuntimeError:
        return t("web.off", loc)
    lines = []
    if session.player_of(interaction.user.id) is not None:
        link = table.link(session.game_id, interaction.user.id, loc)
        lines.append(t("web.link.seat", loc, url=link))
    lines.append(t("web.link.watch", loc, url=table.watch_link(session.game_id, loc)))
    return "\n".join(lines)


async def web_command(interaction: Interaction) -> None:
    """``/rummy web``: the links to this channel's game."""

    async def work() -> None:
        await send(interaction, links_text(interaction, channel_session(interaction)))

    await guarded(interaction, work)


async def web_button(interaction: Interaction, game_id: int) -> None:
    """Open table, on the table message."""

    async def work() -> None:
        await send(interaction, links_text(interaction, game_session(interaction, game_id)))

    await guarded(interaction, work)
