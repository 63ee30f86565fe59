"""Counts read right in every language: CLDR's plural rules through Babel, numbers written
the language's way, and catalogs holding exactly the plural forms their language needs."""

from __future__ import annotations

import logging

import pytest

from bot.i18n import (
    catalog,
    is_plural,
    number,
    placeholders,
    plural_categories,
    plural_category,
    text_of,
    tn,
)
from bot.i18n.checks import _plural_problems, catalog_problems, plural_stems
from bot.i18n.numbers import format_number
from bot.rummy import IllegalAction
from cogs.ui.replies import error_text

COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)

# CLDR's plural rules (unicode.org/cldr, "Language Plural Rules") for the counts above:
# the specification these texts must follow, written out here so Babel is checked too.
CLDR = {
    "en": ("other", "one", "other", "other", "other", "other", "other", "other"),
    "fr": ("one", "one", "other", "other", "other", "other", "other", "other"),
    "ru": ("many", "one", "few", "many", "many", "one", "few", "many"),
    "cs": ("other", "one", "few", "other", "other", "other", "other", "other"),
}


@pytest.mark.parametrize("locale", sorted(CLDR))
def test_plural_categories_follow_cldr(locale: str) -> None:
    assert tuple(plural_category(locale, n) for n in COUNTS) == CLDR[locale]


def test_each_language_has_its_own_set_of_categories() -> None:
    assert plural_categories("en") == {"one", "other"}
    assert plural_categories("fr") == {"one", "many", "other"}
    assert plural_categories("ru") == {"one", "few", "many", "other"}
    assert plural_categories("cs") == {"one", "few", "many", "other"}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_count_picks_a_form_its_catalog_has(locale: str) -> None:
    english = catalog("en")
    for stem in plural_stems(english):
        fields = placeholders(english[f"{stem}.other"])
        params = dict.fromkeys(fields - {"count"}, "X")
        for n in COUNTS:
            text = tn(stem, n, locale, **params)
            assert (str(n) in text) == ("count" in fields), (stem, n, text)
            assert "{" not in text


def test_english_and_french_say_one_and_many_rightly() -> None:
    assert [tn("unit.games", n, "en") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [tn("unit.games", n, "fr") for n in (0, 1, 2)] == ["0 partie", "1 partie", "2 parties"]
    assert tn("unit.cards", 1_000_000, "fr") == f"1{NNBSP}000{NNBSP}000 de cartes"
    assert tn("unit.points", 1500, "en") == "1,500 points"


NNBSP = "\u202f"  # French groups thousands with a narrow no-break space (CLDR)


def test_numbers_are_written_the_language_s_way() -> None:
    assert number(1000, "en") == "1,000"
    assert number(1000, "fr") == f"1{NNBSP}000"
    assert format_number(1.5, "ru") == "1,5"
    assert number(25, "en", decimals=1) == "25.0"
    assert number(25.26, "fr", decimals=1) == "25,3"
    assert format_number(3.14159, "cs", decimals=2) == "3,14"
    assert number(1.5, "de") == "1.5"  # no German catalog: English throughout


def test_the_check_asks_each_language_for_exactly_its_categories() -> None:
    english_stems = {"unit.cards"}
    ok = {"unit.cards.one": "{count} карта", "unit.cards.few": "{count} карты"}
    ok |= {"unit.cards.many": "{count} карт", "unit.cards.other": "{count} карты"}
    assert _plural_problems("ru", ok, english_stems) == []
    english_like = {"unit.cards.one": "{count} карта", "unit.cards.other": "{count} карты"}
    assert _plural_problems("ru", english_like, english_stems) == [
        "ru.json lacks unit.cards.few",
        "ru.json lacks unit.cards.many",
    ]
    too_many = {**english_like, "unit.cards.few": "x", "unit.cards.many": "y"}
    assert _plural_problems("en", too_many, english_stems) == [
        "en.json has extra unit.cards.few",
        "en.json has extra unit.cards.many",
    ]
    assert _plural_problems("fr", {}, english_stems) == [
        "fr.json lacks unit.cards.many",
        "fr.json lacks unit.cards.one",
        "fr.json lacks unit.cards.other",
    ]


def test_the_packaged_catalogs_pass_the_plural_check() -> None:
    assert [p for p in catalog_problems() if "unit." in p or ".one" in p or ".many" in p] == []


def test_no_text_puts_a_noun_straight_after_a_count_field() -> None:
    # "{games} games" says "1 games": such counts go through tn() as a finished piece.
    english = catalog("en")
    nouns = ("card", "game", "point", "win", "round", "player", "seat", "row", "way")
    bad = [
        key
        for key, text in english.items()
        if not key.startswith("refusal.option.")  # ranges: "1 to 10 cards"
        and not key.startswith("refusal.rules.players")
        and not is_plural(key.rpartition(".")[0])
        and any(f"}} {noun}" in text for noun in nouns)
    ]
    assert bad == []


def test_a_refusal_raised_below_the_catalogs_is_said_with_its_plural() -> None:
    assert error_text(IllegalAction("refusal.take.too_deep", count=1), "en") == (
        "Not allowed: The discard pile has only 1 card."
    )
    assert error_text(IllegalAction("refusal.take.too_deep", count=3), "fr") == (
        "Refusé : La défausse n'a que 3 cartes."
    )
    assert str(IllegalAction("refusal.take.too_deep", count=3)).endswith("only 3 cards.")


def test_a_text_a_language_lacks_shows_in_english_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    french_without_it = {k: v for k, v in catalog("fr").items() if k != "error.cooldown"}
    catalogs = {"en": catalog("en"), "fr": french_without_it}
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        text = text_of("error.cooldown", "fr", catalogs.__getitem__)
    assert text == "Slow down a little: try again in {seconds} s."
    assert "fr.json lacks 'error.cooldown', English shown" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert text_of("error.cooldown", "fr") == catalog("fr")["error.cooldown"]
    assert caplog.text == ""
