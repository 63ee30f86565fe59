"""The end-of-game chart: each player's running total after every round."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.rummy.views import GameView
from rendering.encode import to_png
from rendering.layout import Box, Flow, Layout
from rendering.paint import paint
from rendering.style import (
    MARGIN,
    RADIUS,
    READ,
    READ_BOLD,
    TITLE,
    WIDTH,
    game_name,
    number,
)
from rendering.text import display_name, fit, line_height, text_width
from rendering.theme import get_theme, player_colour
from rendering.words import ENGLISH_WORDS, Words

PLOT_HEIGHT = 380
AXIS_WIDTH = 64
LINE = 4
POINT = 10


def render_score_chart(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> bytes:
    """The running totals of every round as a PNG line chart."""
    layout = layout_score_chart(view, names=names, theme=theme, words=words)
    return to_png(paint(layout), layout.theme)


def nice_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round-numbered ticks (1, 2 or 5 times a power of ten) covering low..high in at most
    ``most`` steps."""
    high = max(high, low + 1)
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            start, stop = math.floor(low / step) * step, math.ceil(high / step) * step
            if (stop - start) // step <= most and stop > start:
                return list(range(start, stop + 1, step))
        power *= 10


def layout_score_chart(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, WIDTH)
    y = MARGIN
    layout.label("title", MARGIN, y, words("picture.chart.title"), TITLE, chosen.text)
    y += line_height(TITLE) + 4
    sub = words(
        "picture.chart.subtitle",
        game=game_name(view.ruleset, words),
        target=number(view.target, words),
        rounds=words.count("picture.rounds", len(view.rounds)),
    )
    layout.label("subtitle", MARGIN, y, sub, READ, chosen.muted, max_width=WIDTH - 2 * MARGIN)
    y += line_height(READ) + 12
    totals = [[0] + [r.totals[i] for r in view.rounds] for i in range(len(view.seats))]
    values = [v for series in totals for v in series] + [0, view.target]
    ticks = nice_ticks(min(values), max(values))
    axis = max(AXIS_WIDTH, max(text_width(number(t, words), READ) for t in ticks) + 16)
    plot = Box(MARGIN + axis, y + 10, WIDTH - MARGIN - 20, y + 10 + PLOT_HEIGHT)
    layout.rect(
        Box(MARGIN, y, WIDTH - MARGIN, plot.y1 + 44), chosen.panel, radius=RADIUS
    )  # the chart's card

    def to_y(value: float) -> float:
        low, high = ticks[0], ticks[-1]
        return plot.y1 - (value - low) / (high - low) * plot.height

    rounds = len(view.rounds)

    def to_x(round_no: int) -> float:
        return plot.x0 + round_no / max(1, rounds) * plot.width

    label_h = line_height(READ)
    for tick in ticks:
        ty = to_y(tick)
        grid_y = round(ty)
        layout.rect(Box(plot.x0, grid_y - 1, plot.x1, grid_y + 1), chosen.bg)
        layout.label(
            f"tick:{tick}",
            plot.x0 - 10,
            round(ty - label_h / 2),
            number(tick, words),
            READ,
            chosen.muted,
            align="right",
        )
    every = max(1, math.ceil(rounds / 12))
    for r in range(0, rounds + 1, every):
        layout.label(
            f"round:{r}",
            round(to_x(r)),
            plot.y1 + 10,
            words.number(r),
            READ,
            chosen.muted,
            align="center",
        )
    # The target line and its label are in a colour no player has, and the label sits at
    # the start of the line: every total starts at 0, far from the target, while the end
    # is where the winner's last point lands.
    target_y = to_y(view.target)
    layout.line(((plot.x0, target_y), (plot.x1, target_y)), chosen.target, 2, dashed=True)
    target = words("picture.chart.target", target=number(view.target, words))
    above = round(target_y) - label_h - 4
    layout.label(
        "target",
        plot.x0 + 8,
        above if above >= plot.y0 else round(target_y) + 4,
        target,
        READ_BOLD,
        chosen.target,
    )
    for seat, series in zip(view.seats, totals, strict=True):
        colour = player_colour(chosen, seat.seat)
        points = [(to_x(r), to_y(v)) for r, v in enumerate(series)]
        if len(points) > 1:
            layout.line(points, colour, LINE)
        for px, py in points:
            layout.dot(round(px), round(py), POINT, colour)
    y = plot.y1 + 44 + 18
    if not view.rounds:
        layout.label(
            "empty",
            plot.x0 + 20,
            plot.y0 + plot.height // 2,
            words("picture.chart.empty"),
            READ,
            chosen.muted,
        )
    y = _legend(layout, view, totals, names, y, words)
    layout.height = y + MARGIN
    return layout


def _legend(
    layout: Layout,
    view: GameView,
    totals: Sequence[Sequence[int]],
    names: Mapping[str, str] | None,
    y: int,
    words: Words,
) -> int:
    """A swatch, the name and the final total for each player, wrapping as needed."""
    theme = layout.theme
    flow = Flow(MARGIN, y, WIDTH - 2 * MARGIN, 28, 10)
    height = line_height(READ)
    winners = set(view.winners)
    for seat, series in zip(view.seats, totals, strict=True):
        name = fit(display_name(seat.player, names), READ, 320)
        star = "★ " if seat.player in winners else ""
        text = f"{star}{name}  {number(series[-1], words)}"
        width = text_width(text, READ) + 24
        x, ey = flow.place(width, height)
        layout.dot(x + 7, ey + height // 2, 14, player_colour(theme, seat.seat))
        layout.label(f"legend:{seat.seat}", x + 24, ey, text, READ, theme.text)
    return flow.bottom
