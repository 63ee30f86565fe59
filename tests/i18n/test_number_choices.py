"""An autocomplete choice of a number (a game in /rummy replay) is labelled in the asker's
language already: its value is no catalog key, so game #500 is never called "Rummy 500"."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import CatalogTranslator

FRENCH = {"choice.500": "Rami 500"}


def label_in_french(value: Any) -> str | None:
    translator = CatalogTranslator({"en": {}, "fr": FRENCH})
    choice = app_commands.Choice(name="#500 · classic · ann, bob · 2026-12-02", value=value)
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.choice_name, data=choice
    )
    string = app_commands.locale_str(choice.name)
    return translator.lookup(string, discord.Locale.french, context)


def test_a_text_choice_is_translated_by_its_value_and_a_number_is_not() -> None:
    assert label_in_french("500") == "Rami 500"
    assert label_in_french(500) is None  # Discord shows the label as the bot wrote it
