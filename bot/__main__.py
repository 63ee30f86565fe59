"""Launcher: settings, logging, database and unfinished games, then the bot.

Order matters: the configuration is checked before anything is opened, and every unfinished
game is loaded back before the bot connects, so the first click after a restart finds its
game.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.app import RummyBot
from bot.sessions import SessionManager
from bot.settings import Settings, SettingsError

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    sessions = await SessionManager.open(settings.database_path)
    try:
        loaded = await sessions.load_active()
        log.info("database %s ready; %d unfinished games loaded", settings.database_path, loaded)
        async with RummyBot(sessions, dev_guild_id=settings.dev_guild_id) as bot:
            await bot.start(settings.discord_token.reveal())
    finally:
        await sessions.close()


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as problem:
        print(f"rummy-bot: {problem}", file=sys.stderr)
        print(
            "rummy-bot: copy .env.example to .env and fill it in (see README.md)", file=sys.stderr
        )
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (reset it if it leaked)")
        return 1
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
