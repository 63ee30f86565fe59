"""Texts and command names come out in the reader's language, English when it has none."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.app_commands.translator import OtherTranslationContext
from discord.ext import commands

from bot.i18n import (
    CatalogTranslator,
    MissingTranslation,
    catalog_locale,
    locale_of,
    t,
    tn,
)


def test_a_text_in_french_and_in_english() -> None:
    assert t("error.cooldown", "fr", seconds=3) == "Doucement : réessaie dans 3 s."
    assert t("error.cooldown", "en-US", seconds=3) == "Slow down a little: try again in 3 s."
    assert t("error.cooldown", None, seconds=3) == t("error.cooldown", "en-GB", seconds=3)
    assert t("error.cooldown", locale=discord.Locale.french, seconds=3).startswith("Doucement")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("fr", "fr"),
        ("FR", "fr"),
        ("fr-CA", "fr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("pt-BR", "en"),
        ("de", "en"),
        ("", "en"),
        (None, "en"),
        (discord.Locale.french, "fr"),
        (discord.Locale.japanese, "en"),
    ],
)
def test_any_discord_locale_maps_to_a_catalog(
    given: str | discord.Locale | None, expected: str
) -> None:
    assert catalog_locale(given) == expected


def test_plurals_follow_each_language() -> None:
    assert [tn("unit.cards", n, "en") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [tn("unit.cards", n, "fr") for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]


def test_an_unknown_key_is_a_loud_bug_but_not_a_crash() -> None:
    with pytest.warns(MissingTranslation, match="no.such.key"):
        assert t("no.such.key", "fr") == "no.such.key"


def test_a_missing_field_is_a_loud_bug_but_not_a_crash() -> None:
    with pytest.warns(MissingTranslation, match="seconds"):
        text = t("error.cooldown", "fr")
    assert text == "Doucement : réessaie dans {seconds} s."


def interaction(locale: str, guild_locale: str | None) -> discord.Interaction[Any]:
    """Only the two attributes locale_of reads; a real Interaction needs a whole connection."""
    return cast(
        "discord.Interaction[Any]",
        SimpleNamespace(
            locale=discord.Locale(locale),
            guild_locale=None if guild_locale is None else discord.Locale(guild_locale),
        ),
    )


def test_private_answers_follow_the_person_and_channel_messages_the_server() -> None:
    french_player_english_server = interaction("fr", "en-US")
    assert locale_of(french_player_english_server) == "fr"
    assert locale_of(french_player_english_server, public=True) == "en"
    english_player_french_server = interaction("en-GB", "fr")
    assert locale_of(english_player_french_server) == "en"
    assert locale_of(english_player_french_server, public=True) == "fr"
    in_direct_messages = interaction("fr", None)
    assert locale_of(in_direct_messages, public=True) == "fr"


FRENCH = {
    "cmd.rummy.name": "rami",
    "cmd.rummy.desc": "Parties de rami",
    "cmd.rummy.new.name": "nouvelle",
    "cmd.rummy.new.desc": "Ouvrir une table",
    "cmd.rummy.new.opt.variant.name": "variante",
    "cmd.rummy.new.opt.variant.desc": "Les règles à jouer",
    "choice.500": "Rami 500",
    "cmd.draw.name": "piocher",
    "special.key": "tirer",
    "ctxmenu.show_my_hand": "Voir ma main",
}


async def test_commands_options_and_choices_are_localized_by_derived_keys() -> None:
    """The payload a sync sends carries the French texts under Discord's locale codes."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.tree.set_translator(CatalogTranslator({"en": {}, "fr": FRENCH}))
    rummy = app_commands.Group(name="rummy", description="Rummy games")

    @rummy.command(name="new", description="Open a table")
    @app_commands.describe(variant="The rules to play")
    @app_commands.choices(
        variant=[
            app_commands.Choice(name="Classic", value="classic"),
            app_commands.Choice(name="Rummy 500", value="500"),
        ]
    )
    async def new(interaction: discord.Interaction, variant: str) -> None:
        """Not called."""

    @bot.tree.command(name=app_commands.locale_str("draw", key="special.key"), description="Draw")
    async def draw(interaction: discord.Interaction) -> None:
        """Not called."""

    @bot.tree.context_menu(name="Show my hand")
    async def show(interaction: discord.Interaction, member: discord.Member) -> None:
        """Not called."""

    bot.tree.add_command(rummy)
    translator = bot.tree.translator
    assert translator is not None
    group = await rummy.get_translated_payload(bot.tree, translator)
    draw_payload = await draw.get_translated_payload(bot.tree, translator)
    menu_payload = await show.get_translated_payload(bot.tree, translator)
    await bot.close()

    assert group["name"] == "rummy"
    assert group["name_localizations"] == {"fr": "rami"}
    assert group["description_localizations"] == {"fr": "Parties de rami"}
    sub = group["options"][0]
    assert (sub["name_localizations"], sub["description_localizations"]) == (
        {"fr": "nouvelle"},
        {"fr": "Ouvrir une table"},
    )
    option = sub["options"][0]
    assert option["name"] == "variant"
    assert option["name_localizations"] == {"fr": "variante"}
    assert option["description_localizations"] == {"fr": "Les règles à jouer"}
    classic, five_hundred = option["choices"]
    assert "name_localizations" not in classic  # no choice.classic: Discord shows the English
    assert five_hundred["name_localizations"] == {"fr": "Rami 500"}
    assert draw_payload["name_localizations"] == {"fr": "tirer"}  # the explicit key wins
    assert menu_payload["name_localizations"] == {"fr": "Voir ma main"}


async def test_the_packaged_catalogs_drive_the_default_translator() -> None:
    translator = CatalogTranslator()
    context: OtherTranslationContext = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.other, data=None
    )
    string = app_commands.locale_str("Embed Links", key="permission.embed_links")
    assert await translator.translate(string, discord.Locale.french, context) == (
        "Intégrer des liens"
    )
    assert await translator.translate(string, discord.Locale.american_english, context) is None
    assert await translator.translate(string, discord.Locale.german, context) is None
