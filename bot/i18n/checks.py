"""Consistency checks of the catalogs against each other, the source code and the command tree.

They live next to the catalogs (rather than in the tests) so that any test suite can call
them: each returns a list of problems, one readable line each, empty when all is well.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.i18n import (
    COMMAND_FIELDS,
    DEFAULT_LOCALE,
    available_locales,
    catalog,
    command_key,
    placeholders,
    plural_categories,
)
from bot.i18n.numbers import CATEGORIES

# Discord's rule for command and option names (localized ones included).
_NAME = re.compile(r"^[-_'\w]{1,32}$")
_TEXT_LIMIT = 100

_PROJECT_ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = (
    _PROJECT_ROOT / "bot",
    _PROJECT_ROOT / "cogs",
    _PROJECT_ROOT / "rendering",
    _PROJECT_ROOT / "web",
)
"""Where :func:`keys_in_source` looks by default: the application, its Discord adapters and
the pictures (whose English beside them is checked against ``en.json`` too)."""


def keys_in_source(roots: Iterable[Path] = SOURCE_ROOTS) -> dict[str, list[str]]:
    """Every constant catalog key the code uses -> where (``path:line``).

    Found: ``t("key", ...)``, ``tn("key", ...)`` (as ``key.one`` and ``key.other``), the same
    called as attributes (``i18n.t``), ``locale_str(..., key="key")``, and any other string
    constant shaped like a key of a namespace the English catalog has (``"lobby.joined"`` in
    a mapping of keys; ``"table.png"`` and other file names excepted).
    """
    found: dict[str, list[str]] = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"), filename=str(path))
            for key, line in _keys_in(tree):
                places = found.setdefault(key, [])
                if f"{path}:{line}" not in places:
                    places.append(f"{path}:{line}")
    return found


_KEY_SHAPE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
_NOT_KEYS = (
    "png",
    "webp",
    "jpg",
    "jpeg",
    "gif",
    "json",
    "txt",
    "py",
    "sql",
    "sqlite3",
    "css",
    "js",
)


def _looks_like_key(text: str, namespaces: frozenset[str]) -> bool:
    """A constant such as ``"lobby.joined"`` in a mapping of keys, by its shape and namespace."""
    return (
        bool(_KEY_SHAPE.fullmatch(text))
        and text.split(".", 1)[0] in namespaces
        and text.rsplit(".", 1)[1] not in _NOT_KEYS
    )


def _namespaces() -> frozenset[str]:
    return frozenset(key.split(".", 1)[0] for key in catalog(DEFAULT_LOCALE))


def _keys_in(tree: ast.AST) -> Iterator[tuple[str, int]]:
    namespaces = _namespaces()
    plural_stems = {  # tn("unit.cards", ...) names unit.cards.one/.other, not unit.cards
        id(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and node.args
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "tn"
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and id(node) not in plural_stems
            and isinstance(node.value, str)
            and _looks_like_key(node.value, namespaces)
        ):
            yield node.value, node.lineno
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0] if node.args else None
        constant = (
            first.value
            if isinstance(first, ast.Constant) and isinstance(first.value, str)
            else None
        )
        if name == "t" and constant is not None:
            yield constant, node.lineno
        elif name == "tn" and constant is not None:
            yield f"{constant}.one", node.lineno
            yield f"{constant}.other", node.lineno
        elif name == "locale_str":
            for keyword in node.keywords:
                value = keyword.value
                if (
                    keyword.arg == "key"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    yield value.value, node.lineno


def missing_keys(roots: Iterable[Path] = SOURCE_ROOTS) -> list[str]:
    """Keys used in the code that the English catalog lacks."""
    english = catalog(DEFAULT_LOCALE)
    return [
        f"{key} is used at {', '.join(places)} but missing from {DEFAULT_LOCALE}.json"
        for key, places in sorted(keys_in_source(roots).items())
        if key not in english and f"{key}.other" not in english
    ]


def template_problems(layers: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Refusal texts a layer keeps in English beside its errors (name -> key -> text) that
    a catalog lacks, or that ``en.json`` words differently: the layer's English is what logs
    show, the catalogs' what people read, and every language must have every refusal."""
    problems: list[str] = []
    for name, texts in sorted(layers.items()):
        for locale in sorted(available_locales()):
            texts_there = catalog(locale)
            problems += [
                f"{locale}.json lacks {key} ({name})"
                for key in sorted(texts)
                if key not in texts_there and f"{key}.other" not in texts_there
            ]
        english = catalog(DEFAULT_LOCALE)
        for key, text in sorted(texts.items()):
            # A plural refusal's English beside its error is the ``other`` form.
            said = english.get(key, english.get(f"{key}.other"))
            if said is not None and said != text:
                problems.append(f"{key}: {name} says {text!r}, {DEFAULT_LOCALE}.json {said!r}")
    return problems


