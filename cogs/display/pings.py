"""Short notices in the game's channel: whose turn it is, and the turn timer's messages."""

from __future__ import annotations

import contextlib

import discord

from bot.i18n import t
from bot.sessions.messages import MessageKind
from cogs.display.game_messages import GameMessages
from cogs.display.keeping import MessageKeeper
from cogs.display.pacing import Pacer
from cogs.ui import components
from cogs.ui.present import as_text

NO_MENTIONS = discord.AllowedMentions.none()


class Pings:
    def __init__(self, pace: Pacer, keeper: MessageKeeper) -> None:
        self.pace = pace
        self.keeper = keeper

    async def tell(
        self,
        messages: GameMessages,
        channel: discord.PartialMessageable,
        notice: tuple[str, str, int],
    ) -> None:
        who, what, when = notice
        if what == "said":
            await self.pace()
            await channel.send(who, allowed_mentions=NO_MENTIONS)
            return
        if what == "reminder":
            user_id = messages.users.get(who)
            if user_id is not None:
                text = t(
                    "timer.reminder", messages.locale, mention=f"<@{user_id}>", when=f"<t:{when}:R>"
                )
                await self.ping(messages, channel, who, user_id, text)
            return
        await self.pace()
        await channel.send(
            t(
                "timer.replaced" if what == "replaced" else "timer.back",
                messages.locale,
                name=as_text(who),
            ),
            allowed_mentions=NO_MENTIONS,
        )

    async def ping(
        self,
        messages: GameMessages,
        channel: discord.PartialMessageable,
        player: str,
        user_id: int,
        text: str | None = None,
    ) -> None:
        """One short turn notice in the channel, replacing the previous one."""
        old = messages.ping_message
        await self.pace()
        sent = await channel.send(
            text or t("turn.ping", messages.locale, mention=f"<@{user_id}>"),
            view=components.table_view(messages.game_id, messages.locale),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]),
        )
        self.keeper.keep(messages, MessageKind.PING, sent.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.pace()
                await channel.get_partial_message(old).delete()
