"""Pictures read at the size Discord shows them, not only when opened.

Discord fits an attachment into about 550×350 pixels on a desktop and 360 pixels of width
on a phone. Each picture's geometry is scaled into both boxes and the digits people must
read at a glance — card ranks, meld numbers, pile depths — are measured there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

import rendering
from bot.rummy.rules import preset
from bot.rummy.views import GameView, RoundEnd, RoundResult
from rendering.layout import Layout
from rendering.style import DESKTOP, PHONE
from tests.rendering import scenes

DESKTOP_MIN = 8.0
PHONE_MIN = 6.0
CROWDED_DESKTOP_MIN = 5.0
"""Seven or eight players: everything is smaller, but still there to be read."""
CROWDED_PHONE_MIN = 4.0


@dataclass(frozen=True)
class Picture:
    name: str
    layout: Callable[[], Layout]
    kinds: frozenset[str]
    """The kinds of readable that must be in the picture."""
    players: int


def _table(name: str, scene: Callable[[], GameView], names: dict[str, str], kinds: str) -> Picture:
    view = scene()
    return Picture(
        f"table_{name}",
        lambda: rendering.layout_table(view, names=names),
        frozenset(kinds.split()),
        len(view.seats),
    )


PICTURES = [
    _table("classic", scenes.classic_table, scenes.NAMES, "rank meld"),
    _table("deep_discard_40", scenes.deep_discard_table, scenes.NAMES, "rank meld depth"),
    _table("busy_500", scenes.benchmark_table, {}, "rank meld depth"),
    _table("game_over", scenes.finished_game, scenes.NAMES, "rank meld"),
    _table("seven_players", scenes.crowded_table, scenes.CROWDED_NAMES, "rank meld"),
    Picture(
        "summary",
        lambda: rendering.layout_round_summary(*scenes.hand_scoring_round(), names=scenes.NAMES),
        frozenset({"rank"}),
        4,
    ),
    Picture(
        "hand_13",
        lambda: rendering.layout_hand(scenes.thirteen_card_hand()),
        frozenset({"rank"}),
        4,
    ),
    Picture(
        "hand_30",
        lambda: rendering.layout_hand(scenes.thirty_card_hand()),
        frozenset({"rank"}),
        4,
    ),
]


def shown_heights(layout: Layout) -> dict[str, tuple[float, float]]:
    """The smallest (desktop, phone) height of each kind of readable, in screen pixels."""
    w, h = layout.size
    desktop, phone = DESKTOP.scale(w, h), PHONE.scale(w, h)
    found: dict[str, tuple[float, float]] = {}
    for readable in layout.readables():
        d, p = readable.cap * desktop, readable.cap * phone
        old = found.get(readable.kind, (d, p))
        found[readable.kind] = (min(old[0], d), min(old[1], p))
    return found


@pytest.mark.parametrize("picture", PICTURES, ids=[p.name for p in PICTURES])
def test_ranks_meld_numbers_and_depths_stay_readable_in_both_display_boxes(
    picture: Picture,
) -> None:
    heights = shown_heights(picture.layout())
    assert set(heights) == picture.kinds
    small = picture.players <= 4
    need_desktop = DESKTOP_MIN if small else CROWDED_DESKTOP_MIN
    need_phone = PHONE_MIN if small else CROWDED_PHONE_MIN
    for kind, (desktop, phone) in heights.items():
        assert desktop >= need_desktop, f"{kind}: {desktop:.1f} px on a desktop"
        assert phone >= need_phone, f"{kind}: {phone:.1f} px on a phone"


def test_the_measure_can_fail() -> None:
    """The same table forced to small cards: too small at phone width."""
    layout = rendering.layout_table(scenes.classic_table(), names=scenes.NAMES)
    w, h = layout.size
    assert min(r.cap for r in layout.readables()) * PHONE.scale(w * 2, h * 2) < PHONE_MIN


def test_every_card_corner_is_measured() -> None:
    layout = rendering.layout_table(scenes.deep_discard_table(), names=scenes.NAMES)
    ranks = [r for r in layout.readables() if r.kind == "rank"]
    assert len(ranks) == 40 + 3 + 3  # the pile and two melds; the stock is empty


def eight_player_round() -> tuple[GameView, RoundResult]:
    players = [f"p{i}" for i in range(8)]
    table = scenes.view(preset("parlett"), scenes.seats(players), round_no=2)
    hand = scenes.cards("2c 5d 9h ks 3h 7c jd 4s 8d qh")
    result = RoundResult(
        round_no=2,
        reason=RoundEnd.WENT_OUT,
        ender="p0",
        hands=((), *([hand] * 7)),
        hand_values=(0, *([73] * 7)),
        placed_values=(0,) * 8,
        points=(511, *([0] * 7)),
        totals=(511, *([0] * 7)),
    )
    return table, result


LANDSCAPE = [
    ("table_classic", lambda: rendering.layout_table(scenes.classic_table()), 0.65),
    ("table_game_over", lambda: rendering.layout_table(scenes.finished_game()), 0.65),
    ("table_seven_players", lambda: rendering.layout_table(scenes.crowded_table()), 1.0),
    ("summary", lambda: rendering.layout_round_summary(*scenes.hand_scoring_round()), 0.65),
    ("summary_8", lambda: rendering.layout_round_summary(*eight_player_round()), 1.0),
    ("chart", lambda: rendering.layout_score_chart(scenes.finished_game()), 0.65),
    ("standings", lambda: rendering.layout_standings(scenes.standings(), title="S"), 0.65),
    ("player_card", lambda: rendering.layout_player_card(scenes.player_card()), 0.65),
]


@pytest.mark.parametrize(
    ("name", "layout", "ratio"), LANDSCAPE, ids=[name for name, _, _ in LANDSCAPE]
)
def test_pictures_are_landscape(name: str, layout: Callable[[], Layout], ratio: float) -> None:
    made = layout()
    assert made.height <= ratio * made.width, f"{name}: {made.width}x{made.height}"


@pytest.mark.parametrize("picture", PICTURES[:5], ids=[p.name for p in PICTURES[:5]])
def test_meld_badges_hide_no_card_rank(picture: Picture) -> None:
    readables = picture.layout().readables()
    badges = [r for r in readables if r.kind == "meld"]
    ranks = [r for r in readables if r.kind == "rank"]
    for badge in badges:
        covered = [r.name for r in ranks if r.box.overlaps(badge.box)]
        assert not covered, f"{badge.name} covers {covered}"
