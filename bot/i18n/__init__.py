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
    equal to ``en.json`` and present in every catalog, and ``cogs/ui/replies.py`` translates them.

    French addresses the player as "tu", as people do at a card table.

Plurals and numbers
    Every count a person reads goes through :func:`tn`, never straight before a noun in a
    text ("{games} games" says "1 games"). A plural text has one key per CLDR plural category
    its language has (:mod:`bot.i18n.numbers`, from Babel): ``unit.cards.one`` and ``.other``
    in English; ``.one``, ``.many`` and ``.other`` in French (``many`` is for millions: "1 000 000
    de cartes"); ``.one``, ``.few``, ``.many``, ``.other`` in Russian and Czech (1 карта,
    2 карты, 5 карт; ``other`` is for fractions). The catalog check asks for exactly those
    categories in each catalog, each with English's fields. :func:`tn` picks the category and
    passes ``count`` written the language's way ("1 000"). A text about several counts takes
    each as a finished piece: ``t("league.row", loc, games=tn("unit.games", 3, loc), ...)``.
    A refusal raised below this layer names its plural text by its stem with a ``count``
    (``IllegalAction("refusal.take.too_deep", count=1)``); :func:`t` sees the stem has plural
    forms and goes through :func:`tn`. :func:`number` writes any other number for a reader
    (scores too: ``1 520``, as the pictures write them); :func:`date_text` a day.

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