def plural_stems(texts: Mapping[str, str]) -> dict[str, set[str]]:
    """The plural texts of a catalog: stem -> the categories it has (``unit.cards`` ->
    ``{"one", "other"}``), a stem being any key that has an ``other`` form."""
    stems: dict[str, set[str]] = {}
    for key in texts:
        stem, _, last = key.rpartition(".")
        if last in CATEGORIES and f"{stem}.other" in texts:
            stems.setdefault(stem, set()).add(last)
    return stems


def _plural_problems(locale: str, texts: Mapping[str, str], english_stems: set[str]) -> list[str]:
    """Each plural text of ``locale`` has exactly the CLDR categories its language needs."""
    needed = plural_categories(locale)
    stems = plural_stems(texts)
    problems: list[str] = []
    for stem in sorted(english_stems | stems.keys()):
        has = stems.get(stem, set())
        problems += [f"{locale}.json lacks {stem}.{c}" for c in sorted(needed - has)]
        problems += [f"{locale}.json has extra {stem}.{c}" for c in sorted(has - needed)]
    return problems


def catalog_problems() -> list[str]:
    """Differences between each catalog and the English one (keys, fields, and the plural
    categories each language needs), and texts Discord would refuse."""
    problems: list[str] = []
    english = catalog(DEFAULT_LOCALE)
    english_stems = set(plural_stems(english))
    for locale in sorted(available_locales()):
        texts = catalog(locale)
        problems += _plural_problems(locale, texts, english_stems)
        plain = {k for k in texts if k.rpartition(".")[0] not in english_stems}
        english_plain = {k for k in english if k.rpartition(".")[0] not in english_stems}
        if locale != DEFAULT_LOCALE:
            problems += [f"{locale}.json lacks {key}" for key in sorted(english_plain - plain)]
            problems += [f"{locale}.json has extra {key}" for key in sorted(plain - english_plain)]
        for key, text in sorted(texts.items()):
            stem = key.rpartition(".")[0]
            model = english.get(f"{stem}.other") if stem in english_stems else english.get(key)
            problems += _text_problems(locale, key, text, model)
    return problems


def _text_problems(locale: str, key: str, text: str, english: str | None) -> list[str]:
    where = f"{locale}.json {key}"
    if not text.strip():
        return [f"{where} is empty"]
    try:
        fields = placeholders(text)
    except ValueError as problem:
        return [f"{where} is not a valid format string: {problem}"]
    problems: list[str] = []
    if english is not None:
        # The command fields are the reader's names, filled in by t(); English may write them.
        fields -= COMMAND_FIELDS
        expected = placeholders(english) - COMMAND_FIELDS
        if fields != expected:
            problems.append(
                f"{where} uses {{{', '.join(sorted(fields))}}}, "
                f"English uses {{{', '.join(sorted(expected))}}}"
            )
    if key.startswith("cmd.") and key.endswith(".name") and not _is_command_name(text):
        problems.append(f"{where} {text!r} is not a valid Discord command or option name")
    if (key.startswith(("cmd.", "choice.", "ctxmenu."))) and len(text) > _TEXT_LIMIT:
        problems.append(f"{where} is longer than {_TEXT_LIMIT} characters")
    return problems


def _is_command_name(text: str) -> bool:
    return bool(_NAME.fullmatch(text)) and text == text.lower()


class _Recorder(app_commands.Translator):
    """Collects every string a sync would translate, with its context, for one locale."""

    def __init__(self) -> None:
        self.seen: list[tuple[app_commands.locale_str, app_commands.TranslationContextTypes]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french:
            self.seen.append((string, context))
        return None


async def command_texts(
    tree: app_commands.CommandTree[Any],
    guild: discord.abc.Snowflake | None = None,
) -> dict[str, str]:
    """Catalog key -> English text of every command string a sync of ``tree`` sends."""
    recorder = _Recorder()
    for command in tree.get_commands(guild=guild):
        await command.get_translated_payload(tree, recorder)
    texts: dict[str, str] = {}
    for string, context in recorder.seen:
        explicit = string.extras.get("key")
        key = explicit if isinstance(explicit, str) else command_key(context)
        if key is not None:
            texts[key] = string.message
    return texts


async def command_problems(
    tree: app_commands.CommandTree[Any],
    guild: discord.abc.Snowflake | None = None,
) -> list[str]:
    """Command strings whose key the English catalog lacks or holds with another text."""
    english = catalog(DEFAULT_LOCALE)
    problems: list[str] = []
    for key, text in sorted((await command_texts(tree, guild)).items()):
        if key not in english:
            problems.append(f"{key} ({text!r}) is missing from {DEFAULT_LOCALE}.json")
        elif english[key] != text:
            problems.append(
                f"{key}: the code says {text!r}, {DEFAULT_LOCALE}.json {english[key]!r}"
            )
    return problems
