"""Every text a player reads, in the player's language: message catalogs and the command translator.

Why one layer: a reply, a button label and a command name must agree in one language, and a
missing translation must show up in a test rather than in a French server.

Catalogs
    ``bot/i18n/catalogs/<locale>.json`` is one flat JSON object: dotted key -> text. ``en.json``
    is complete and is the fallback; every other catalog has exactly the same keys and, per key,
    the same ``{placeholders}`` (:mod:`bot.i18n.checks`, run by ``tests/i18n``, checks both,
    and that every key the code in ``bot/`` and ``cogs/`` uses exists: constant first arguments
    of :func:`t` and :func:`tn`, ``locale_str(..., key=...)``, and any string constant shaped
    like a key of a namespace ``en.json`` has, such as ``"lobby.joined"`` in a mapping). Texts use
    ``str.format`` fields with names only: ``"{player} drew from the stock."``. Keys are
    lower-case, dotted, grouped by what the text is about: ``lobby.joined``,
    ``error.not_your_turn``, ``table.turn``, ``hand.title``, ``button.draw_stock``.
    Keep keys constant strings at the call site (``t("lobby.joined", loc, player=name)``), so
    the check can find them; when a key must be chosen at run time, pick it from a mapping of
    constant strings.

    Refusals (the errors a person causes) are keys too: ``IllegalAction("refusal.card.not_held",
    card=...)``. The layers below this one cannot read the catalogs, so each keeps its refusals'
    English beside its errors (``bot/rummy/refusals.py``, ``bot/sessions/refusals.py``) for
    ``str(error)`` and the logs; :func:`bot.i18n.checks.template_problems` keeps those texts
    equal to ``en.json`` and present in every catalog, and ``cogs/replies.py`` translates them.

    French addresses the player as "tu", as people do at a card table.

Plurals
    :func:`tn` picks ``<key>.one`` or ``<key>.other`` by the language's rule (French says
    "0 carte", English "0 cards") and passes ``count`` as a field.

Commands, options and choices (:class:`CatalogTranslator`)
    Write command names, descriptions, option names/descriptions and choice names in English in
    the code, as usual. Their catalog keys are derived from where the text sits:

    ================================  ==============================================
    command or group name             ``cmd.<qualified name, spaces as dots>.name``
    its description                   ``cmd.<qualified name>.desc``
    option name                       ``cmd.<qualified name>.opt.<option>.name``
    option description                ``cmd.<qualified name>.opt.<option>.desc``
    choice name (static choices)      ``choice.<choice value>``
    context menu name                 ``ctxmenu.<name, lower-case, spaces as _>``
    ================================  ==============================================

    So ``/rummy new variant:`` needs ``cmd.rummy.new.name``, ``cmd.rummy.new.desc``,
    ``cmd.rummy.new.opt.variant.name`` and ``cmd.rummy.new.opt.variant.desc``; the choice
    ``Choice(name="Rummy 500", value="500")`` needs ``choice.500``. ``en.json`` holds the
    English text exactly as in the code (the tests compare them), ``fr.json`` the French one.
    To override the derived key, pass one: ``app_commands.locale_str("draw", key="cmd.draw.name")``.
    Translated command and option names must follow Discord's rule: lower-case letters, digits,
    ``-`` or ``_``, 1 to 32 characters; descriptions and choice names at most 100 characters.
    Autocomplete choices go through the translator as well (``choice.<value>``): a value
    without a catalog entry is shown as it is.

Which language
    :func:`locale_of` gives the catalog locale for a reply to an interaction: the user's
    language for an ephemeral answer, the server's for a message everyone in the channel reads.
    :func:`catalog_locale` maps any Discord locale (``"fr"``, ``"en-US"``, ``discord.Locale``)
    to a catalog, falling back to English.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.rummy.refusals import fields as placeholders

__all__ = [
    "DEFAULT_LOCALE",
    "CatalogTranslator",
    "MissingTranslation",
    "available_locales",
    "catalog",
    "catalog_locale",
    "command_key",
    "locale_of",
    "placeholders",
    "t",
    "tn",
]

DEFAULT_LOCALE = "en"
"""The complete catalog, used for any language without one of its own."""

log = logging.getLogger(__name__)

LocaleLike = str | discord.Locale | None


class MissingTranslation(UserWarning):
    """A key or a ``{field}`` the catalogs lack: a bug, shown as a warning so tests fail on it."""


@cache
def available_locales() -> frozenset[str]:
    """The locales that have a catalog file (``en`` and ``fr``)."""
    folder = resources.files(__name__).joinpath("catalogs")
    return frozenset(
        entry.name.removesuffix(".json")
        for entry in folder.iterdir()
        if entry.name.endswith(".json")
    )


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """The texts of one catalog locale (``"en"``, ``"fr"``), read once."""
    text = resources.files(__name__).joinpath("catalogs", f"{locale}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"catalog {locale}.json must be one object of strings")
    return data


def catalog_locale(locale: LocaleLike) -> str:
    """The catalog for a Discord locale: exact (``fr``), else its language (``en-GB`` -> ``en``),
    else English."""
    if locale is None:
        return DEFAULT_LOCALE
    code = (locale.value if isinstance(locale, discord.Locale) else str(locale)).strip()
    code = code.replace("_", "-").lower()
    known = available_locales()
    if code in known:
        return code
    language = code.split("-", 1)[0]
    return language if language in known else DEFAULT_LOCALE


def t(key: str, /, locale: LocaleLike = None, **params: Any) -> str:
    """The text of ``key`` in ``locale`` (English when that language lacks it), formatted.

    A key unknown even to English, or a field the text needs and the caller did not give,
    is a bug: it is logged and raised as a :class:`MissingTranslation` warning, and the reader
    gets the best text available rather than an exception in the middle of a game.
    """
    loc = catalog_locale(locale)
    template = catalog(loc).get(key)
    if template is None:
        template = catalog(DEFAULT_LOCALE).get(key)
    if template is None:
        _missing(f"no text for key {key!r}")
        return key
    try:
        return template.format_map(params)
    except (KeyError, IndexError, ValueError, AttributeError) as problem:
        _missing(f"text {key!r} ({loc}) cannot be formatted: {problem!r}")
        return template


def tn(key: str, /, count: int, locale: LocaleLike = None, **params: Any) -> str:
    """Like :func:`t` for a text about ``count`` things: ``<key>.one`` or ``<key>.other``."""
    loc = catalog_locale(locale)
    return t(f"{key}.{_plural(loc, count)}", loc, count=count, **params)


def _plural(locale: str, count: int) -> str:
    # French treats 0 and 1 as singular; English (and the fallback) only 1.
    if locale == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


def _missing(message: str) -> None:
    log.error("translation: %s", message)
    warnings.warn(message, MissingTranslation, stacklevel=3)


def locale_of(interaction: discord.Interaction[Any], *, public: bool = False) -> str:
    """The catalog locale to answer ``interaction`` in.

    An ephemeral answer (``public=False``) is read by the one person who acted, so it follows
    their Discord language. A message in the channel (``public=True``) is read by everyone, so
    it follows the server's language; outside a server it is again the person's.
    """
    if public and interaction.guild_locale is not None:
        return catalog_locale(interaction.guild_locale)
    return catalog_locale(interaction.locale)


def command_key(context: app_commands.TranslationContextTypes) -> str | None:
    """The derived catalog key of a command text (see the module docstring for the scheme)."""
    where = context.location
    data: Any = context.data
    if where in (Where.command_name, Where.group_name):
        if isinstance(data, app_commands.ContextMenu):
            return "ctxmenu." + data.name.lower().replace(" ", "_")
        return f"cmd.{_dotted(data.qualified_name)}.name"
    if where in (Where.command_description, Where.group_description):
        return f"cmd.{_dotted(data.qualified_name)}.desc"
    if where in (Where.parameter_name, Where.parameter_description):
        suffix = "name" if where is Where.parameter_name else "desc"
        return f"cmd.{_dotted(data.command.qualified_name)}.opt.{data.display_name}.{suffix}"
    if where is Where.choice_name:
        # A number's choice (a game in /rummy replay) is labelled in the asker's language
        # already; read as a key, game #500 would be called "Rummy 500".
        return f"choice.{data.value}" if isinstance(data.value, str) else None
    return None


def _dotted(qualified_name: str) -> str:
    return qualified_name.replace(" ", ".")


class CatalogTranslator(app_commands.Translator):
    """Feeds the catalogs to Discord's command localizations (``name_localizations`` etc.).

    English is what the code says, so English locales get no localization; other languages get
    their catalog's text, or none (Discord then shows the English) when the catalog lacks it.
    Install with ``await bot.tree.set_translator(CatalogTranslator())`` before syncing.
    ``catalogs`` (locale -> key -> text) replaces the packaged catalogs, for tests.
    """

    def __init__(self, catalogs: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._catalogs = catalogs

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.lookup(string, locale, context)

    def lookup(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The synchronous core of :meth:`translate`."""
        explicit = string.extras.get("key")
        key = explicit if isinstance(explicit, str) else command_key(context)
        if key is None:
            return None
        if self._catalogs is None:
            loc = catalog_locale(locale)
            texts = catalog(loc)
        else:
            code = locale.value.lower()
            loc = code if code in self._catalogs else code.split("-", 1)[0]
            texts = self._catalogs.get(loc, {})
        if loc == DEFAULT_LOCALE:
            return None
        return texts.get(key)
