"""Every kind of picture, for fixed views: compared with references, checked for geometry,
and rendered twice to be sure the bytes do not change."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import rendering
from bot.rummy.views import GameView, RoundResult
from cogs.ui.picture_words import picture_words
from rendering.layout import Box, CardItem, Layout
from rendering.sprites import clear_cache
from tests.rendering import scenes
from tests.rendering.golden import assert_matches_golden


@dataclass(frozen=True)
class Case:
    name: str
    layout: Callable[[], Layout]
    render: Callable[[], bytes]


def _table(name: str, scene: Callable[[], GameView], **options: Any) -> Case:
    def lay() -> Layout:
        return rendering.layout_table(scene(), **options)

    def draw() -> bytes:
        return rendering.render_table(scene(), **options)

    return Case(f"table_{name}", lay, draw)


def _hand(name: str, scene: Callable[[], GameView], **options: Any) -> Case:
    def lay() -> Layout:
        return rendering.layout_hand(scene(), **options)

    def draw() -> bytes:
        return rendering.render_hand(scene(), **options)

    return Case(f"hand_{name}", lay, draw)


def _summary(name: str, theme: str, locale: str | None = None) -> Case:
    result: RoundResult | None
    view, result = scenes.hand_scoring_round()
    if name == "game_over":
        view, result = scenes.finished_game(), None
    elif name == "blocked":
        view, result = scenes.blocked_round()
    elif name == "ended":
        view, result = scenes.ended_round()
    words = picture_words(locale or "en")
    return Case(
        f"summary_{name}_{theme}" + (f"_{locale}" if locale else ""),
        lambda: rendering.layout_round_summary(
            view, result, names=scenes.NAMES, theme=theme, words=words
        ),
        lambda: rendering.render_round_summary(
            view, result, names=scenes.NAMES, theme=theme, words=words
        ),
    )


def _chart(theme: str) -> Case:
    view = scenes.finished_game()
    return Case(
        f"chart_{theme}",
        lambda: rendering.layout_score_chart(view, names=scenes.NAMES, theme=theme),
        lambda: rendering.render_score_chart(view, names=scenes.NAMES, theme=theme),
    )


def _league(theme: str) -> list[Case]:
    rows, card = scenes.standings(), scenes.player_card()
    title = "Standings · Autumn season"
    return [
        Case(
            f"standings_{theme}",
            lambda: rendering.layout_standings(rows, title=title, page=2, pages=3, theme=theme),
            lambda: rendering.render_standings(rows, title=title, page=2, pages=3, theme=theme),
        ),
        Case(
            f"player_card_{theme}",
            lambda: rendering.layout_player_card(card, theme=theme),
            lambda: rendering.render_player_card(card, theme=theme),
        ),
    ]


NAMES, CROWDED = scenes.NAMES, scenes.CROWDED_NAMES
RU, CS = picture_words("ru"), picture_words("cs")
CASES = [
    _table("classic_dark", scenes.classic_table, names=NAMES),
    _table(
        "classic_light_four_colour",
        scenes.classic_table,
        names=NAMES,
        theme="light",
        four_colour=True,
    ),
    _table(
        "seven_players_two_decks_light_four_colour",
        scenes.crowded_table,
        names=CROWDED,
        theme="light",
        four_colour=True,
    ),
    _table("seven_players_two_decks_dark", scenes.crowded_table, names=CROWDED),
    _table("deep_discard_40_dark", scenes.deep_discard_table, names=NAMES),
    _table("game_over_light", scenes.finished_game, names=NAMES, theme="light"),
    _table("deep_discard_40_light", scenes.deep_discard_table, names=NAMES, theme="light"),
    _table("game_over_dark", scenes.finished_game, names=NAMES),
    _table("ids_only_dark", scenes.benchmark_table),
    _table("world_names_dark", scenes.classic_table, names=scenes.WORLD_NAMES),
    _table("world_names_light", scenes.classic_table, names=scenes.WORLD_NAMES, theme="light"),
    _hand("13_cards_dark", scenes.thirteen_card_hand),
    _hand(
        "13_cards_by_rank_light_four_colour",
        scenes.thirteen_card_hand,
        sort_by="rank",
        theme="light",
        four_colour=True,
    ),
    _hand("30_cards_dark", scenes.thirty_card_hand),
    _hand("empty_light", lambda: scenes.hand_view(""), theme="light"),
    _hand("deep_take_dark", scenes.deep_take_hand),
    _hand("deep_take_light", scenes.deep_take_hand, theme="light"),
    _summary("hand_scoring", "dark"),
    _summary("hand_scoring", "light"),
    _summary("game_over", "light"),
    _summary("game_over", "dark"),
    _summary("blocked", "dark"),
    _summary("ended", "light"),
    _chart("dark"),
    _chart("light"),
    *_league("dark"),
    *_league("light"),
    # The languages the rules came from: longer words, Cyrillic and Czech diacritics.
    _table("deep_discard_40_dark_ru", scenes.deep_discard_table, names=NAMES, words=RU),
    _table(
        "world_names_light_cs",
        scenes.classic_table,
        names=scenes.WORLD_NAMES,
        theme="light",
        words=CS,
    ),
    _hand("13_cards_light_cs", scenes.thirteen_card_hand, theme="light", words=CS),
    _hand("deep_take_dark_ru", scenes.deep_take_hand, words=RU),
    _summary("hand_scoring", "dark", "ru"),
    _summary("blocked", "light", "cs"),
]
IDS = [c.name for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_matches_reference(case: Case, tmp_path: Path) -> None:
    assert_matches_golden(case.name, case.render(), tmp_path)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_labels_inside_and_apart(case: Case) -> None:
    layout = case.layout()
    width, height = layout.size
    labels = layout.labels
    assert labels, "a picture without labels says nothing"
    outside = [name for name, box in labels if not box.inside(width, height)]
    assert not outside, f"labels outside the {width}x{height} picture: {outside}"
    clashes = [
        (a, b)
        for i, (a, box_a) in enumerate(labels)
        for b, box_b in labels[i + 1 :]
        if box_a.overlaps(box_b)
    ]
    assert not clashes, f"overlapping labels: {clashes}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cards_inside(case: Case) -> None:
    layout = case.layout()
    for item in layout.items:
        if isinstance(item, CardItem):
            size = item.art.size  # the shadow reaches 2 right and 3 down
            box = Box(item.x, item.y, item.x + size.width + 2, item.y + size.height + 3)
            assert box.inside(layout.width, layout.height), item


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_picture_size_is_the_layout_size(case: Case) -> None:
    with Image.open(io.BytesIO(case.render())) as picture:
        assert picture.size == case.layout().size
        assert picture.mode == "P"


def test_same_view_same_bytes() -> None:
    for case in CASES:
        assert case.render() == case.render(), case.name


def test_threads_on_a_cold_cache_give_the_same_bytes() -> None:
    expected = [case.render() for case in CASES[:8]]
    clear_cache()
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda c: c.render(), CASES[:8] * 2))
    assert got == expected * 2


@pytest.mark.skipif(os.environ.get("UPDATE_GOLDEN") == "1", reason="references being rewritten")
def test_reference_check_can_fail(tmp_path: Path) -> None:
    light = rendering.render_table(scenes.classic_table(), names=NAMES, theme="light")
    with pytest.raises(AssertionError, match="differ"):
        assert_matches_golden("table_classic_dark", light, tmp_path)
    with pytest.raises(AssertionError, match="no reference"):
        assert_matches_golden("no_such_picture", light, tmp_path)
