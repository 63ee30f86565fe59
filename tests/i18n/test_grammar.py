"""Sentences built around a count, a name or a variant read right for every value: each is
a case-free frame (the inserted piece stands where its own form is right: after a colon,
in brackets, as a subject) or a plural text with a form per CLDR category, so Russian says
"всего 21 карта" and "всего 22 карты", Czech "celkem 5 karet", and a name is never put
where Russian or Czech grammar would decline it ("для Аня")."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest

from bot.i18n import available_locales, catalog, number, t, tn
from bot.rummy import Game, GameView, TakeDiscard, parse_cards, preset
from bot.rummy.errors import IllegalAction
from bot.rummy.refusals import REFUSALS, fields
from cogs.ui import rule_words
from cogs.ui.options import NotThisVariant, check_variant_options
from cogs.ui.replies import error_text, reason_text

COUNTS = [*range(31), 101, 1000]
NAMES = ["Аня", "Jiří", "李雷", "محمد", "Ωμέγα", "🂡 Bob", "Zoë O'Brien"]
LOCALES = sorted(available_locales())

NAME_FIELDS = "player|name|names|seat|host|winners|variant|variants|preset|role|option"
"""Fields that hold a name or a variant as people wrote it: never declined."""
COUNTED_FIELDS = "cards|target|games|wins|rounds|players"
"""Fields that hold a count with its noun (``tn``), in the nominative."""
GOVERNING = {
    "ru": "для|до|от|за|у|с|со|к|ко|без|из|по|о|об|при|на|в|во|над|под|перед|между|через|про",
    "cs": "pro|do|od|za|u|s|se|k|ke|bez|z|ze|po|o|při|na|v|ve|nad|pod|před|mezi|přes|proti|kvůli",
}
"""Prepositions that would put the word after them in another case than the nominative."""


@pytest.mark.parametrize("locale", sorted(GOVERNING))
def test_no_name_or_counted_noun_stands_where_it_would_be_declined(locale: str) -> None:
    after = re.compile(
        rf"(?i)(?<![\w])(?:{GOVERNING[locale]})\s+[«„]?\{{(?:{NAME_FIELDS}|{COUNTED_FIELDS})\}}"
    )
    declined = {
        key: m.group(0) for key, text in catalog(locale).items() if (m := after.search(text))
    }
    assert declined == {}


def _ru_cards(count: int) -> str:
    if count % 10 == 1 and count % 100 != 11:
        return "карта"
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return "карты"
    return "карт"


CARD_WORDS: dict[str, Callable[[int], str]] = {
    "en": lambda count: "card" if count == 1 else "cards",
    "fr": lambda count: "carte" if count in (0, 1) else "cartes",
    "ru": _ru_cards,
    "cs": lambda count: "karta" if count == 1 else "karty" if count in (2, 3, 4) else "karet",
}
"""The form of "card" each whole count takes, by the grammar books rather than by CLDR: a
new catalog adds its language here (docs/translating.md)."""


def _cards_word(locale: str, count: int) -> str:
    assert locale in CARD_WORDS, f"add the forms of 'card' in {locale} to CARD_WORDS"
    return CARD_WORDS[locale](count)


def _pile_view(depth: int) -> GameView:
    game = Game.new(preset("500"), ["ann", "bob"], seed=3)
    view = game.view("ann")
    pile = tuple(parse_cards("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh")) * (depth // 10 + 1)
    return dataclasses.replace(view, discard=pile[: max(depth, 1)])


@pytest.mark.parametrize("locale", ["en", "ru", "cs"])
def test_the_deep_take_reads_for_every_count(locale: str) -> None:
    for count in COUNTS[2:]:
        view = _pile_view(count)
        label = rule_words.deep_take_label(TakeDiscard(count), view, locale)
        assert f"{number(count, locale)} {_cards_word(locale, count)}" in label, label
    view = _pile_view(1)
    top = rule_words.deep_take_label(TakeDiscard(1), view, locale)
    assert top == t("menu.take_top_option", locale, card="2♥")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_text_reads_for_every_count(locale: str) -> None:
    stems = {key.rpartition(".")[0] for key in catalog("en") if key.endswith(".other")}
    for stem in sorted(stems):
        for count in COUNTS:
            fields = re.findall(r"\{(\w+)", catalog("en")[f"{stem}.other"])
            params = {name: "Q♠" for name in fields if name != "count"}
            text = tn(stem, count, locale, **params)
            if "count" in fields:
                assert number(count, locale) in text, (stem, count, text)
    for count in COUNTS:
        assert _cards_word(locale, count) in tn("unit.cards", count, locale).split()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_variant_refusal_keeps_every_name_as_it_is(locale: str) -> None:
    with pytest.raises(NotThisVariant) as caught:
        check_variant_options("classic", {"jokers": True}, locale)
    said = reason_text(caught.value, locale)
    assert said.startswith(t("cmd.rummy.new.opt.jokers.name", locale)), said
    for name in ("variant.parlett", "variant.500", "variant.classic"):
        assert t(name, locale) in said, said


@pytest.mark.parametrize("locale", LOCALES)
def test_texts_around_a_name_keep_the_name_in_every_script(locale: str) -> None:
    named = re.compile(rf"\{{({NAME_FIELDS})\}}")
    for key, text in catalog(locale).items():
        fields = set(re.findall(r"\{(\w+)\}", text))
        if not named.search(text) or key.startswith(("cmd.", "choice.")):
            continue
        for name in NAMES:
            rendered = t(key, locale, **dict.fromkeys(fields, name))
            assert rendered.count(name) >= len(named.findall(text)), (key, rendered)


@pytest.mark.parametrize("locale", ["ru", "cs"])
def test_a_refusal_after_a_full_stop_starts_with_a_capital(locale: str) -> None:
    """The refusal frame ends a sentence ("Нельзя."), so the reason after it starts one,
    whether its text is a sentence or a fragment; a name or a card in front stays as typed."""
    frame = t("error.refused", locale, reason="")
    for key, english in REFUSALS.items():
        if fields(english) - {"card", "cards", "count", "token", "meld"}:
            continue  # a refusal about a name or a rule: said through other frames too
        params: dict[str, object] = dict.fromkeys(fields(english), "Q♠")
        if "count" in params:
            params["count"] = 2
        said = error_text(IllegalAction(key, **params), locale)
        if not said.startswith(frame):
            continue  # a refusal with a frame of its own
        first = said.removeprefix(frame)[:1]
        assert not first.islower(), (key, said)
