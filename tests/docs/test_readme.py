"""The README stays a newcomer's page, and true: short enough to read in ten minutes, its
table of commands the bot's command tree, its table of settings every setting the bot reads,
and its two commands the Makefile's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from discord import app_commands

from tests.i18n.test_catalogs import bot_with_every_command

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 260
TEST_ONLY = "For tests only"
"""The line of .env.example after which come the settings only tests set."""


def section(title: str) -> list[str]:
    """The lines of the README's ``## title`` section."""
    lines = README.read_text("utf-8").splitlines()
    start = lines.index(f"## {title}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def first_cells(title: str) -> list[str]:
    """The first cell of each row of the section's table, its backticks taken off."""
    rows = [line for line in section(title) if line.startswith("| `")]
    return [row.split("|")[1].strip().strip("`") for row in rows]


def test_the_readme_stays_short() -> None:
    lines = len(README.read_text("utf-8").splitlines())
    assert lines <= MAX_LINES, (
        f"README.md has {lines} lines (at most {MAX_LINES}): move the detail to docs/"
    )


async def test_the_table_of_commands_is_the_bots_commands(tmp_path: Path) -> None:
    async with bot_with_every_command(tmp_path) as bot:
        commands = [
            f"/{command.qualified_name}"
            for command in bot.tree.walk_commands()
            if isinstance(command, app_commands.Command)
        ]
    listed = first_cells("Commands")
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(commands)


def settings_in_env_example() -> set[str]:
    text = (ROOT / ".env.example").read_text("utf-8")
    names = re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text.split(TEST_ONLY)[0], re.MULTILINE)
    return set(names)


def test_the_table_of_settings_is_every_setting_the_bot_reads() -> None:
    listed = first_cells("Settings")
    assert len(listed) == len(set(listed))
    assert set(listed) == settings_in_env_example() | {"RUMMY_ENV_FILE"}
    code = (ROOT / "bot" / "infrastructure" / "settings.py").read_text("utf-8")
    assert [name for name in listed if f'"{name}"' not in code] == []


def test_the_quick_start_commands_are_make_targets() -> None:
    block = "\n".join(section("Quick start"))
    assert "\nmake run    # " in block
    assert "\nmake test   # " in block
    targets = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert re.search(r"^  run +start the bot", targets, re.MULTILINE)
    assert re.search(r"^  test +every check CI runs", targets, re.MULTILINE)
