"""The house options a table may change, each declared once: :data:`HOUSE_OPTIONS`.

An entry is an option's name (as ``/rummy new`` and ``/rummy settings`` take it, and as the
variants list it in ``Variant.options``), its type (bounds included), its English description
without variant names, its choices, and for a yes/no option no variant starts with the catalog
key of the sentence the rules say when it is on. From the table come both commands'
parameters (:func:`house_parameters`), their descriptions and choices, the check that the
chosen variant has each option given (:func:`offered_by`), and the rule sentences
(:mod:`cogs.ui.rule_words`). The variants that have an option are read from the registry, and
so are the names that descriptions give them (:func:`for_variants`).

Adding an option is then one entry here, its setter in the engine (``bot.rummy.rules``) and
its catalog lines: ``cmd.rummy.new.opt.<name>.name`` / ``.desc``, the same under
``cmd.rummy.settings``, and ``rules.diff.<…>`` for its sentence.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Concatenate, Optional, TypeVar

import discord
from discord import app_commands

from bot.rummy import variants

_Cog = TypeVar("_Cog")
Callback = Callable[Concatenate[_Cog, discord.Interaction[Any], ...], Coroutine[Any, Any, None]]
"""A command's callback in a cog: the cog, the interaction, then its options."""


def for_variants(text: str, having: Sequence[variants.Variant]) -> str:
    """``text`` with the variants that have what it describes, by their short names: alone
    when every variant has it, ``Parlett: …`` for one, ``… (Classic, Rummy 500)`` for more."""
    if not having or len(having) == len(variants.VARIANTS):
        return text
    names = [variant.short_name for variant in having]
    if len(names) == 1:
        return f"{names[0]}: {text}"
    return f"{text} ({', '.join(names)})"


@dataclass(frozen=True)
class HouseOption:
    name: str
    """The option's name in both commands and in ``Variant.options``."""
    kind: Any
    """Its type as a command parameter (``bool``, ``app_commands.Range[int, 1, 100000]``,
    ``app_commands.Choice[str]``); the commands take it as optional."""
    text: str
    """Its English description, without the variants that have it (they are added)."""
    choices: tuple[app_commands.Choice[str], ...] = ()
    accepted: Callable[[variants.Variant], Collection[str]] | None = None
    """For a choice: the values a variant accepts; an option whose variants accept one value
    only is no choice there."""
    sentence: str = ""
    """For a yes/no option no variant starts with: the catalog key of the rule sentence said
    when a game has it on."""
    field: str = ""
    """The ``Ruleset`` field the sentence reads (by default the option's name)."""

    @property
    def ruleset_field(self) -> str:
        return self.field or self.name

    def has(self, variant: variants.Variant, value: object = None) -> bool:
        """Whether ``variant`` has this option (with ``value``, for a choice)."""
        if self.name not in variant.options:
            return False
        if self.accepted is None:
            return True
        values = self.accepted(variant)
        return str(value) in values if value is not None else len(values) > 1

    def variants(self, value: object = None) -> list[variants.Variant]:
        return [v for v in variants.VARIANTS.values() if self.has(v, value)]

    @property
    def description(self) -> str:
        return for_variants(self.text, self.variants())

    def catalog_keys(self) -> list[str]:
        """The catalog lines the option needs: its name and description in both commands,
        and its rule sentence."""
        keys = [
            f"cmd.rummy.{command}.opt.{self.name}.{part}"
            for command in COMMANDS
            for part in ("name", "desc")
        ]
        return keys + ([self.sentence] if self.sentence else [])


COMMANDS = ("new", "settings")
"""The ``/rummy`` subcommands that take the house options."""

SCORINGS = (
    app_commands.Choice(name="positive", value="positive"),
    app_commands.Choice(name="negative", value="negative"),
)

