"""Only the registry names a variant: no other module of the bot, the cogs or the renderer
holds a string constant that is a variant's name or alias ("500", "parlett", "rummy500", ...).

Code that branches on a variant's name (``ruleset.name == "parlett"``) or keeps a table per
name makes adding a variant a hunt through the project; it asks the variant instead. Names
in documentation (docstrings, doctests) are prose, and the catalogs are data, so neither is
scanned.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from pathlib import Path

from bot.rummy.variants import ALIASES, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot", "cogs", "rendering")
REGISTRY = ROOT / "bot" / "rummy" / "variants.py"

COMMAND_CALLS = frozenset({"Group", "command", "group"})
"""Calls whose ``name=`` is a slash command's name: ``/rummy`` is the game's command, not the
classic variant that "rummy" also names."""


def _documentation(tree: ast.AST) -> set[int]:
    """String statements: docstrings of modules, classes, functions and attributes."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _command_names(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in COMMAND_CALLS:
                found.update(id(k.value) for k in node.keywords if k.arg == "name")
        elif isinstance(node, ast.ClassDef):
            found.update(id(k.value) for k in node.keywords if k.arg == "group_name")
    return found


def variant_literals(source: str, names: Collection[str]) -> Iterator[tuple[int, str]]:
    """(line, text) of each string constant in ``source`` that would be read as one of
    ``names`` (lower case; compared as the presets compare what people type)."""
    tree = ast.parse(source)
    allowed = _documentation(tree) | _command_names(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in allowed
            and node.value.strip().lower() in names
        ):
            yield node.lineno, node.value


def test_no_module_but_the_registry_names_a_variant() -> None:
    names = frozenset(ALIASES)
    assert {"classic", "parlett", "500", "rummy500"} <= names
    found = [
        f"{path.relative_to(ROOT)}:{line} {text!r}"
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != REGISTRY
        for line, text in sorted(variant_literals(path.read_text("utf-8"), names))
    ]
    assert found == [], "ask the variant (bot/rummy/variants.py) instead:\n" + "\n".join(found)


def test_the_scan_finds_names_in_code_and_leaves_prose_and_commands_alone() -> None:
    source = '''
"""Parlett's rules, with a doctest: >>> preset("parlett")"""
group = app_commands.Group(name="rummy", description="Play Rummy")

def cut(ruleset):
    """Only in "500"."""
    table = {"Parlett": 4}
    return ruleset.name == " 500 " or table
'''
    assert list(variant_literals(source, {"parlett", "500", "rummy"})) == [
        (7, "Parlett"),
        (8, " 500 "),
    ]


def variant_mentions(source: str, names: Collection[str]) -> Iterator[tuple[int, str]]:
    """(line, text) of each string constant in ``source`` outside its documentation that has
    one of ``names`` inside it (``"Play with jokers (Parlett, Rummy 500)"``)."""
    tree = ast.parse(source)
    prose = _documentation(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in prose
            and any(name in node.value for name in names)
        ):
            yield node.lineno, node.value


def test_the_commands_descriptions_name_variants_only_from_the_registry() -> None:
    """An option's description that says which variants have it is written from the
    registry (``cogs.ui.house_options.for_variants``), so a new variant is named there too."""
    names = {n for v in VARIANTS.values() for n in (v.short_name, v.title, v.picture_title)}
    assert {"Classic", "Parlett", "Rummy 500"} <= names
    found = [
        f"{path.relative_to(ROOT)}:{line} {text!r}"
        for path in sorted((ROOT / "cogs").rglob("*.py"))
        for line, text in sorted(variant_mentions(path.read_text("utf-8"), names))
    ]
    assert found == []
    source = (
        'x = describe(jokers="Play with jokers (Parlett, Rummy 500)")\n"""Parlett, in prose."""\n'
    )
    assert list(variant_mentions(source, names)) == [(1, "Play with jokers (Parlett, Rummy 500)")]
