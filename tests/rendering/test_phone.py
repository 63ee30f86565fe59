"""Every picture as a phone shows it: scaled to 360 pixels wide, every word and number at
least 8 pixels tall, measured on the scaled picture itself.

Seeded games of every variant with 2, 4 and 7 players, whose names are the longest the bot
keeps (32 characters) in Latin, Cyrillic, CJK, Arabic and emoji, are played through the
engine; their tables, the hand of the player to move, the round summaries and the score
chart are rendered in both themes, with the league's standings and a player card beside
them. Each picture is shrunk to phone width as a phone shrinks it, and inside every label's
box (from the picture's ``layout_*`` twin) the rows that hold ink are counted: ink is a
pixel at least halfway from the label's background to its colour.

What the floor means (:mod:`rendering.style`): a digit's ink height at phone width is at
least ``FLOOR_PX``. A label with a digit, a capital or a CJK character has ink at least
that tall; any other label (lowercase words, Arabic) must keep its own proportion of it —
what its ink is at full size, scaled like the picture, never less.

The pictures at phone width are kept as references in ``golden/phone`` for review.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PIL import Image

import rendering
from bot.rummy.cards import rank_text
from bot.rummy.game import Game
from bot.rummy.players import random_action
from bot.rummy.rules import preset
from bot.rummy.timeline import timeline
from bot.rummy.views import GameView
from bot.sessions.names import NAME_LIMIT, clean_name
from rendering.layout import CardItem, Label, Layout
from rendering.paint import paint
from rendering.replay import FramePainter
from rendering.style import FLOOR_PX, PHONE_WIDTH, WIDTH
from rendering.text import cap_height, face_of, line_height, text_width
from rendering.theme import RGB, suit_colour
from tests.rendering import scenes
from tests.rendering.golden import assert_matches_golden

LONGEST = [
    "Maximiliana Wolfeschlegel-Smythe",
    "Александра Константиновна Орлова",
    "李小龙王大明张伟刘洋陈静杨帆赵磊黄丽周杰吴敏徐强孙悦马超朱琳胡军",
    "عبد الرحمن بن محمد بن موسى الخوا",
    "🤖 Renée 🔥 the card shark 🃏 of no",
    "Šárka Čechová-Dvořáková z Podolí",
    "山田 はなこ と 김민준 の ともだち たち です よね ね ね",
    "Αικατερίνη Παπαδοπούλου-Χατζηδάκ",
    "דוד בן גוריון ושרה אהרונסון מיפו",
]
"""Names as long as Discord's (32 characters, which the bot keeps whole), in every script
the bot draws."""

GAMES = [("classic", 2, 21), ("classic", 4, 22), ("parlett", 7, 23), ("500", 4, 24), ("500", 2, 25)]
INK = 0.4
"""How far from the background to the text's colour a pixel must be to count as ink."""
BLUR = 1.0
"""Pixels of height a shrunk label may lose to the resampling's blur at its top and bottom."""
THIN = 0.8
"""The share of its own height a label without tall characters keeps at least: the dots
and thin strokes at the top and bottom of Arabic letters fade most when shrunk."""


def names_for(players: int, start: int) -> dict[str, str]:
    return {f"p{i}": LONGEST[(start + i) % len(LONGEST)] for i in range(players)}


def test_the_names_are_the_longest_the_bot_keeps() -> None:
    assert all(len(n) == NAME_LIMIT and clean_name(n) == n for n in LONGEST)


@dataclass(frozen=True)
class Picture:
    name: str
    layout: Layout