HOUSE_OPTIONS: tuple[HouseOption, ...] = (
    HouseOption("target", app_commands.Range[int, 1, 100000], "Score that ends the game"),
    HouseOption("jokers", bool, "Play with jokers"),
    HouseOption(
        "two_decks",
        bool,
        "two decks for four or five players",
        sentence="rules.diff.two_decks",
        field="two_decks_for_four_five",
    ),
    HouseOption("ace_high", bool, "aces high or low"),
    HouseOption("ace_always_low", bool, "aces always low"),
    HouseOption(
        "scoring",
        app_commands.Choice[str],
        "winner scores the others' hands (positive) or all score their own",
        choices=SCORINGS,
        accepted=lambda variant: {scoring.value for scoring in variant.scorings},
    ),
    HouseOption(
        "simple_scoring",
        bool,
        "Cards 2 to 9 and low aces count 5",
        sentence="rules.diff.simple_scoring",
    ),
    HouseOption(
        "limit_layoffs",
        bool,
        "Lay off one card per turn, after melding",
        sentence="rules.diff.limit_layoffs",
    ),
    HouseOption(
        "must_discard_to_go_out",
        bool,
        "Going out needs a final discard",
        sentence="rules.diff.must_discard",
    ),
    HouseOption(
        "ten_for_three",
        bool,
        "ten cards each with three players",
        sentence="rules.diff.ten_for_three",
    ),
)
"""The house rules a table may change, in the order both commands list them."""


def offered_by(
    variant: variants.Variant,
    option: str,
    value: object,
    table: Sequence[HouseOption] = HOUSE_OPTIONS,
) -> bool:
    """Whether ``variant`` has the house option ``option`` with this value."""
    entry = next((entry for entry in table if entry.name == option), None)
    return entry is not None and entry.has(variant, value)


def descriptions(table: Sequence[HouseOption] = HOUSE_OPTIONS) -> dict[str, str]:
    """Each option's description, for ``app_commands.describe``."""
    return {entry.name: entry.description for entry in table}


def choices(table: Sequence[HouseOption] = HOUSE_OPTIONS) -> dict[str, list[Any]]:
    """The choices of the options that have some, for ``app_commands.choices``."""
    return {entry.name: list(entry.choices) for entry in table if entry.choices}


def sentences(table: Sequence[HouseOption] = HOUSE_OPTIONS) -> dict[str, str]:
    """Ruleset field -> the sentence said when a yes/no option is on, in the order the
    variants list their options."""
    order = list(dict.fromkeys(o for v in variants.VARIANTS.values() for o in v.options))
    flagged = sorted(
        (entry for entry in table if entry.sentence),
        key=lambda entry: order.index(entry.name) if entry.name in order else len(order),
    )
    return {entry.ruleset_field: entry.sentence for entry in flagged}


def house_parameters(
    before: str, table: Sequence[HouseOption] = HOUSE_OPTIONS
) -> Callable[[Callback[_Cog]], Callback[_Cog]]:
    """Give a command's callback the house options as optional parameters, in the table's
    order, before its parameter ``before``; the callback takes them as ``**house``.

    discord.py reads a command's parameters from its callback's signature, so the signature
    the command shows is written from the table; the callback's own stays as written."""

    def decorate(callback: Callback[_Cog]) -> Callback[_Cog]:
        signature = inspect.signature(callback)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        at = next(i for i, p in enumerate(own) if p.name == before)
        options = [
            inspect.Parameter(
                entry.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Optional[entry.kind],  # noqa: UP045 (a run-time type, not a hint)
            )
            for entry in table
        ]
        keyword = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own[at:]]
        callback.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own[:at], *options, *keyword]
        )
        return callback

    return decorate


def given(house: dict[str, Any]) -> dict[str, Any]:
    """The house rules given to a command, by option name (choices by their value)."""
    values = {
        name: value.value if isinstance(value, app_commands.Choice) else value
        for name, value in house.items()
    }
    return {name: value for name, value in values.items() if value is not None}
