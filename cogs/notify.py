"""The extension that keeps Discord in step with the games (see ``cogs.display``)."""

from __future__ import annotations

from bot.app import RummyBot
from cogs.display.notifier import Notifier


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(Notifier(bot))


async def teardown(bot: RummyBot) -> None:
    # discord.py removes on unload only the cogs defined in the extension's own modules.
    await bot.remove_cog(Notifier.__cog_name__)
