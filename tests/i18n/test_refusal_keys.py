"""Every refusal a person can meet is a message key that every catalog has.

(a) Read from the source: each refusal that ``bot/`` and ``cogs/`` build (``raise
IllegalAction("refusal.card.not_held", card=...)``, or one built now and raised later) names a
constant key that every catalog holds, with exactly the parameters its text names. (b) Every
``PlayerError`` class built with any key of its layer says that key's English text. (c) One
built with prose, or with parameters its text does not name, fails at once.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import bot
import cogs
from bot import sessions
from bot.i18n import DEFAULT_LOCALE, available_locales, catalog, placeholders
from bot.i18n.checks import SOURCE_ROOTS, template_problems
from bot.rummy import Card, IllegalAction, NotYourTurn, RulesError
from bot.rummy.errors import InvariantError, PlayerError
from bot.rummy.refusals import Face
from bot.sessions import LobbyError
from cogs.ui.replies import Refused, error_text

Classes = frozenset[type[PlayerError]]


def _import_everything() -> None:
    """Import every module of the application, so that every refusal class is defined."""
    for package in (bot, cogs):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith(".__main__"):
                importlib.import_module(info.name)


def refusal_classes() -> Classes:
    """``PlayerError`` and all its subclasses the application defines."""
    _import_everything()
    found: set[type[PlayerError]] = set()
    todo = [PlayerError]
    while todo:
        cls = todo.pop()
        if cls.__module__.split(".", 1)[0] in ("bot", "cogs"):
            found.add(cls)
        todo.extend(cls.__subclasses__())
    return frozenset(found)


CLASSES = refusal_classes()
BY_NAME = sorted(CLASSES, key=lambda cls: cls.__name__)


# --- (a) every place that builds a refusal ----------------------------------------------


def _module_name(path: Path) -> str:
    root = SOURCE_ROOTS[0].parent
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(tree: ast.AST, classes: Classes) -> dict[str, type[PlayerError]]:
    """The names refusal classes are imported as anywhere in a file (functions included)."""
    names: dict[str, type[PlayerError]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = importlib.import_module(node.module)
            for alias in node.names:
                cls = _among(getattr(module, alias.name, None), classes)
                if cls is not None:
                    names[alias.asname or alias.name] = cls
    return names


def _refusal_class(
    expr: ast.expr,
    namespace: Mapping[str, object],
    imported: Mapping[str, type[PlayerError]],
    classes: Classes,
) -> type[PlayerError] | None:
    """The refusal class ``expr`` names (``IllegalAction``, ``s.NoGameHere``), if it names one."""
    if isinstance(expr, ast.Name):
        value = imported.get(expr.id, namespace.get(expr.id))
    elif isinstance(expr, ast.Attribute):
        owner = _refusal_owner(expr.value, namespace)
        value = getattr(owner, expr.attr, None) if owner is not None else None
    else:
        return None
    return _among(value, classes)


def _among(value: object, classes: Classes) -> type[PlayerError] | None:
    if isinstance(value, type) and issubclass(value, PlayerError) and value in classes:
        return value
    return None


def _refusal_owner(expr: ast.expr, namespace: Mapping[str, object]) -> object | None:
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = _refusal_owner(expr.value, namespace)
        return getattr(owner, expr.attr, None) if owner is not None else None
    return None


def refusal_sites(
    source: str, namespace: Mapping[str, object], classes: Classes = CLASSES
) -> Iterator[tuple[int, type[PlayerError], ast.Call | None]]:
    """Every refusal built in ``source`` (line, class, the call), and every refusal class
    raised bare (``raise StaleAction``: no call, so no key)."""
    tree = ast.parse(source)
    imported = _imported_names(tree, classes)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            cls = _refusal_class(node.func, namespace, imported, classes)
            if cls is not None:
                yield node.lineno, cls, node
        elif isinstance(node, ast.Raise) and node.exc is not None:
            cls = _refusal_class(node.exc, namespace, imported, classes)
            if cls is not None:
                yield node.lineno, cls, None


def site_problems(cls: type[PlayerError], call: ast.Call | None) -> list[str]:
    """What is wrong with one refusal site: no constant key, a key some catalog or the
    class's layer lacks, parameters that are not the ones its text names."""
    if call is None:
        return [f"{cls.__name__} raised without a key"]
    first = call.args[0] if call.args else None
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
        return [f"{cls.__name__}(...) does not name a constant message key first"]
    key = first.value
    if len(call.args) > 1 or any(keyword.arg is None for keyword in call.keywords):
        return [f"{cls.__name__}({key!r}) passes parameters that cannot be read by name"]
    problems = [
        f"{cls.__name__}({key!r}): {locale}.json has no such key"
        for locale in sorted(available_locales())
        if key not in catalog(locale) and f"{key}.other" not in catalog(locale)
    ]
    template = cls.templates.get(key)
    if template is None:
        return [*problems, f"{cls.__name__}({key!r}): its layer has no English text for it"]
    given = {keyword.arg for keyword in call.keywords if keyword.arg is not None}
    named = placeholders(template)
    if not named <= given or not given - named <= cls.attributes:
        problems.append(
            f"{cls.__name__}({key!r}) gives {sorted(given)}, its text names {sorted(named)}"
        )
    return problems


