"""Every text in every picture, in both themes, has WCAG AA contrast (4.5:1) against what it
is drawn on, computed from the theme colours the layout uses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rendering
from bot.rummy.cards import Suit
from rendering.layout import Box, CardItem, Dot, Label, Layout, Rect
from rendering.theme import INKS, ON_JOKER, RGB, THEMES, Theme, contrast, suit_colour
from tests.rendering import scenes

AA = 4.5


def pictures(theme: str) -> list[tuple[str, Layout]]:
    names, crowded = scenes.NAMES, scenes.CROWDED_NAMES
    makers: list[tuple[str, Callable[[], Layout]]] = [
        ("table", lambda: rendering.layout_table(scenes.classic_table(), names=names, theme=theme)),
        (
            "table_7",
            lambda: rendering.layout_table(scenes.crowded_table(), names=crowded, theme=theme),
        ),
        (
            "table_pile",
            lambda: rendering.layout_table(scenes.deep_discard_table(), names=names, theme=theme),
        ),
        (
            "table_over",
            lambda: rendering.layout_table(scenes.finished_game(), names=names, theme=theme),
        ),
        ("hand", lambda: rendering.layout_hand(scenes.thirteen_card_hand(), theme=theme)),
        ("hand_take", lambda: rendering.layout_hand(scenes.deep_take_hand(), theme=theme)),
        (
            "summary",
            lambda: rendering.layout_round_summary(
                *scenes.hand_scoring_round(), names=names, theme=theme
            ),
        ),
        (
            "summary_over",
            lambda: rendering.layout_round_summary(
                scenes.finished_game(), names=names, theme=theme
            ),
        ),
        ("chart", lambda: rendering.layout_score_chart(scenes.finished_game(), theme=theme)),
        (
            "standings",
            lambda: rendering.layout_standings(
                scenes.standings(), title="S", page=2, pages=3, theme=theme
            ),
        ),
        ("player_card", lambda: rendering.layout_player_card(scenes.player_card(), theme=theme)),
    ]
    return [(name, make()) for name, make in makers]


def _centre(box: Box) -> tuple[float, float]:
    return ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)


def _contains(box: Box, point: tuple[float, float]) -> bool:
    return box.x0 <= point[0] < box.x1 and box.y0 <= point[1] < box.y1


def ground(layout: Layout, index: int) -> RGB:
    """The colour under the label at ``index``: its own pill, else the last filled shape
    painted before it under its centre, else the felt."""
    label = layout.items[index]
    assert isinstance(label, Label)
    if label.background is not None:
        return label.background
    theme = layout.theme
    point = _centre(label.box)
    for item in reversed(layout.items[:index]):
        if isinstance(item, Rect) and item.fill is not None and _contains(item.box, point):
            return item.fill
        if isinstance(item, Dot) and _contains(item.box, point):
            return item.colour
        if isinstance(item, CardItem):
            size = item.art.size
            box = Box(item.x, item.y, item.x + size.width, item.y + size.height)
            if _contains(box, point):
                return theme.joker_face if item.art.rank == 0 else theme.card_face
    return theme.bg


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_label_has_aa_contrast(theme: str) -> None:
    poor = []
    for name, layout in pictures(theme):
        for index, item in enumerate(layout.items):
            if isinstance(item, Label) and item.text:
                ratio = contrast(item.colour, ground(layout, index))
                if ratio < AA:
                    poor.append(f"{name}/{item.name} {item.text!r}: {ratio:.2f}")
    assert not poor, poor


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_card_inks_have_aa_contrast_on_their_faces(theme: str) -> None:
    chosen: Theme = THEMES[theme]
    for four in (False, True):
        for suit in (*Suit, None):
            assert contrast(suit_colour(suit, four), chosen.card_face) >= AA
    assert contrast(ON_JOKER, chosen.joker_face) >= AA
    assert contrast(chosen.on_badge, chosen.badge) >= AA
    # a meld's badge also stands out from the white card it sits on
    assert contrast(chosen.badge, chosen.card_face) >= AA
    assert all(ink in chosen.colours for ink in INKS)


def test_the_contrast_check_can_fail() -> None:
    light = THEMES["light"]
    assert contrast((212, 140, 0), light.panel) < AA  # the old light-theme turn cue
    assert round(contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0
