"""Folders are floors: the import graph read by folder has no cycle, so a module's folder
tells which modules it may import.

The graph is the module graph of :mod:`tests.structure.test_imports` (every import statement,
those inside functions and under ``TYPE_CHECKING`` included) with each module replaced by the
folder that holds it; a package's ``__init__`` belongs to its own folder. Two folders that
import each other, however indirectly, are one floor split in two and fail here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path

from bot.__main__ import EXTENSIONS
from tests.structure.test_imports import ROOT, Graph, find_cycle, module_files, project_graph


def folder_of(graph: Graph, module: str) -> str:
    return module if graph.is_package(module) else module.rpartition(".")[0]


def folder_edges(graph: Graph) -> dict[str, set[str]]:
    """Folder to the other folders its modules import."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph.edges().items():
        here = folder_of(graph, module)
        edges.setdefault(here, set()).update(
            folder for folder in (folder_of(graph, t) for t in targets) if folder != here
        )
    return edges


def importers(graph: Graph, source: str, target: str) -> list[str]:
    """Which modules of folder ``source`` import folder ``target``: named in a failure."""
    return sorted(
        f"{module} -> {t}"
        for module, targets in graph.edges().items()
        if folder_of(graph, module) == source
        for t in targets
        if folder_of(graph, t) == target
    )


def test_the_folder_graph_has_no_cycle() -> None:
    graph = project_graph()
    edges = folder_edges(graph)
    cycle = find_cycle(edges) or []
    how = [line for a, b in pairwise(cycle) for line in importers(graph, a, b)]
    assert cycle == [], "folder cycle: " + " -> ".join(cycle) + "\n" + "\n".join(how)


def test_the_application_imports_neither_adapters_nor_pictures() -> None:
    edges = folder_edges(project_graph())
    wrong = {
        f"{folder} -> {target}"
        for folder, targets in edges.items()
        for target in targets
        if (folder.split(".")[0] == "bot" and target.split(".")[0] in {"cogs", "rendering", "web"})
        or (folder.split(".")[0] == "rendering" and target.split(".")[0] in {"cogs", "web"})
    }
    assert wrong == set()


def test_the_web_table_stands_beside_the_discord_display() -> None:
    """``web/`` serves pages above the sessions as the cogs serve Discord: it uses the
    application and the Discord layer's words (``cogs.ui``), never the extensions, the
    display or the flows; the extensions start it, the flows ask it for links."""
    edges = folder_edges(Graph(module_files()))
    used = {target for folder, targets in edges.items() if folder == "web" for target in targets}
    assert {t for t in used if t.split(".")[0] == "cogs"} <= {"cogs.ui"}
    assert "rendering" not in used
    users = {folder for folder, targets in edges.items() if "web" in targets}
    assert users <= {"cogs", "cogs.flows"}


def test_the_root_of_bot_is_the_top_floor() -> None:
    """``bot/``'s own modules are the launcher and the Bot, which wire every floor below;
    values, infrastructure and services live in folders of their own."""
    root = sorted(p.stem for p in (ROOT / "bot").glob("*.py"))
    assert root == ["__init__", "__main__", "app"]


def _defines_setup(path: Path) -> bool:
    return any(
        isinstance(node, ast.AsyncFunctionDef) and node.name == "setup"
        for node in ast.parse(path.read_text("utf-8")).body
    )


def test_the_root_of_cogs_holds_the_extensions_and_nothing_else() -> None:
    """A reader tells an extension by its place: every module at ``cogs/``'s root is one the
    launcher loads, and what they share is in sub-packages."""
    root = {f"cogs.{p.stem}": p for p in (ROOT / "cogs").glob("*.py") if p.stem != "__init__"}
    assert sorted(root) == sorted(EXTENSIONS)
    assert [name for name, path in sorted(root.items()) if not _defines_setup(path)] == []
    nested = [p for p in (ROOT / "cogs").rglob("*.py") if p.parent != ROOT / "cogs"]
    assert [str(p.relative_to(ROOT)) for p in nested if _defines_setup(p)] == []


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_folder_reader_finds_a_cycle_no_module_closes(tmp_path: Path) -> None:
    """The reader itself: ``bot/a`` and ``bot/b`` import each other through different
    modules (so the module graph has no cycle), once under ``TYPE_CHECKING``; the folder
    graph has one, and loses it when one import goes."""
    _write(
        tmp_path,
        {
            "bot/__init__.py": "",
            "bot/a/__init__.py": "",
            "bot/a/low.py": "X = 1\n",
            "bot/a/high.py": "from bot.b.mid import Y\n",
            "bot/b/__init__.py": "",
            "bot/b/mid.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from bot.a.low import X\nY = 2\n"
            ),
            "cogs/__init__.py": "",
            "rendering/__init__.py": "",
        },
    )
    graph = Graph(module_files(tmp_path))
    assert find_cycle(graph.edges()) is None
    assert find_cycle(folder_edges(graph)) == ["bot.a", "bot.b", "bot.a"]
    _write(tmp_path, {"bot/b/mid.py": "Y = 2\n"})
    assert find_cycle(folder_edges(Graph(module_files(tmp_path)))) is None


def test_the_layout_page_gives_every_package_its_line() -> None:
    """docs/layout.md draws the floors with one line per package: a new folder needs one."""
    page = (ROOT / "docs" / "layout.md").read_text("utf-8")
    packages = sorted(
        f"{path.parent.relative_to(ROOT)}/"
        for path in ROOT.glob("*/**/__init__.py")
        if path.parts[len(ROOT.parts)] in {"bot", "cogs", "rendering", "web"}
        and path.parent.parent != ROOT
    )
    assert "bot/rummy/" in packages
    assert [p for p in packages if f"| `{p}` |" not in page] == []