Which language (one rule, for texts and pictures alike)
    - What one person reads is in that person's Discord language (``interaction.locale``):
      their ephemeral answers and refusals, their hand (text and picture), their DMs. A DM
      sent without an interaction (the hand after someone else's move, a turn ping in DMs)
      uses the language last seen from that person (``cogs/display``'s notifier notes it on
      every interaction, in memory), else the server's.
    - What everyone in the channel reads is in the server's preferred language
      (``guild.preferred_locale``, or ``interaction.guild_locale``): the lobby, the table
      message and its picture, round and final summaries, pings in the channel, the league.
    :func:`locale_of` gives the catalog locale for a reply to an interaction (``public=True``
    for a message in the channel). :func:`catalog_locale` maps any Discord locale (``"fr"``,
    ``"en-US"``, ``discord.Locale``) to a catalog, falling back to English. A text a catalog
    lacks is shown in English and logged as a warning; the catalog check keeps that from
    ever reaching a table.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Callable, Iterator, Mapping
from datetime import date
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.numbers import format_date, format_number, plural_categories, plural_category
from bot.rummy.refusals import fields as placeholders

__all__ = [
    "COMMAND_FIELDS",
    "DEFAULT_LOCALE",
    "CatalogTranslator",
    "MissingTranslation",
    "available_locales",
    "catalog",
    "catalog_locale",
    "command_key",
    "command_words",
    "date_text",
    "is_plural",
    "locale_of",
    "number",
    "placeholders",
    "plural_categories",
    "plural_category",
    "t",
    "text_of",
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
    return _catalog_for(locale.value if isinstance(locale, discord.Locale) else str(locale))


@lru_cache(maxsize=256)
def _catalog_for(locale: str) -> str:
    """:func:`catalog_locale` of a locale's text, worked out once per text (every message
    asks it for each line)."""
    code = locale.strip().replace("_", "-").lower()
    known = available_locales()
    if code in known:
        return code
    language = code.split("-", 1)[0]
    return language if language in known else DEFAULT_LOCALE


def t(key: str, /, locale: LocaleLike = None, **params: Any) -> str:
    """The text of ``key`` in ``locale`` (English when that language lacks it), formatted.

    A key with plural forms (``refusal.take.too_deep.one``, ``.other``) asked for by its stem
    with a ``count`` goes through :func:`tn`: that is how a refusal raised below this layer
    (which knows no plurals) still says "1 card" and "2 cards".

    A key the locale lacks is shown in English and logged as a warning (the catalog check
    keeps that from reaching a table). A key unknown even to English, or a field the text needs
    and the caller did not give, is a bug: it is logged and raised as a
    :class:`MissingTranslation` warning, and the reader gets the best text available rather
    than an exception in the middle of a game.
    """
    loc = catalog_locale(locale)
    count = params.get("count")
    if key not in catalog(loc) and isinstance(count, int) and is_plural(key):
        return tn(key, count, loc, **{k: v for k, v in params.items() if k != "count"})
    template = text_of(key, loc)
    if template is None:
        _missing(f"no text for key {key!r}")
        return key
    if any(f"{{{name}[" in template for name in COMMAND_FIELDS):
        params = {**command_words(loc), **params}
    try:
        return template.format_map(params)
    except (KeyError, IndexError, ValueError, AttributeError) as problem:
        _missing(f"text {key!r} ({loc}) cannot be formatted: {problem!r}")
        return template


def text_of(
    key: str, locale: str, catalogs: Callable[[str], Mapping[str, str]] = catalog
) -> str | None:
    """The unformatted text of ``key`` in the catalog ``locale``; English's, logged as a
    warning, when that catalog lacks it; None when English lacks it too. ``catalogs``
    (locale -> texts) replaces the packaged catalogs, for tests."""
    template = catalogs(locale).get(key)
    if template is None:
        template = catalogs(DEFAULT_LOCALE).get(key)
        if template is not None:
            log.warning("translation: %s.json lacks %r, English shown", locale, key)
    return template


def tn(key: str, /, count: int, locale: LocaleLike = None, **params: Any) -> str:
    """Like :func:`t` for a text about ``count`` things: ``<key>.<category>``, the category
    chosen by the language's CLDR plural rule, with ``{count}`` written as the language writes
    numbers ("1 000 cartes"). A locale that lacks the form it needs gets English's, logged."""
    loc = catalog_locale(locale)
    category = plural_category(loc, count)
    if f"{key}.{category}" not in catalog(loc):
        log.warning("translation: %s.json lacks %s.%s, English shown", loc, key, category)
        loc = DEFAULT_LOCALE
        category = plural_category(loc, count)
    return t(f"{key}.{category}", loc, count=format_number(count, loc), **params)


COMMAND_FIELDS = frozenset({"cmd", "opt", "choice"})
"""The fields :func:`t` fills itself, with the reader's names of the commands: a text writes
``{cmd[rummy join]}`` (``/rummy přisednout`` in Czech), ``{opt[draw source]}`` (the option
``source`` of ``/draw``: ``odkud``) and ``{choice[stock]}`` (``balíček``), never an English
command name. English may write its names as they are: they are the code's."""


class _CommandNames(Mapping[str, str]):
    """One kind of command word (``cmd``, ``opt`` or ``choice``) in one catalog, looked up
    by its English path as a format field's index (``{cmd[rummy join]}``)."""

    def __init__(self, kind: str, locale: str) -> None:
        self._kind = kind
        self._locale = locale

    def _name(self, key: str) -> str:
        text = catalog(self._locale).get(key) or catalog(DEFAULT_LOCALE).get(key)
        if text is None:
            raise KeyError(key)
        return text

    def __getitem__(self, path: str) -> str:
        parts = path.split()
        if not parts:
            raise KeyError(path)
        if self._kind == "choice":
            return self._name(f"choice.{path}")
        if self._kind == "opt":
            *command, option = parts
            return self._name(f"cmd.{'.'.join(command)}.opt.{option}.name")
        names = [self._name(f"cmd.{'.'.join(parts[: i + 1])}.name") for i in range(len(parts))]
        return "/" + " ".join(names)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


@cache
def command_words(locale: str) -> Mapping[str, Mapping[str, str]]:
    """The :data:`COMMAND_FIELDS` of catalog ``locale``, as :func:`t` passes them to a text."""
    return {kind: _CommandNames(kind, locale) for kind in COMMAND_FIELDS}


def is_plural(key: str) -> bool:
    """Whether ``key`` is the stem of a text with plural forms (English has ``<key>.other``)."""
    return f"{key}.other" in catalog(DEFAULT_LOCALE)


def number(value: int | float, locale: LocaleLike = None, decimals: int | None = None) -> str:
    """``value`` written as the reader's language writes numbers (for pictures and texts),
    with exactly ``decimals`` digits after the separator when given."""
    return format_number(value, catalog_locale(locale), decimals)


def date_text(value: date, locale: LocaleLike = None) -> str:
    """A day as the reader's language writes it (``2. 12. 2026`` in Czech), never ISO."""
    return format_date(value, catalog_locale(locale))


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
