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
from rendering.layout import Label, Layout
from rendering.style import DESKTOP, FLOOR_PX, PHONE, PHONE_WIDTH
from rendering.text import FontSpec, cap_height
from tests.rendering import scenes

DESKTOP_MIN = 8.0
CROWDED_DESKTOP_MIN = 4.5
"""Five to eight players, or a Rummy 500 table with its pile's row: everything is smaller,
but still there to be read. The table is as high as what it holds, up to its cap, and a
desktop shows it at most 350 pixels high."""
CROWDED_PHONE_MIN = 4.0
"""A table so full that no card with ranks at the floor's size keeps every meld in the
picture shows them with smaller ranks (``CROWDED_WIDTHS``): every meld stays, the text
posted with it has them all."""
PHONE_MIN = FLOOR_PX
"""Every other picture: the digits people read at a glance at the type's floor."""
TEXT_PHONE_MIN = FLOOR_PX
"""Every word and number on the table and the hand — names, scores, card counts, pills,
meld numbers, pile depths, captions, the legends — at phone width: the type's floor."""


@dataclass(frozen=True)
class Picture:
    name: str
    layout: Callable[[], Layout]
    kinds: frozenset[str]
    """The kinds of readable that must be in the picture."""
    players: int
    crowded: bool = False


def _table(name: str, scene: Callable[[], GameView], names: dict[str, str], kinds: str) -> Picture:
    view = scene()
    return Picture(
        f"table_{name}",
        lambda: rendering.layout_table(view, names=names),
        frozenset(kinds.split()),
        len(view.seats),
        len(view.seats) > 4 or view.ruleset.deep_discard,
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
    small = not picture.crowded
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
    ("table_two", lambda: rendering.layout_table(scenes.two_player_table()), 0.55),
    ("table_classic", lambda: rendering.layout_table(scenes.classic_table()), 0.65),
    ("table_game_over", lambda: rendering.layout_table(scenes.finished_game()), 0.65),
    ("table_seven_players", lambda: rendering.layout_table(scenes.crowded_table()), 1.0),
    # four rows of cards with ranks at the floor's size, short cards: as landscape as a table
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


def _table_case(
    name: str, scene: Callable[[], GameView], names: dict[str, str], theme: str
) -> tuple[str, Callable[[], Layout]]:
    def lay() -> Layout:
        return rendering.layout_table(scene(), names=names, theme=theme)

    return f"table_{name}_{theme}", lay


def _hand_case(
    name: str, scene: Callable[[], GameView], theme: str
) -> tuple[str, Callable[[], Layout]]:
    def lay() -> Layout:
        return rendering.layout_hand(scene(), theme=theme)

    return f"hand_{name}_{theme}", lay


def _text_cases() -> list[tuple[str, Callable[[], Layout]]]:
    """2, 4 and 7 players (and Rummy 500's pile, and a game's end) with names in several
    scripts, and the hands, in both themes."""
    world = {**scenes.WORLD_NAMES, "ann": "Zoë Ångström", "dee": "Дмитрий"}
    crowded = {**scenes.CROWDED_NAMES, "cpu-1": "Šárka Čechová", "eve": "سارا"}
    cases = []
    for theme in ("dark", "light"):
        cases += [
            _table_case("2", scenes.two_player_table, world, theme),
            _table_case("4", scenes.classic_table, world, theme),
            _table_case("4_500", scenes.deep_discard_table, world, theme),
            _table_case("7", scenes.crowded_table, crowded, theme),
            _table_case("over", scenes.finished_game, world, theme),
            _hand_case("13", scenes.thirteen_card_hand, theme),
            _hand_case("take", scenes.deep_take_hand, theme),
        ]
    return cases


TEXT_CASES = _text_cases()


def phone_caps(layout: Layout) -> dict[str, float]:
    """How tall each label's capitals are when the picture is shown 360 pixels wide."""
    scale = min(1.0, PHONE_WIDTH / layout.width)
    return {i.name: cap_height(i.font) * scale for i in layout.items if isinstance(i, Label)}


@pytest.mark.parametrize(("name", "layout"), TEXT_CASES, ids=[n for n, _ in TEXT_CASES])
def test_every_word_and_number_reads_at_phone_width(
    name: str, layout: Callable[[], Layout]
) -> None:
    caps = phone_caps(layout())
    kinds = {label.split(":")[0] for label in caps}
    if name.startswith("table"):
        assert {"name", "score", "cards", "dealer", "meld", "stock", "title"} <= kinds
        assert kinds & {"turn", "winner"}
    else:
        assert {"index", "mark", "legend", "title"} <= kinds
    small = {label: round(cap, 1) for label, cap in caps.items() if cap < TEXT_PHONE_MIN}
    assert not small, f"{name}: {small}"


def test_the_text_measure_can_fail() -> None:
    """The table of before: its pills and legend were 5 pixels tall on a phone."""
    layout = rendering.layout_table(scenes.classic_table())
    tag = FontSpec(16, bold=True)
    assert cap_height(tag) * PHONE_WIDTH / layout.width < TEXT_PHONE_MIN
    assert min(phone_caps(layout).values()) >= TEXT_PHONE_MIN
