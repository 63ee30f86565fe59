"""The catalogs agree with each other, with the code that uses them and with the commands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import discord
from discord.ext import commands

from bot.__main__ import EXTENSIONS
from bot.app import RummyBot
from bot.i18n import catalog
from bot.i18n.checks import catalog_problems, command_problems, keys_in_source, missing_keys
from bot.sessions import SessionManager


def test_every_catalog_has_the_english_keys_and_fields() -> None:
    assert catalog_problems() == []


def test_every_key_used_in_the_code_exists_in_english() -> None:
    assert missing_keys() == []


@asynccontextmanager
async def bot_with_every_command(folder: Path) -> AsyncIterator[RummyBot]:
    """The bot with every extension loaded, never connected: its command tree as Discord
    would be given it."""
    sessions = await SessionManager.open(folder / "rummy.sqlite3")
    try:
        bot = RummyBot(sessions, extensions=EXTENSIONS)
        for name in EXTENSIONS:
            await bot.load_extension(name)
        yield bot
        await bot.close()
    finally:
        await sessions.close()


async def test_every_command_text_is_in_the_english_catalog(tmp_path: Path) -> None:
    async with bot_with_every_command(tmp_path) as bot:
        assert await command_problems(bot.tree) == []


def test_keys_are_found_in_every_form_the_code_writes_them(tmp_path: Path) -> None:
    (tmp_path / "cog.py").write_text(
        "from bot import i18n\n"
        "from bot.i18n import t, tn\n"
        "from discord import app_commands\n"
        "a = t('lobby.joined', 'fr', player='x')\n"
        "b = i18n.t('error.unexpected')\n"
        "c = tn('unit.cards', 3, 'en')\n"
        "d = app_commands.locale_str('draw', key='cmd.draw.name')\n"
        "e = t(some_variable)\n"
        "LABELS = {'join': 'error.no_such_text', 'file': 'error.png', 'mod': 'bot.i18n'}\n",
        encoding="utf-8",
    )
    found = keys_in_source([tmp_path])
    assert sorted(found) == [
        "cmd.draw.name",
        "error.no_such_text",
        "error.unexpected",
        "lobby.joined",
        "unit.cards.one",
        "unit.cards.other",
    ]
    assert found["lobby.joined"] == [f"{tmp_path / 'cog.py'}:4"]
    problems = missing_keys([tmp_path])
    assert any(p.startswith("lobby.joined is used at") for p in problems)
    assert any(p.startswith("error.no_such_text is used at") for p in problems)
    assert not any(p.startswith("error.unexpected") for p in problems)


async def test_a_command_whose_text_is_not_in_the_catalog_is_reported() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(name="shuffle", description="Shuffle the deck")
    async def shuffle(interaction: discord.Interaction, times: int) -> None:
        """Not called."""

    problems = await command_problems(bot.tree)
    assert "cmd.shuffle.name ('shuffle') is missing from en.json" in problems
    assert "cmd.shuffle.opt.times.name ('times') is missing from en.json" in problems
    await bot.close()


def test_french_is_not_a_copy_of_english() -> None:
    english, french = catalog("en"), catalog("fr")
    same = [k for k in english if english[k] == french[k] and not k.startswith("unit.points")]
    assert len(same) <= len(english) // 10, same