def source_problems(path: Path, classes: Classes = CLASSES) -> tuple[int, list[str]]:
    """How many refusal sites a file has, and what is wrong with them."""
    namespace = vars(importlib.import_module(_module_name(path)))
    sites = list(refusal_sites(path.read_text("utf-8"), namespace, classes))
    problems = [
        f"{path.relative_to(SOURCE_ROOTS[0].parent)}:{line}: {problem}"
        for line, cls, call in sites
        for problem in site_problems(cls, call)
    ]
    return len(sites), problems


def _all_sources() -> list[Path]:
    return sorted(path for root in SOURCE_ROOTS for path in root.rglob("*.py"))


def test_every_refusal_in_the_code_names_a_key_every_catalog_has() -> None:
    counts: dict[str, int] = {}
    problems: list[str] = []
    for path in _all_sources():
        if path.name == "__main__.py":
            continue
        count, found = source_problems(path)
        problems += found
        if count:
            counts[_module_name(path)] = count
    assert problems == []
    # The scan sees every layer (the forms a class is named in are checked below).
    for layer in ("bot.rummy.", "bot.sessions.", "cogs."):
        assert any(module.startswith(layer) for module in counts), layer
    assert sum(counts.values()) >= 90  # 93 when this test was written


def _sites_of(source: str) -> list[str]:
    namespace = {"IllegalAction": IllegalAction, "s": sessions}
    return [
        problem
        for _line, cls, call in refusal_sites(source, namespace)
        for problem in site_problems(cls, call)
    ]


def test_the_scan_refuses_prose_unknown_keys_and_wrong_parameters() -> None:
    assert _sites_of('raise IllegalAction("refusal.card.not_held", card=c)') == []
    assert _sites_of('raise IllegalAction("You don\'t hold 2♣.")')
    assert _sites_of('raise IllegalAction(f"There is no meld #{n}.")')
    assert _sites_of('raise IllegalAction("refusal.card.not_held")')  # no card
    assert _sites_of('raise IllegalAction("refusal.game.over", card=c)')  # a card too many
    assert _sites_of('raise IllegalAction("refusal.game.over", **params)')
    assert _sites_of('raise s.StaleAction("refusal.nowhere")')
    assert _sites_of("raise s.StaleAction")
    assert _sites_of('from bot.rummy import IllegalAction as No\nraise No("prose")')


# --- (b) every class says its English text; (c) prose fails -------------------------------


