"""Pictures speak their readers' language: every label comes from the words passed in, and
longer words (French, or a made-up set as long as Czech and Russian ones) still fit."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import rendering
from bot.i18n import catalog
from bot.rummy.views import GameView, RoundResult
from cogs.ui.picture_words import picture_words
from rendering.layout import Label, Layout
from rendering.words import ENGLISH, Words
from tests.rendering import scenes

Lay = Callable[[Words], Layout]


def _summary(scene: Callable[[], tuple[GameView, RoundResult]]) -> Lay:
    def lay(words: Words) -> Layout:
        view, result = scene()
        return rendering.layout_round_summary(view, result, names=scenes.NAMES, words=words)

    return lay


def _cases() -> dict[str, Lay]:
    rows, card = scenes.standings(), scenes.player_card()
    names, crowded = scenes.NAMES, scenes.CROWDED_NAMES
    return {
        "table_classic": lambda w: rendering.layout_table(
            scenes.classic_table(), names=names, words=w
        ),
        "table_seven": lambda w: rendering.layout_table(
            scenes.crowded_table(), names=crowded, words=w
        ),
        "table_deep": lambda w: rendering.layout_table(
            scenes.deep_discard_table(), names=names, words=w
        ),
        "table_over": lambda w: rendering.layout_table(
            scenes.finished_game(), names=names, words=w
        ),
        "table_two": lambda w: rendering.layout_table(
            scenes.two_player_table(), names=names, words=w
        ),
        "hand_13": lambda w: rendering.layout_hand(scenes.thirteen_card_hand(), words=w),
        "hand_by_rank": lambda w: rendering.layout_hand(
            scenes.thirteen_card_hand(), sort_by="rank", words=w
        ),
        "hand_take": lambda w: rendering.layout_hand(scenes.deep_take_hand(), words=w),
        "hand_empty": lambda w: rendering.layout_hand(scenes.hand_view(""), words=w),
        "summary_hand": _summary(scenes.hand_scoring_round),
        "summary_blocked": _summary(scenes.blocked_round),
        "summary_ended": _summary(scenes.ended_round),
        "summary_over": lambda w: rendering.layout_round_summary(
            scenes.finished_game(), names=names, words=w
        ),
        "summary_none": lambda w: rendering.layout_round_summary(
            scenes.hand_view(""), names=names, words=w
        ),
        "chart": lambda w: rendering.layout_score_chart(
            scenes.finished_game(), names=names, words=w
        ),
        "chart_empty": lambda w: rendering.layout_score_chart(
            scenes.classic_table(), names=names, words=w
        ),
        "standings": lambda w: rendering.layout_standings(
            rows, title="T", page=2, pages=3, words=w
        ),
        "standings_empty": lambda w: rendering.layout_standings([], title="T", words=w),
        "player_card": lambda w: rendering.layout_player_card(card, words=w),
    }


CASES = _cases()
FIELD = re.compile(r"\{[a-z_]+\}")
WORD = re.compile(r"[^\W\d_]{2,}")


LINE = re.compile(r":line\d+$")


def marker_words() -> Words:
    """Every text replaced by a mark of its own and its fields: no English letter left."""
    texts = {key: "Ж" + "".join(FIELD.findall(text)) for key, text in ENGLISH.items()}
    return Words(texts)


def long_words() -> Words:
    """English with every word 60% longer: as long as Czech and Russian words get."""

    def stretch(text: str) -> str:
        pieces = FIELD.split(text)
        fields = [*FIELD.findall(text), ""]
        longer = [WORD.sub(lambda m: m[0] + m[0][: len(m[0]) * 6 // 10], p) for p in pieces]
        return "".join(piece + field for piece, field in zip(longer, fields, strict=True))

    return Words({key: stretch(text) for key, text in ENGLISH.items()})


def english_vocabulary() -> set[str]:
    words: set[str] = set()
    for text in ENGLISH.values():
        words |= {w.lower() for w in WORD.findall(FIELD.sub("", text))}
    return words


def allowed(layout: Layout) -> set[str]:
    """Words a picture may show in any language: people's names, games' proper names."""
    proper = " ".join(
        [*scenes.NAMES.values(), *scenes.CROWDED_NAMES.values(), "Classic Rummy", "Rummy 500"]
    )
    proper += " Parlett's Basic Rummy Gin T"
    return {w.lower() for w in WORD.findall(proper)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_english_word_reaches_a_picture_drawn_with_other_words(name: str) -> None:
    english = english_vocabulary()
    layout = CASES[name](marker_words())
    reference = CASES[name](Words())
    left = {
        (item.name, item.text)
        for item in layout.items
        if isinstance(item, Label)
        and {w.lower() for w in WORD.findall(item.text)} & english - allowed(layout)
    }
    assert left == set(), f"{name}: English reached the picture: {left}"
    # Shorter words leave out nothing the English picture shows (a long text may take a
    # second line, or leave a column out by rule, only in the language that needs it).
    assert label_names(reference) <= label_names(layout)


def label_names(layout: Layout) -> set[str]:
    """The labels' names, a text's second and third lines counted with its first."""
    return {LINE.sub("", i.name) for i in layout.items if isinstance(i, Label)}


def test_the_marker_check_can_fail() -> None:
    english = english_vocabulary()
    texts = {key: "Ж" + "".join(FIELD.findall(t)) for key, t in ENGLISH.items()}
    texts["picture.table.stock"] = ENGLISH["picture.table.stock"]
    layout = CASES["table_classic"](Words(texts))
    found = [
        i.text
        for i in layout.items
        if isinstance(i, Label) and {w.lower() for w in WORD.findall(i.text)} & english
    ]
    assert found == ["Stock · 35"] or any(t.startswith("Stock") for t in found)


def test_the_pictures_english_is_the_english_catalog_s() -> None:
    english = catalog("en")
    pictures = {k: v for k, v in english.items() if k.startswith("picture.")}
    assert pictures == dict(ENGLISH)


def test_a_catalog_s_words_write_numbers_and_plurals_its_way() -> None:
    french = picture_words("fr")
    assert french.count("picture.cards", 1) == "1 carte"
    assert french.count("picture.cards", 0) == "0 carte"
    assert french.count("picture.cards", 12) == "12 cartes"
    assert french.number(-1500) == "−1\u202f500"
    assert french.number(25.26, 1) == "25,3"
    english = picture_words("en-GB")
    assert english.count("picture.cards", 1) == "1 card"
    assert english.number(-1500) == Words().number(-1500) == "−1,500"


def test_a_picture_names_the_game_in_its_reader_s_language() -> None:
    """The variant's name is the catalog's where the language has its own; English keeps
    the pictures' short titles."""
    view = scenes.crowded_table()  # Parlett's
    for locale in ("ru", "cs"):
        name = catalog(locale)["variant.parlett"]
        shown = texts(rendering.layout_table(view, words=picture_words(locale)))
        # a long title lends its end to the line under it
        title = f"{shown['title']} · {shown['target']}"
        assert f" · {name}" in title, (locale, title)
    shown = texts(rendering.layout_table(view, words=picture_words("en")))
    assert shown == texts(rendering.layout_table(view))
    assert (shown["title"], shown["target"]) == ("Round 4", "Parlett Rummy · Target 100")
    summary = _summary(scenes.hand_scoring_round)(picture_words("cs"))
    assert texts(summary)["subtitle"].startswith(catalog("cs")["variant.500"])


def texts(layout: Layout) -> dict[str, str]:
    return {i.name: i.text for i in layout.items if isinstance(i, Label)}


@pytest.mark.parametrize("language", ["fr", "ru", "cs", "long"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_longer_words_stay_inside_and_apart(name: str, language: str) -> None:
    words = long_words() if language == "long" else picture_words(language)
    layout = CASES[name](words)
    width, height = layout.size
    labels = layout.labels
    outside = [n for n, box in labels if not box.inside(width, height)]
    assert not outside, f"labels outside the {width}x{height} picture: {outside}"
    clashes = [
        (a, b)
        for i, (a, box_a) in enumerate(labels)
        for b, box_b in labels[i + 1 :]
        if box_a.overlaps(box_b)
    ]
    assert not clashes, f"overlapping labels: {clashes}"