def played(name: str, players: int, seed: int) -> Iterator[tuple[str, GameView, Game]]:
    """Views of a seeded game: after the deal, mid-round, each round's end, the game's end."""
    game = Game.new(preset(name), [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    yield "deal", game.view(None), game
    actions = 0
    while not game.is_over and actions < 2500:
        game.apply(random_action(game, rng, eagerness=0.9))
        actions += 1
        if actions == 25:
            yield "mid", game.view(None), game
        if game.view(None).rounds:
            yield "round", game.view(None), game
            return


def pictures(theme: str) -> Iterator[Picture]:
    for variant, players, seed in GAMES:
        names = names_for(players, seed)
        for moment, view, game in played(variant, players, seed):
            tag = f"{variant}_{players}_{moment}"
            yield Picture(f"table_{tag}", rendering.layout_table(view, names=names, theme=theme))
            current = game.current_player
            if moment == "mid" and current is not None:
                hand = rendering.layout_hand(game.view(current), theme=theme)
                yield Picture(f"hand_{tag}", hand)
            if moment == "round" and view.last_round is not None:
                summary = rendering.layout_round_summary(view, names=names, theme=theme)
                yield Picture(f"summary_{tag}", summary)
                chart = rendering.layout_score_chart(view, names=names, theme=theme)
                yield Picture(f"chart_{tag}", chart)
    rows = [
        replace(row, name=LONGEST[i % len(LONGEST)]) for i, row in enumerate(scenes.standings())
    ]
    yield Picture("standings", rendering.layout_standings(rows, title="League", theme=theme))
    for i, name in enumerate(LONGEST[:3]):
        card = replace(scenes.player_card(), name=name)
        yield Picture(f"player_card_{i}", rendering.layout_player_card(card, theme=theme))


def as_phone(layout: Layout) -> tuple[Image.Image, Image.Image, float]:
    """The picture at full size, at phone width (as a phone's browser shrinks it), and the
    scale between them."""
    full = paint(layout)
    scale = min(1.0, PHONE_WIDTH / layout.width)
    size = (round(layout.width * scale), round(layout.height * scale))
    return full, full.resize(size, Image.Resampling.LANCZOS), scale


def background_of(label: Label, picture: Image.Image) -> RGB:
    """What a label is drawn on: its pill, or the most common colour in its box."""
    if label.background is not None:
        return label.background
    box = label.box
    crop = picture.crop((box.x0, box.y0, box.x1, box.y1)).convert("RGB")
    counts = crop.getcolors(crop.width * crop.height) or [(1, (0, 0, 0))]
    colour = max(counts, key=lambda found: found[0])[1]
    assert isinstance(colour, tuple)
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def ink_rows(label: Label, picture: Image.Image, scale: float, bg: RGB) -> int:
    """How many rows, top ink to bottom ink, the label's text covers in ``picture`` (drawn
    at ``scale``)."""
    x0, y0 = label.text_at  # the text's own box, inside a pill's rounded ends
    x1, y1 = x0 + text_width(label.text, label.font), y0 + line_height(label.font)
    return ink_height(picture, (x0, y0, x1, y1), scale, label.colour, bg)


def ink_height(
    picture: Image.Image, box: tuple[int, int, int, int], scale: float, ink: RGB, bg: RGB
) -> int:
    """How many rows, top ink to bottom ink, ``ink`` covers on ``bg`` inside ``box`` (in
    full-size pixels) of ``picture``, drawn at ``scale``."""
    x0, y0, x1, y1 = box
    crop = picture.crop(
        (int(x0 * scale), int(y0 * scale), -int(-x1 * scale), -int(-y1 * scale))
    ).convert("RGB")
    d = [c - b for c, b in zip(ink, bg, strict=True)]
    span = sum(v * v for v in d)
    if not span:
        return 0
    # each pixel's way from the background to the ink, 0 to 255, then ink where over INK
    way = [255 * v / span for v in d]
    offset = -sum(w * b for w, b in zip(way, bg, strict=True))
    shade = crop.convert("L", matrix=(way[0], way[1], way[2], offset))
    found = shade.point(lambda v: 255 if v >= INK * 255 else 0).getbbox()
    return found[3] - found[1] if found else 0


def tall(text: str) -> bool:
    """Whether ``text`` has a character as tall as a digit: a digit, a capital, or one drawn
    by the CJK font."""
    return any(c.isdigit() or c.isupper() or face_of(c) == 1 for c in text)


def measure(picture: Picture) -> list[str]:
    """Every label of ``picture`` that reads smaller than the floor at phone width."""
    full, phone, scale = as_phone(picture.layout)
    small = []
    for item in picture.layout.items:
        if not isinstance(item, Label) or not any(c.isalnum() for c in item.text):
            continue  # an arrow is a mark: its type is measured, not its thin ink
        metric = cap_height(item.font) * scale
        if metric < FLOOR_PX:
            small.append(f"{item.name} {item.text!r}: digits {metric:.1f} px")
            continue
        bg = background_of(item, full)
        at_full = ink_rows(item, full, 1.0, bg)
        shown = ink_rows(item, phone, scale, bg)
        if tall(item.text):
            need = FLOOR_PX - BLUR
        else:  # its own proportion of the floor; the dots of Arabic letters may fade
            need = THIN * min(FLOOR_PX * at_full / cap_height(item.font), at_full * scale)
        if shown < need:
            small.append(f"{item.name} {item.text!r}: ink {shown} px, needs {need:.1f}")
    return small


PICTURES = {theme: list(pictures(theme)) for theme in ("dark", "light")}


@pytest.mark.parametrize("theme", sorted(PICTURES))
def test_every_label_reads_at_8_px_on_a_phone(theme: str) -> None:
    kinds = {p.name.split("_")[0] for p in PICTURES[theme]}
    assert kinds == {"table", "hand", "summary", "chart", "standings", "player"}
    problems = {p.name: measure(p) for p in PICTURES[theme]}
    assert not {name: found for name, found in problems.items() if found}


def small_ranks(picture: Picture) -> tuple[list[str], int, float]:
    """Every card corner at the floor's size (:attr:`CardSize.floor`) whose rank's ink is
    under the floor at phone width, how many corners were measured, and the smallest ink."""
    _, phone, scale = as_phone(picture.layout)
    face = picture.layout.theme.card_face
    small, measured, least = [], 0, float("inf")
    for item in picture.layout.items:
        if not isinstance(item, CardItem):
            continue
        art = item.art
        if art.back or art.suit is None or not art.size.floor:
            continue
        size = art.size
        top = item.y + size.rank_top
        box = (item.x + 2, top - 2, item.x + size.strip - 2, top + round(size.rank_cap) + 2)
        ink = suit_colour(art.suit, art.four_colour)
        shown = ink_height(phone, box, scale, ink, face)
        measured += 1
        least = min(least, shown)
        if shown < FLOOR_PX - BLUR:
            small.append(f"{rank_text(art.rank)} at {item.x},{item.y}: {shown} px")
    return small, measured, least


@pytest.mark.parametrize("theme", sorted(PICTURES))
def test_every_card_rank_reads_at_8_px_on_a_phone(theme: str) -> None:
    """Melds, piles and the cards left in a round, measured on the pictures themselves; a
    table too full for cards at the floor's size keeps every meld with smaller ranks, and
    those are not counted here."""
    measured = 0
    for picture in PICTURES[theme]:
        if picture.name.startswith(("table", "summary")):
            small, count, _ = small_ranks(picture)
            assert not small, (picture.name, small)
            measured += count
    assert measured > 100


def test_the_rank_measure_can_fail() -> None:
    """The same table drawn at twice its width: its corners shrink under the floor."""
    layout = rendering.layout_table(scenes.classic_table())
    wide = Layout(layout.theme, layout.width * 2, layout.height, layout.items)
    assert small_ranks(Picture("wide", wide))[0]
    assert not small_ranks(Picture("table", layout))[0]


def test_the_measure_can_fail() -> None:
    """A table shown 480 pixels wide (as if drawn at 720 and shrunk): its digits are 6."""
    layout = rendering.layout_table(scenes.classic_table())
    stretched = Layout(layout.theme, layout.width * 4 // 3, layout.height, layout.items)
    assert measure(Picture("wide", stretched))
    full, phone, scale = as_phone(layout)
    label = next(i for i in layout.items if isinstance(i, Label) and i.name == "stock")
    bg = background_of(label, full)
    assert abs(ink_rows(label, phone, scale, bg) - cap_height(label.font) * scale) <= 1.5
    assert ink_rows(label, full, 1.0, label.colour) == 0  # on its own colour: no ink


def test_every_title_keeps_every_name_whole() -> None:
    """No title, banner or player card name is cut, even for the longest names."""
    for theme in PICTURES:
        for picture in PICTURES[theme]:
            for item in picture.layout.items:
                if isinstance(item, Label) and item.name.split(":")[0] in ("title", "name"):
                    # only a name the bot itself cut ends with an ellipsis
                    whole = not item.text.endswith("…") or any(
                        n.endswith(item.text) for n in LONGEST
                    )
                    if picture.name.startswith(("summary", "player")):
                        assert whole, (picture.name, item.name, item.text)


def test_tables_stay_within_their_aspect() -> None:
    for picture in PICTURES["dark"]:
        if picture.name.startswith("table"):
            players = int(picture.name.split("_")[2])
            variant = picture.name.split("_")[1]
            ratio = picture.layout.height / picture.layout.width
            most = 0.65 if players <= 4 else 1.0
            if variant == "500":  # the pile's row in the header, the lay-off legend
                most += 0.1
            assert ratio <= most, (picture.name, picture.layout.size)


@pytest.mark.parametrize("variant", ["classic", "parlett", "500"])
def test_four_players_round_summaries_stay_within_the_tables_aspect(variant: str) -> None:
    """Names of an ordinary length: a name of 32 characters takes more lines, whole."""
    for seed in (1, 2, 3):
        game = Game.new(preset(variant), [f"p{i}" for i in range(4)], seed=seed)
        rng = random.Random(seed)
        while not game.view(None).rounds:
            game.apply(random_action(game, rng, eagerness=0.9))
        names = {f"p{i}": f"Player {i}" for i in range(4)}
        layout = rendering.layout_round_summary(game.view(None), names=names)
        assert layout.height <= 0.65 * layout.width, (variant, seed, layout.size)


def test_replay_frames_are_as_wide_as_the_pictures() -> None:
    """A replay's frames are the tables and summaries on one canvas: no wider than they,
    so a phone shrinks them no more."""
    game = Game.new(preset("classic"), ["p0", "p1"], seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(random_action(game, rng, eagerness=0.9))
    painter = FramePainter(timeline(game), names_for(2, 0), "dark", False)
    assert painter.size[0] == WIDTH


PHONE_REFERENCES: dict[str, Callable[[str], Layout]] = {
    "table_4": lambda theme: rendering.layout_table(
        scenes.classic_table(),
        names=dict(zip(["ann", "bob", "cpu-1", "dee"], LONGEST, strict=False)),
        theme=theme,
    ),
    "table_7": lambda theme: rendering.layout_table(
        scenes.crowded_table(),
        names=dict(zip(scenes.CROWDED_NAMES, LONGEST, strict=False)),
        theme=theme,
    ),
    "table_500": lambda theme: rendering.layout_table(
        scenes.deep_discard_table(),
        names=dict(zip(["ann", "bob", "cpu-1", "dee"], LONGEST[2:], strict=False)),
        theme=theme,
    ),
    "summary": lambda theme: rendering.layout_round_summary(
        *scenes.hand_scoring_round(), names={"bob": LONGEST[1], "ann": LONGEST[3]}, theme=theme
    ),
    "hand": lambda theme: rendering.layout_hand(scenes.deep_take_hand(), theme=theme),
    "chart": lambda theme: rendering.layout_score_chart(
        scenes.finished_game(), names={"bob": LONGEST[0], "ann": LONGEST[2]}, theme=theme
    ),
    "standings": lambda theme: rendering.layout_standings(
        scenes.standings(), title="League", theme=theme
    ),
    "player_card": lambda theme: rendering.layout_player_card(
        replace(scenes.player_card(), name=LONGEST[1]), theme=theme
    ),
}


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("name", sorted(PHONE_REFERENCES))
def test_pictures_at_phone_width_match_their_references(
    name: str, theme: str, tmp_path: Path
) -> None:
    layout = PHONE_REFERENCES[name](theme)
    _, phone, _ = as_phone(layout)
    buffer = io.BytesIO()
    phone.save(buffer, "PNG")
    assert measure(Picture(name, layout)) == []
    assert_matches_golden(f"phone/{name}_{theme}", buffer.getvalue(), tmp_path)
