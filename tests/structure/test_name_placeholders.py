"""Every name a message text carries is escaped where the text is made.

A catalog text's name placeholder (``{name}``, ``{player}``, ``{seat}``, ...) is filled, at
each call of ``t(...)`` in the cogs, by a value that is visibly text: the escaping helper
(``as_text``, or ``name_of`` that uses it), a join of such values, or a local variable
assigned only such values. A name passed in raw would let a member's chosen name format the
message (a masked link, a heading) or look like a mention. The few places where a name is
plain text on purpose (a thread's name, a menu label, a name kept raw until it is shown) or
arrives already escaped are listed below with their reason, so a new call site is checked
by default.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NAME_PLACEHOLDERS = frozenset(
    {"player", "players", "name", "names", "seat", "host", "winner", "winners"}
)
ESCAPERS = frozenset({"as_text", "name_of"})

TRUSTED: dict[tuple[str, str, str], str] = {
    ("cogs/display/seat_changes.py", "marked_names", "seat.display_name"): (
        "the names map holds raw names, escaped by name_of wherever one is shown"
    ),
    ("cogs/ui/present.py", "move_text", "actor"): "its callers pass the mover's name escaped",
    ("cogs/ui/present.py", "lobby_text", "seated"): "seat_names escapes each name of the list",
    (
        "cogs/ui/present.py",
        "thread_lobby_text",
        "', '.join(players)",
    ): "seat_names escapes each name",
    ("cogs/ui/present.py", "_table_lines", "who"): (
        "a mention the bot makes of a user id, else the name through name_of"
    ),
    ("cogs/ui/threads.py", "thread_name", "host"): "a thread's name is plain text",
    ("cogs/flows/replay.py", "choice_label", "players"): "an autocomplete label is plain text",
    (
        "cogs/ui/help.py",
        "deal_line",
        "number(low, loc) if low == high else f'{number(low, loc)}–{number(high, loc)}'",
    ): "a count of players, no name",
}
"""(file, function, the value as written): values not escaped at the call, on purpose."""


def _calls(tree: ast.AST) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.Call]]:
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and _named(node.func) == "t":
                    yield function, node


def _named(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _assigned(function: ast.AST, name: str) -> list[ast.expr] | None:
    """The values assigned to the local ``name``; None when it is a parameter or a loop's
    variable (bound by something other than an assignment)."""
    values: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            if any(isinstance(x, ast.Name) and x.id == name for x in node.targets):
                values.append(node.value)
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
            and node.target.id == name
        ):
            values.append(node.value)
    return values or None


def _escaped(value: ast.expr, function: ast.AST, depth: int = 0) -> bool:
    if depth > 5:
        return False
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Call):
        called = _named(value.func)
        if called in ESCAPERS:
            return True
        if called == "join" and len(value.args) == 1:
            inner = value.args[0]
            if isinstance(inner, ast.GeneratorExp | ast.ListComp):
                return _escaped(inner.elt, function, depth + 1)
            return _escaped(inner, function, depth + 1)
        return False
    if isinstance(value, ast.BoolOp | ast.IfExp):
        parts = value.values if isinstance(value, ast.BoolOp) else [value.body, value.orelse]
        return all(_escaped(x, function, depth + 1) for x in parts)
    if isinstance(value, ast.Name):
        found = _assigned(function, value.id)
        return found is not None and all(_escaped(x, function, depth + 1) for x in found)
    return False


def _unescaped() -> list[str]:
    out = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function, call in _calls(tree):
            for keyword in call.keywords:
                if keyword.arg not in NAME_PLACEHOLDERS or _escaped(keyword.value, function):
                    continue
                value = keyword.value
                if (relative, function.name, ast.unparse(value)) in TRUSTED:
                    continue
                out.append(f"{relative}:{call.lineno} {keyword.arg}={ast.unparse(value)}")
    return out


def test_every_name_placeholder_is_filled_with_escaped_text() -> None:
    assert _unescaped() == []


def test_the_check_sees_a_raw_name() -> None:
    tree = ast.parse("def f(seat, loc):\n    return t('seat.left', loc, name=seat.display_name)")
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and _named(n.func) == "t")
    assert not _escaped(call.keywords[0].value, function)
    escaped = ast.parse("as_text(seat.display_name)", mode="eval").body
    assert _escaped(escaped, function)


def test_every_trusted_place_still_exists() -> None:
    """A trusted place that is gone (renamed, moved) is dropped from the list, not kept."""
    seen = set()
    for relative, function_name, variable in TRUSTED:
        tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
        for function, call in _calls(tree):
            if function.name == function_name and any(
                ast.unparse(k.value) == variable for k in call.keywords
            ):
                seen.add((relative, function_name, variable))
    assert seen == set(TRUSTED)
