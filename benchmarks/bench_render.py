"""How long a table and a hand picture take, against drawing everything afresh.

Run from the repository root: ``.venv/bin/python benchmarks/bench_render.py``.

The fast pipeline is the one the bot uses: cached card pictures pasted onto an RGB canvas,
cached text masks, a fixed palette and PNG level 1. The plain pipeline paints the same
layout by drawing every card and label with ImageDraw shapes and text on each render, then
saves a default RGB PNG; both run in this process, so the ratio is the reliable figure.
Targets: table under 10 ms and 80 KB, hand under 3 ms, at least 3x faster than plain. The
second table is Parlett with seven players (the busiest picture a round can make).
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.rendering.scenes

from bot.rummy.cards import rank_text
from rendering import layout_hand, layout_table, render_hand, render_table
from rendering.layout import CardItem, Dot, Label, Layout, Rect
from rendering.text import FontSpec, font
from rendering.theme import suit_colour
from tests.rendering import scenes

RUNS = 200


def median_ms(work: Callable[[], bytes], runs: int = RUNS) -> tuple[float, float, int]:
    """Median wall-clock and CPU milliseconds, and the size of the bytes.

    CPU time is shown beside wall time because a busy machine stretches wall time while
    the work itself stays the same.
    """
    size = len(work())  # warm-up: card and text caches, palette
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, size


def plain_png(layout: Layout) -> bytes:
    """The same layout, with every card and label drawn from shapes and text each time."""
    theme = layout.theme
    image = Image.new("RGB", layout.size, theme.bg)
    draw = ImageDraw.Draw(image)
    for item in layout.items:
        if isinstance(item, CardItem):
            art, x, y = item.art, item.x, item.y
            w, h = art.size.width, art.size.height
            box = (x, y, x + w - 1, y + h - 1)
            draw.rounded_rectangle((x + 2, y + 3, x + w + 1, y + h + 2), 5, fill=theme.shadow)
            if art.back:
                draw.rounded_rectangle(box, 5, fill=theme.back, outline=theme.card_face, width=3)
                continue
            draw.rounded_rectangle(box, 5, fill=theme.card_face, outline=theme.card_edge)
            ink = suit_colour(art.suit, art.four_colour)
            corner = FontSpec(round(w * 0.33), bold=True)
            text = rank_text(art.rank) if art.rank else "JK"
            draw.text((x + 4, y + 4), text, fill=ink, font=font(corner))
            if art.suit is not None:
                pip = FontSpec(round(w * 0.25))
                draw.text((x + 5, y + 4 + corner.size), art.suit.symbol, fill=ink, font=font(pip))
                big = FontSpec(round(w * 0.45))
                draw.text((x + w * 0.5, y + h * 0.5), art.suit.symbol, fill=ink, font=font(big))
        elif isinstance(item, Label):
            if item.background is not None:
                b = item.box
                draw.rounded_rectangle((b.x0, b.y0, b.x1, b.y1), b.height // 2, item.background)
            draw.text(item.text_at, item.text, fill=item.colour, font=font(item.font))
        elif isinstance(item, Rect):
            b = item.box
            draw.rounded_rectangle(
                (b.x0, b.y0, b.x1 - 1, b.y1 - 1), item.radius, item.fill, item.outline, item.line
            )
        elif isinstance(item, Dot):
            b = item.box
            draw.ellipse((b.x0, b.y0, b.x1, b.y1), fill=item.colour)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def main() -> None:
    table, hand = scenes.benchmark_table(), scenes.thirteen_card_hand()
    crowded = scenes.crowded_table()
    cards = sum(len(m.cards) for m in table.melds) + len(table.discard)
    size = "x".join(map(str, layout_table(table).size))
    print(
        f"table: {len(table.seats)} players, {len(table.melds)} melds, {cards} cards face up,"
        f" {size} pixels"
    )
    rows = [
        ("table", lambda: render_table(table), lambda: plain_png(layout_table(table))),
        ("table (7)", lambda: render_table(crowded), lambda: plain_png(layout_table(crowded))),
        ("hand (13)", lambda: render_hand(hand), lambda: plain_png(layout_hand(hand))),
    ]
    print(
        f"{'picture':<10} {'fast ms':>8} {'(cpu)':>6} {'KiB':>6}"
        f" {'plain ms':>9} {'(cpu)':>6} {'KiB':>6} {'ratio':>6}"
    )
    for name, fast, plain in rows:
        fast_ms, fast_cpu, fast_size = median_ms(fast)
        plain_ms, plain_cpu, plain_size = median_ms(plain, RUNS // 4)
        print(
            f"{name:<10} {fast_ms:8.2f} {fast_cpu:6.2f} {fast_size / 1024:6.1f}"
            f" {plain_ms:9.2f} {plain_cpu:6.2f} {plain_size / 1024:6.1f}"
            f" {plain_ms / fast_ms:5.1f}x"
        )
    layout_ms, _, _ = median_ms(lambda: repr(layout_table(table).size).encode())
    print(f"of which laying out the table: {layout_ms:.2f} ms")


if __name__ == "__main__":
    main()
