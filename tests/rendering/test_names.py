"""Every name is drawn with real glyphs, in any script, with or without libraqm."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from importlib import resources

import pytest
from PIL import ImageFont, features

import rendering
from rendering.text import (
    FACES,
    FontSpec,
    display_name,
    face_of,
    runs,
    text_mask,
    text_width,
    use_layout,
)
from tests.rendering import scenes
from tests.rendering.test_properties import assert_labels_inside_and_apart

NAMES = {
    "latin": "Zoë Ñandú-Łukasz",
    "cyrillic": "Жанна Петрова",
    "greek": "Ζωή Παπαδοπούλου",
    "arabic": "محمد علي",
    "hebrew": "שָׁלוֹם כהן",
    "chinese": "李小龙",
    "japanese": "山田 はなこ カタカナ",
    "korean": "김민준",
    "emoji": "🔥Blaze🔥",
    "emoji_sequences": "👍🏽 ❤️ 👨‍👩‍👧",
    "combining": "e\u0301\u0323x\u0303 Ame\u0301lie",
}
SPECS = (FontSpec(22), FontSpec(24, bold=True))
NOWHERE = "\U0010fffd"
"""A private-use code point no bundled font has: it draws the missing-glyph box."""

ENGINES = [ImageFont.Layout.BASIC]
if features.check("raqm"):
    ENGINES.append(ImageFont.Layout.RAQM)


@pytest.fixture(params=ENGINES, ids=lambda e: e.name)
def engine(request: pytest.FixtureRequest) -> Iterator[ImageFont.Layout]:
    before = rendering.text.ENGINE.layout
    use_layout(request.param)
    yield request.param
    use_layout(before)


def _missing_box(face: int, spec: FontSpec) -> bytes:
    chosen = rendering.text._face(face, spec)
    return bytes(chosen.getmask(NOWHERE))


def _visible(char: str) -> bool:
    return not unicodedata.category(char).startswith(("M", "Z", "C"))


@pytest.mark.parametrize("script", sorted(NAMES))
def test_no_drawn_glyph_is_the_missing_glyph_box(script: str, engine: ImageFont.Layout) -> None:
    name = NAMES[script]
    for spec in SPECS:
        pieces = runs(name, spec)
        assert pieces, f"{script}: nothing left to draw"
        for piece, face in pieces:
            font = rendering.text._face(face, spec)
            box = _missing_box(face, spec)
            for char in piece:
                if _visible(char):
                    assert bytes(font.getmask(char)) != box, f"{script}: {char!r} is a box"
        assert text_mask(name, spec).getbbox() is not None  # something is inked


@pytest.mark.parametrize("script", sorted(NAMES))
def test_every_letter_of_a_name_is_kept(script: str) -> None:
    """Only what a one-colour font cannot show (skin tones, joiners, emoji selectors) goes."""
    name = unicodedata.normalize("NFC", NAMES[script])
    kept = "".join(piece for piece, _ in runs(name, SPECS[0]))
    wanted = [c for c in name if c not in "\u200d\ufe0f" and not 0x1F3FB <= ord(c) <= 0x1F3FF]
    assert sorted(kept) == sorted(wanted)


def test_fallback_fonts_are_used_for_what_dejavu_lacks() -> None:
    assert face_of("A") == 0
    assert face_of("ж") == 0
    assert face_of("ع") == 0
    assert face_of("李") == 1
    assert face_of("김") == 1
    assert face_of("は") == 1
    assert face_of("🔥") == 2
    assert face_of(NOWHERE) is None


def test_a_name_no_font_can_draw_gives_way_to_the_id() -> None:
    assert display_name("123", {"123": NOWHERE * 3}) == "123"
    assert display_name("123", {"123": "李" + NOWHERE}) == "李"
    assert runs("李" + NOWHERE, SPECS[0]) == (("李", 1),)


def test_right_to_left_reads_in_order_without_raqm() -> None:
    before = rendering.text.ENGINE.layout
    try:
        use_layout(ImageFont.Layout.BASIC)
        assert runs("אב", SPECS[0]) == (("בא", 0),)  # drawn left to right as seen
        assert runs("ab", SPECS[0]) == (("ab", 0),)
    finally:
        use_layout(before)


def test_widths_add_up_over_fonts() -> None:
    spec = SPECS[0]
    assert text_width("Blaze🔥", spec) > text_width("Blaze", spec)
    assert text_width("李小龙", spec) > 2 * spec.size


def test_world_names_fill_every_picture(engine: ImageFont.Layout) -> None:
    names = scenes.WORLD_NAMES
    table = rendering.layout_table(scenes.classic_table(), names=names)
    assert_labels_inside_and_apart(table)
    shown = {i.name: i.text for i in table.items if isinstance(i, rendering.layout.Label)}
    assert shown["name:0"] == names["ann"]
    assert shown["name:1"] == names["bob"]
    summary = rendering.layout_round_summary(*scenes.hand_scoring_round(), names=names)
    assert_labels_inside_and_apart(summary)
    assert rendering.render_table(scenes.classic_table(), names=names).startswith(b"\x89PNG")


def test_the_fonts_and_their_licences_are_bundled() -> None:
    fonts = {e.name for e in resources.files("rendering").joinpath("fonts").iterdir()}
    for regular, bold in FACES:
        assert {regular, bold} <= fonts
    assert {"LICENSE", "LICENSE-WenQuanYiMicroHei", "LICENSE-Symbola"} <= fonts
    size = sum(
        resources.files("rendering").joinpath("fonts", f).read_bytes().__len__()
        for f in {name for pair in FACES for name in pair}
    )
    assert size < 5_000_000  # the fonts stay small: DejaVu plus subset fallbacks
