"""The import graph of the application is a tree: no cycle, and the layers import downwards.

The graph is read from the source with ``ast``, so imports inside functions and under
``TYPE_CHECKING`` count as much as those at the top: a cycle held together by a late import
is still a cycle. ``from pkg import name`` counts as importing ``pkg.name`` when that is a
module, and as importing the module that defines ``name`` when ``pkg`` only re-exports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs", "rendering", "web")


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name to its file, for every module of ``PACKAGES``."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


class Graph:
    def __init__(self, files: Mapping[str, Path]) -> None:
        self.files = files
        self.trees = {name: ast.parse(path.read_text("utf-8")) for name, path in files.items()}

    def is_package(self, module: str) -> bool:
        return self.files[module].name == "__init__.py"

    def imported(self, module: str) -> Iterator[tuple[str, str]]:
        """(what the code names, the module that name resolves to) for every import of
        ``module``, wherever it stands in the file."""
        for node in ast.walk(self.trees[module]):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self._known_prefix(alias.name)
                    if target is not None:
                        yield alias.name, target
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(module, node)
                for alias in node.names:
                    target = self.resolve(base, alias.name)
                    if target is not None:
                        yield f"{base}.{alias.name}", target

    def _absolute(self, module: str, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = module if self.is_package(module) else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{node.module}" if node.module else package

    def _known_prefix(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in self.files:
                return candidate
        return None

    def resolve(self, base: str, name: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The module ``from base import name`` depends on: the submodule ``base.name``, or
        the module that defines ``name`` when ``base`` is a package that re-exports it."""
        if f"{base}.{name}" in self.files:
            return f"{base}.{name}"
        if base not in self.files:
            return self._known_prefix(base)
        if not self.is_package(base) or base in seen:
            return base
        for node in self.trees[base].body:
            if isinstance(node, ast.ImportFrom) and any(
                (alias.asname or alias.name) == name for alias in node.names
            ):
                source = self._absolute(base, node)
                original = next(a.name for a in node.names if (a.asname or a.name) == name)
                found = self.resolve(source, original, seen | {base})
                if found is not None:
                    return found
        return base

    def edges(self) -> dict[str, set[str]]:
        return {
            module: {target for _, target in self.imported(module) if target != module}
            for module in self.files
        }


@cache
def project_graph() -> Graph:
    """The application's own graph, read once for every test that looks at it (they only
    read it)."""
    return Graph(module_files())


def find_cycle(edges: Mapping[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a closed path (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found is not None:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found is not None:
                return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    cycle = find_cycle(project_graph().edges())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_application_never_imports_the_discord_adapters() -> None:
    graph = project_graph()
    wrong = [
        f"{module} imports {named}"
        for module in graph.files
        if module.split(".")[0] == "bot"
        for named, target in graph.imported(module)
        if target.split(".")[0] == "cogs"
    ]
    assert wrong == []


def test_the_graph_reader_sees_late_imports_and_re_exports(tmp_path: Path) -> None:
    """The reader itself: a cycle closed by an import inside a function, through a
    package that re-exports a name, is found and named."""
    (tmp_path / "bot" / "pkg").mkdir(parents=True)
    (tmp_path / "cogs").mkdir()
    (tmp_path / "rendering").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "pkg" / "__init__.py").write_text("from bot.pkg.inner import Thing\n")
    (tmp_path / "bot" / "pkg" / "inner.py").write_text("import bot.outer\nclass Thing: ...\n")
    (tmp_path / "bot" / "outer.py").write_text("def late():\n    from bot.pkg import Thing\n")
    graph = Graph(module_files(tmp_path))
    assert graph.resolve("bot.pkg", "Thing") == "bot.pkg.inner"
    assert find_cycle(graph.edges()) == ["bot.outer", "bot.pkg.inner", "bot.outer"]
    (tmp_path / "bot" / "outer.py").write_text("def late():\n    return 1\n")
    assert find_cycle(Graph(module_files(tmp_path)).edges()) is None
