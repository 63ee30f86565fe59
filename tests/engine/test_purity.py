"""The engine is pure: importing it pulls in neither Discord nor Pillow nor any I/O layer."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_engine_imports_no_discord_pillow_or_storage() -> None:
    code = (
        "import sys, bot.rummy, bot.rummy.players, bot.rummy.serialize;"
        "bad = sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('discord', 'PIL', 'aiosqlite', 'aiohttp', 'sqlite3')"
        " or m.startswith(('bot.storage', 'bot.sessions', 'rendering', 'cogs')));"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_engine_modules_use_no_global_random() -> None:
    """Shuffles come from a seeded ``random.Random``; the global generator would make games
    irreproducible."""
    import ast
    from pathlib import Path

    import bot.rummy

    for path in Path(bot.rummy.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                raise AssertionError(f"{path.name}:{node.lineno} uses random.{node.attr}")
