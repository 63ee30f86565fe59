"""What rendering may depend on, and the machinery under every picture."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image

import rendering
from bot.rummy.cards import Card, Suit
from rendering.encode import palette_colours, palette_image
from rendering.sprites import CardArt, CardSize, cache_size, sprite
from rendering.text import FontSpec, display_name, fit, font, text_width
from rendering.theme import THEMES

PACKAGE = Path(rendering.__file__).parent
ALLOWED = ("PIL", "bot.rummy", "rendering")


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_rendering_imports_only_pillow_the_engine_and_the_standard_library(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        allowed = module.startswith(ALLOWED) or top in sys.stdlib_module_names
        assert allowed, f"{path.name} imports {module}"


def test_importing_rendering_pulls_in_neither_discord_nor_storage() -> None:
    code = (
        "import sys, rendering\n"
        "bad = [m for m in sys.modules if m.split('.')[0] == 'discord' or"
        " m.startswith('bot.storage') or m.startswith('cogs')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_font_is_bundled_with_its_licence() -> None:
    fonts = resources.files("rendering").joinpath("fonts")
    names = {entry.name for entry in fonts.iterdir()}
    assert {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE"} <= names
    assert font(FontSpec(20, bold=True)).getname() == ("DejaVu Sans", "Bold")
    assert font(FontSpec(20)).getname() == ("DejaVu Sans", "Book")


def test_fit_cuts_with_an_ellipsis_only_when_needed() -> None:
    spec = FontSpec(20)
    assert fit("Ann", spec, 200) == "Ann"
    cut = fit("Maximiliana Bartholomew", spec, 120)
    assert cut.endswith("…")
    assert text_width(cut, spec) <= 120
    assert fit("Maximiliana", spec, 5) == ""


def test_display_names_fall_back_to_the_id_and_lose_control_characters() -> None:
    assert display_name("123", {"123": "Ann"}) == "Ann"
    assert display_name("123", {"123": "  "}) == "123"
    assert display_name("cpu-1", None) == "cpu-1"
    assert display_name("9", {"9": "evil\nname"}) == "evil name"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_theme_colour_survives_the_palette_exactly(theme: str) -> None:
    chosen = THEMES[theme]
    colours = list(dict.fromkeys(chosen.colours))
    assert all(channel % 4 == 0 for colour in colours for channel in colour)
    assert len(palette_colours(chosen)) == 256
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    mapped = strip.quantize(palette=palette_image(chosen), dither=Image.Dither.NONE)
    assert list(mapped.convert("RGB").get_flattened_data()) == colours


def test_card_pictures_are_made_once() -> None:
    art = CardArt.of(Card(7, Suit.HEARTS), CardSize(50, 70), "dark", False)
    first = sprite(art)
    count = cache_size()
    assert sprite(art) is first
    assert cache_size() == count
    twin = CardArt.of(Card(7, Suit.HEARTS, copy=1), CardSize(50, 70), "dark", False)
    assert sprite(twin) is first  # twins look alike, so they share a picture


def test_four_colour_decks_differ_only_for_clubs_and_diamonds() -> None:
    size = CardSize(50, 70)

    def pixels(suit: Suit, four: bool) -> bytes:
        return sprite(CardArt.of(Card(5, suit), size, "dark", four)).image.tobytes()

    assert pixels(Suit.CLUBS, True) != pixels(Suit.CLUBS, False)
    assert pixels(Suit.DIAMONDS, True) != pixels(Suit.DIAMONDS, False)
    assert pixels(Suit.HEARTS, True) == pixels(Suit.HEARTS, False)
    assert pixels(Suit.SPADES, True) == pixels(Suit.SPADES, False)


def test_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError, match="theme"):
        rendering.render_standings([], title="x", theme="sepia")
