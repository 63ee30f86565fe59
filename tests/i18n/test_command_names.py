"""Every text names commands, options and choices as its reader's Discord shows them: no
ru, cs or fr text, rendered, names an English command (``/hand`` where a Czech client lists
``/karty``), and every ``{cmd[…]}`` a text writes is a command of the real tree."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord import app_commands

from bot.__main__ import EXTENSIONS
from bot.i18n import COMMAND_FIELDS, available_locales, catalog, placeholders, t
from bot.sessions import SessionManager

TRANSLATED = sorted(available_locales() - {"en"})


@dataclass(frozen=True)
class EnglishNames:
    """The command tree's English names, each with its catalog key."""

    commands: dict[str, list[str]]  # "rummy join" -> its keys, group first
    options: dict[str, str]  # "draw source" -> cmd.draw.opt.source.name
    choices: dict[str, str]  # "stock" -> choice.stock


def _walk(
    items: list[app_commands.Command | app_commands.Group],  # type: ignore[type-arg]
) -> Iterator[app_commands.Command | app_commands.Group]:  # type: ignore[type-arg]
    for item in items:
        yield item
        if isinstance(item, app_commands.Group):
            yield from _walk(list(item.commands))


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> EnglishNames:
    return asyncio.run(_english_names(tmp_path_factory.mktemp("db") / "rummy.sqlite3"))


async def _english_names(database: Path) -> EnglishNames:
    from bot.app import RummyBot

    sessions = await SessionManager.open(database)
    try:
        bot = RummyBot(sessions, extensions=EXTENSIONS)
        for name in EXTENSIONS:
            await bot.load_extension(name)
        commands: dict[str, list[str]] = {}
        options: dict[str, str] = {}
        choices: dict[str, str] = {}
        for item in _walk(list(bot.tree.get_commands())):  # type: ignore[arg-type]
            path = item.qualified_name
            parts = path.split()
            commands[path] = [f"cmd.{'.'.join(parts[: i + 1])}.name" for i in range(len(parts))]
            if isinstance(item, app_commands.Command):
                for parameter in item.parameters:
                    key = f"cmd.{'.'.join(parts)}.opt.{parameter.name}.name"
                    options[f"{path} {parameter.name}"] = key
                    for choice in parameter.choices:
                        if isinstance(choice.value, str):
                            choices[choice.name] = f"choice.{choice.value}"
        await bot.close()
    finally:
        await sessions.close()
    assert "rummy join" in commands
    assert "draw source" in options
    assert "stock" in choices
    return EnglishNames(commands, options, choices)


def rendered(locale: str) -> dict[str, str]:
    """Every text of ``locale`` with each of its fields filled by a marker."""
    out: dict[str, str] = {}
    for key, template in catalog(locale).items():
        if key.startswith(("cmd.", "choice.", "ctxmenu.")):
            continue
        fields = placeholders(template) - COMMAND_FIELDS
        out[key] = t(key, locale, **dict.fromkeys(fields, "⟨x⟩"))
    return out


def english_left(locale: str, names: EnglishNames, text: str) -> list[str]:
    """The English command, option and choice names ``text`` writes where ``locale`` has
    names of its own."""
    texts = catalog(locale)
    english = catalog("en")
    found: list[str] = []
    for path, keys in names.commands.items():
        if [texts[k] for k in keys] == [english[k] for k in keys]:
            continue
        if re.search("/" + re.escape(path) + r"(?![\w-])", text):
            found.append("/" + path)
        bare = r"(?<![\w/-])" + re.escape(path) + r"(?![\w-])"
        if locale in ("ru", "cs") and len(keys) == 1 and re.search(bare, text):
            found.append(path)  # a top-level command's name, slash or not, is never Czech
    for path, key in names.options.items():
        name = path.split()[-1]
        if texts[key] != name and re.search(r"(?<![\w/-])" + re.escape(name) + ":", text):
            found.append(name + ":")
    for name, key in names.choices.items():
        if texts[key] != name and re.search(r"[:=]\s*" + re.escape(name) + r"(?![\w])", text):
            found.append(":" + name)
    return found


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_text_names_an_english_command(locale: str, english: EnglishNames) -> None:
    problems = {
        key: found
        for key, text in rendered(locale).items()
        if (found := english_left(locale, english, text))
    }
    assert problems == {}


@pytest.mark.parametrize("locale", sorted(available_locales()))
def test_every_command_a_text_names_is_in_the_tree(locale: str, english: EnglishNames) -> None:
    field = re.compile(r"\{(cmd|opt|choice)\[([^\]]+)\]\}")
    named = {
        (kind, path) for text in catalog(locale).values() for kind, path in field.findall(text)
    }
    values = {key.removeprefix("choice.") for key in english.choices.values()}
    unknown = sorted(
        (kind, path)
        for kind, path in named
        if (kind == "cmd" and path not in english.commands)
        or (kind == "opt" and path not in english.options)
        or (kind == "choice" and path not in values)
    )
    assert unknown == []
    if locale != "en":
        assert named, "a translated catalog names its commands through {cmd[…]}"


def test_the_reader_gets_the_names_of_their_client() -> None:
    assert t("error.no_game", "cs").endswith("/rummy nová_hra.")
    assert "/líznout odkud:balíček" in t("help.draw", "cs", draw="D", take="T")
    assert "/взять откуда:колода" in t("help.draw", "ru", draw="D", take="T")
    assert (
        t("error.no_game", "en") == "There is no game in this channel. Start one with /rummy new."
    )


def test_the_check_sees_an_english_command(english: EnglishNames) -> None:
    found = english_left("cs", english, "Použij /hand nebo /rummy join, pak draw.")
    assert sorted(found) == ["/hand", "/rummy join", "draw"]
    assert english_left("ru", english, "/взять source:stock") == ["source:", ":stock"]
    assert english_left("cs", english, "Použij /rummy stůl.") == []
