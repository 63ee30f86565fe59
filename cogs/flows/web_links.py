"""The links to a game's page on the web table, from ``/rummy web`` or Open table: a seat's
for a person seated at it, a spectator's for anyone; without the web table, how to switch it
on."""

from __future__ import annotations

from bot import sessions as s
from bot.i18n import locale_of, t
from cogs.flows.resolve import channel_session, game_session, look_of
from cogs.ui.client import Interaction
from cogs.ui.replies import guarded, send
from web.server import WebTable


async def links_text(interaction: Interaction, session: s.Session) -> str:
    """The links, each opening a page in the person's language and with their choices of
    deck colours and hand order."""
    loc = locale_of(interaction)
    try:
        table = interaction.client.service(WebTable)
    except RuntimeError:
        return t("web.off", loc)
    chosen = await look_of(interaction)
    look = {"four_colour": chosen.four_colour, "by_rank": chosen.sort == "rank"}
    lines = []
    if session.player_of(interaction.user.id) is not None:
        link = table.link(session.game_id, interaction.user.id, loc, **look)
        lines.append(t("web.link.seat", loc, url=link))
    watch = table.watch_link(session.game_id, loc, **look)
    lines.append(t("web.link.watch", loc, url=watch))
    return "\n".join(lines)


async def web_command(interaction: Interaction) -> None:
    """``/rummy web``: the links to this channel's game."""

    async def work() -> None:
        await send(interaction, await links_text(interaction, channel_session(interaction)))

    await guarded(interaction, work)


async def web_button(interaction: Interaction, game_id: int) -> None:
    """Open table, on the table message."""

    async def work() -> None:
        await send(interaction, await links_text(interaction, game_session(interaction, game_id)))

    await guarded(interaction, work)
