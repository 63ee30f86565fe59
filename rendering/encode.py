"""From pixels to PNG bytes, fast and small.

Encoding an RGB PNG costs more than composing the whole picture, while a paletted PNG is
cheap. Building a palette for each picture is slow too, so each theme gets one fixed palette,
made on first use: every flat colour of the theme exactly, the blends that antialiased text
and card edges produce against the backgrounds they sit on, and a coarse colour cube for
anything else. Pixels are mapped to it without dithering, so flat areas stay flat.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

from PIL import Image

from rendering.theme import INK_BLACK, INKS, MEDALS, RGB, Theme

PNG_LEVEL = 1

_palettes: dict[str, Image.Image] = {}
_lock = threading.Lock()


def to_png(image: Image.Image, theme: Theme) -> bytes:
    paletted = image.quantize(palette=palette_image(theme), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, "PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def palette_image(theme: Theme) -> Image.Image:
    found = _palettes.get(theme.name)
    if found is not None:
        return found
    with _lock:
        found = _palettes.get(theme.name)
        if found is None:
            found = Image.new("P", (1, 1))
            flat = [channel for colour in palette_colours(theme) for channel in colour]
            found.putpalette(flat)
            _palettes[theme.name] = found
        return found


def palette_colours(theme: Theme) -> list[RGB]:
    """The theme's 256 colours: exact ones first, then blends, then a cube to fill up."""
    colours: dict[RGB, None] = dict.fromkeys(theme.colours)
    for fg, bg, steps in _blends(theme):
        for i in range(1, steps + 1):
            colours.setdefault(_mix(fg, bg, i / (steps + 1)), None)
    if len(colours) > 256:
        raise RuntimeError(f"the {theme.name} palette needs {len(colours)} colours")
    levels = (0, 84, 168, 252)
    cube = [(r, g, b) for r in levels for g in levels for b in levels]
    for colour in cube:
        if len(colours) >= 256:
            break
        colours.setdefault(colour, None)
    return list(colours)[:256]


def _blends(theme: Theme) -> Iterator[tuple[RGB, RGB, int]]:
    """(foreground, background, intermediate steps) for the edges pictures contain."""
    grounds = (theme.bg, theme.panel, theme.panel_alt, theme.current)
    for ground in grounds:
        for ink in (theme.text, theme.muted):
            yield ink, ground, 6
        for ink in (theme.accent, theme.slot, theme.card_face, theme.card_edge, theme.badge):
            yield ink, ground, 2
        yield theme.shadow, ground, 1
    for ink in theme.players:  # chart lines on its panel, name dots on the panels
        yield ink, theme.panel, 2
        yield ink, theme.current, 1
    yield theme.target, theme.panel, 2
    yield theme.on_badge, theme.badge, 3
    for face in (theme.card_face, theme.joker_face):
        for ink in (*INKS, theme.card_edge):
            yield ink, face, 3
    for pill in (theme.accent, theme.mark_new, theme.mark_keep, theme.mark_use):
        yield theme.on_accent, pill, 3
    yield theme.panel, theme.muted, 3
    yield theme.back_pattern, theme.back, 2
    for medal in MEDALS:
        yield INK_BLACK, medal, 2
        yield medal, theme.panel, 2
        yield medal, theme.panel_alt, 2


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``t`` of ``a`` over ``b``, rounded to a multiple of 4 like every design colour."""
    r, g, bl = (round((x * t + y * (1 - t)) / 4) * 4 for x, y in zip(a, b, strict=True))
    return (min(r, 252), min(g, 252), min(bl, 252))
