"""Only bot/storage speaks to the database driver.

No other module of the application, its scripts or its benchmarks imports ``sqlite3`` or
``aiosqlite`` — not even inside a function — so another back end (PostgreSQL) replaces
SQLite by replacing bot/storage alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("bot", "cogs", "rendering", "scripts", "benchmarks")
STORAGE = Path("bot", "storage")
DRIVERS = frozenset({"sqlite3", "aiosqlite"})


def driver_imports(source: str) -> list[tuple[int, str]]:
    """Each import of a driver module in ``source`` with its line, wherever it stands."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [(node.lineno, name) for name in names if name.split(".")[0] in DRIVERS]
    return found


def offenders(root: Path) -> list[str]:
    """Every driver import under ``root`` outside its bot/storage."""
    return [
        f"{path.relative_to(root)}:{line} imports {name}"
        for folder in FOLDERS
        for path in sorted((root / folder).rglob("*.py"))
        if not path.relative_to(root).is_relative_to(STORAGE)
        for line, name in driver_imports(path.read_text(encoding="utf-8"))
    ]


def test_no_module_outside_storage_imports_the_driver() -> None:
    assert offenders(ROOT) == []


def test_the_check_finds_every_form_of_import_and_spares_storage(tmp_path: Path) -> None:
    modules = {
        "cogs/admin.py": "def dump() -> None:\n    import aiosqlite.core\n",
        "scripts/tool.py": "from sqlite3 import connect\n",
        "benchmarks/bench.py": "import json, sqlite3 as db\n",
        "rendering/fine.py": "import json\nfrom . import sqlite3\n",
        "bot/storage/database.py": "import sqlite3\nimport aiosqlite\n",
    }
    for name, source in modules.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    assert offenders(tmp_path) == [
        "cogs/admin.py:2 imports aiosqlite.core",
        "scripts/tool.py:1 imports sqlite3",
        "benchmarks/bench.py:1 imports sqlite3",
    ]