def _sample(cls: type[PlayerError], template: str) -> dict[str, object]:
    """Parameters for ``template``, and the keyword-only ones ``cls`` requires."""
    params: dict[str, object] = {name: f"<{name}>" for name in placeholders(template)}
    for parameter in inspect.signature(cls).parameters.values():
        if parameter.kind is parameter.KEYWORD_ONLY and parameter.default is parameter.empty:
            params.setdefault(parameter.name, f"<{parameter.name}>")
    return params


def test_the_scan_finds_every_layer_s_classes() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"CardParseError", "NotYourTurn", "LobbyError", "SeatHeld", "Refused"} <= names


@pytest.mark.parametrize("cls", BY_NAME, ids=[cls.__name__ for cls in BY_NAME])
def test_every_refusal_class_built_with_a_key_says_its_english_text(
    cls: type[PlayerError],
) -> None:
    english = catalog(DEFAULT_LOCALE)
    for key, template in cls.templates.items():
        params = _sample(cls, template)
        error = cls(key, **params)
        assert error.key == key
        assert error.params.items() >= params.items()
        # a plural refusal's English beside its error is the catalog's ``other`` form
        assert str(error) == english.get(key, english.get(f"{key}.other", "")).format_map(params)


@pytest.mark.parametrize("cls", BY_NAME, ids=[cls.__name__ for cls in BY_NAME])
def test_a_refusal_without_a_known_key_fails_loudly(cls: type[PlayerError]) -> None:
    required = _sample(cls, "")
    with pytest.raises(InvariantError, match="no text for the key"):
        cls("You don't hold 2♣.", **required)
    key, template = next(
        (k, v) for k, v in cls.templates.items() if placeholders(v) - cls.attributes
    )
    params = _sample(cls, template)
    with pytest.raises(InvariantError, match="needs the parameters"):
        cls(key, **{name: value for name, value in params.items() if name in required})
    with pytest.raises(InvariantError, match="needs the parameters"):
        cls(key, **params, stray="x")


def test_each_layer_s_english_is_the_catalogs_english() -> None:
    layers = {cls.__qualname__: cls.templates for cls in CLASSES}
    assert template_problems(layers) == []
    assert template_problems({"probe": {"refusal.nowhere": "No."}}) == [
        f"{locale}.json lacks refusal.nowhere (probe)" for locale in sorted(available_locales())
    ]
    assert template_problems({"probe": {"refusal.game.over": "Over."}}) == [
        "refusal.game.over: probe says 'Over.', en.json 'The game is over.'"
    ]


# --- the person reads it in their language -------------------------------------------------


def test_a_refusal_is_said_in_the_person_s_language() -> None:
    refusal = IllegalAction("refusal.card.not_held", card=Face(Card.parse("2c#2")))
    assert str(refusal) == "You don't hold 2♣."
    assert error_text(refusal, "en") == "Not allowed: You don't hold 2♣."
    assert error_text(refusal, "fr") == "Refusé : Tu n'as pas 2♣ en main."


def test_a_refusal_inside_a_refusal_is_translated_too() -> None:
    rules = RulesError("refusal.rules.players", preset="classic", least=2, most=4, count=5)
    lobby = LobbyError("refusal.lobby.rules", reason=rules)
    assert str(lobby) == "classic needs 2 to 4 players, and this table has 5"
    assert error_text(lobby, "en") == (
        "Not allowed: Classic Rummy needs 2 to 4 players, and this table has 5"
    )
    assert error_text(lobby, "fr") == (
        "Refusé : Rami classique se joue de 2 à 4 joueurs, et cette table en a 5"
    )


def test_whose_turn_it_is_stays_a_name_and_the_command_layer_s_refusals_translate() -> None:
    turn = NotYourTurn("refusal.turn.not_yours", current="ann")
    assert error_text(turn, "fr", {"ann": "Ann"}) == "C'est le tour de Ann, pas le tien."
    assert error_text(Refused("hint.not_your_turn"), "fr") == (
        "Refusé : Les conseils sont pour ton tour : attends que ce soit à toi."
    )
