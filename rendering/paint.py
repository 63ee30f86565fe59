"""Turn a layout into pixels.

Everything that repeats is pasted from a cache: card pictures, text masks, round dots. Only
panels and chart lines are drawn afresh; panels are plain rectangles, and lines are drawn
four times too large and shrunk so the score chart's slopes are smooth.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.layout import CardItem, Dot, Label, Layout, Line, Rect
from rendering.sprites import SCALE, sprite
from rendering.text import text_mask


def paint(layout: Layout) -> Image.Image:
    image = Image.new("RGB", layout.size, layout.theme.bg)
    draw = ImageDraw.Draw(image)
    for item in layout.items:
        if isinstance(item, CardItem):
            sprite(item.art).paste_onto(image, item.x, item.y)
        elif isinstance(item, Label):
            if item.background is not None:
                box = item.box
                radius = box.height // 2
                draw.rounded_rectangle(
                    (box.x0, box.y0, box.x1 - 1, box.y1 - 1), radius, fill=item.background
                )
            image.paste(item.colour, item.text_at, text_mask(item.text, item.font))
        elif isinstance(item, Rect):
            box = item.box
            draw.rounded_rectangle(
                (box.x0, box.y0, box.x1 - 1, box.y1 - 1),
                item.radius,
                fill=item.fill,
                outline=item.outline,
                width=item.line,
            )
        elif isinstance(item, Dot):
            if item.outline is not None:
                ring = _disc(item.box.width + 4)
                image.paste(item.outline, (item.box.x0 - 2, item.box.y0 - 2), ring)
            image.paste(item.colour, (item.box.x0, item.box.y0), _disc(item.box.width))
        else:
            _line(image, item)
    return image


@lru_cache(maxsize=64)
def _disc(diameter: int) -> Image.Image:
    big = Image.new("L", (diameter * SCALE, diameter * SCALE), 0)
    ImageDraw.Draw(big).ellipse((0, 0, diameter * SCALE - 1, diameter * SCALE - 1), fill=255)
    return big.resize((diameter, diameter), Image.Resampling.BOX)


def _line(image: Image.Image, line: Line) -> None:
    xs = [p[0] for p in line.points]
    ys = [p[1] for p in line.points]
    margin = line.width + 2
    left, top = math.floor(min(xs)) - margin, math.floor(min(ys)) - margin
    right, bottom = math.ceil(max(xs)) + margin, math.ceil(max(ys)) + margin
    mask = Image.new("L", ((right - left) * SCALE, (bottom - top) * SCALE), 0)
    draw = ImageDraw.Draw(mask)
    points = [((x - left) * SCALE, (y - top) * SCALE) for x, y in line.points]
    width = line.width * SCALE
    if line.dashed:
        for a, b in _dashes(points, dash=width * 3):
            draw.line((a, b), fill=255, width=width)
    else:
        draw.line(points, fill=255, width=width, joint="curve")
    small = mask.resize((right - left, bottom - top), Image.Resampling.BOX)
    image.paste(line.colour, (left, top), small)


def _dashes(
    points: list[tuple[float, float]], dash: float
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every other ``dash``-long piece of a polyline."""
    pieces = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        steps = max(1, int(length // dash))
        for i in range(0, steps, 2):
            t0, t1 = i / steps, min(1.0, (i + 1) / steps)
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            pieces.append((a, b))
    return pieces
