"""A house option is one entry of ``cogs.ui.house_options.HOUSE_OPTIONS`` plus its catalog
lines: adding an entry (here the engine's ``negative_scoring``, which Classic has and the
commands do not offer) gives a command built like ``/rummy new`` the parameter, its
description naming the variants that have it, its check and refusal, and its rule sentence,
with nothing else edited."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.i18n import available_locales, catalog
from bot.rummy import preset
from cogs.rummy_command import RummyCommand
from cogs.ui import house_options, rule_words
from cogs.ui.house_options import HOUSE_OPTIONS, HouseOption
from cogs.ui.options import NotThisVariant, check_variant_options

ADDED = HouseOption("negative_scoring", bool, "everyone scores their own hand as penalty points")
TABLE = (*HOUSE_OPTIONS, ADDED)


class Tables(commands.Cog):
    """A command declared as ``/rummy new`` is, from a table with one entry more."""

    rummy = app_commands.Group(name="rummy", description="Play Rummy in this channel")

    @rummy.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        variant="Which Rummy",
        **house_options.descriptions(TABLE),
        timer="Minutes a turn may take before it is played for the player (0: no timer)",
    )
    @app_commands.choices(**house_options.choices(TABLE))
    @house_options.house_parameters(before="timer", table=TABLE)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        variant: str | None = None,
        timer: app_commands.Range[int, 0, 60] | None = None,
        **house: Any,
    ) -> None:
        """Not called: the test reads what the command declares."""


CATALOG_LINES = {
    "cmd.rummy.new.opt.negative_scoring.name": "negative_scoring",
    "cmd.rummy.new.opt.negative_scoring.desc": f"Classic: {ADDED.text}",
    "cmd.rummy.settings.opt.negative_scoring.name": "negative_scoring",
    "cmd.rummy.settings.opt.negative_scoring.desc": f"Classic: {ADDED.text}",
}
"""The added option's catalog lines (English), the other half of adding it."""


@pytest.fixture
def catalog_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, text in CATALOG_LINES.items():
        monkeypatch.setitem(catalog("en"), key, text)


def _options(command: app_commands.Command[Any, ..., Any]) -> list[dict[str, Any]]:
    """What the command declares of each option, as its payload carries it."""
    return [
        {
            "name": p.name,
            "type": p.type.value,
            "required": p.required,
            "description": p.description,
            "choices": [(c.name, c.value) for c in p.choices],
            "range": (p.min_value, p.max_value),
        }
        for p in command.parameters
    ]


def test_one_entry_is_a_parameter_of_the_command_with_its_generated_description() -> None:
    built = _options(Tables().new)
    names = [option["name"] for option in built]
    assert names == ["variant", *(entry.name for entry in HOUSE_OPTIONS), ADDED.name, "timer"]
    added = built[names.index(ADDED.name)]
    assert added["type"] == discord.AppCommandOptionType.boolean.value
    assert added["required"] is False
    assert added["description"] == f"Classic: {ADDED.text}"
    # Every other house option, and the timer after them, as the real command declares it.
    real = {option["name"]: option for option in _options(RummyCommand.new)}
    assert [o for o in built[1:] if o["name"] != ADDED.name] == [
        real[entry.name] for entry in HOUSE_OPTIONS
    ] + [real["timer"]]


@pytest.mark.usefixtures("catalog_lines")
def test_one_entry_is_checked_against_the_variant_and_refused_in_the_variants_words() -> None:
    given = house_options.given({ADDED.name: True, "target": None})
    assert given == {ADDED.name: True}
    check_variant_options("classic", given, "en", TABLE)
    assert preset("classic", **given).scoring.value == "negative"
    with pytest.raises(NotThisVariant) as refused:
        check_variant_options("parlett", given, "en", TABLE)
    assert refused.value.params["variants"] == "Classic Rummy"
    with pytest.raises(NotThisVariant):  # without the entry the option is no house option
        check_variant_options("classic", given, "en")


def test_a_flag_entry_brings_its_rule_sentence() -> None:
    limited = preset("classic", limit_layoffs=True)
    said = rule_words.changed_rules(limited, "en")
    assert catalog("en")["rules.diff.limit_layoffs"] in said
    without = tuple(entry for entry in HOUSE_OPTIONS if entry.name != "limit_layoffs")
    assert catalog("en")["rules.diff.limit_layoffs"] not in rule_words.changed_rules(
        limited, "en", without
    )


def test_every_entry_has_its_catalog_lines_in_every_language() -> None:
    missing = [
        f"{locale}: {key}"
        for locale in sorted(available_locales())
        for entry in HOUSE_OPTIONS
        for key in entry.catalog_keys()
        if key not in catalog(locale)
    ]
    assert missing == []
    assert set(ADDED.catalog_keys()) == set(CATALOG_LINES)
