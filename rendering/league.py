"""League pictures: a page of the standings, and one player's card.

The figures come from storage, which rendering must not import, so the inputs are small
frozen values defined here; the league commands fill them from their queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rendering.encode import to_png
from rendering.layout import Box, Layout, pill_height
from rendering.paint import paint
from rendering.style import (
    BODY,
    BODY_BOLD,
    HEADING,
    MARGIN,
    RADIUS,
    SMALL,
    SMALL_BOLD,
    TAG,
    TITLE,
    WIDTH,
    number,
)
from rendering.text import FontSpec, line_height, text_width
from rendering.theme import INK_BLACK, MEDALS, get_theme

ROW_HEIGHT = 48
PILL = 10
BIG = FontSpec(44, bold=True)


@dataclass(frozen=True, slots=True)
class StandingRow:
    place: int
    name: str
    games: int
    wins: int
    win_rate: float
    """0 to 1."""
    rating: float
    points_for: int
    points_against: int


@dataclass(frozen=True, slots=True)
class RecentGame:
    place: int
    players: int


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    games: int
    wins: int
    win_rate: float
    """0 to 1."""
    rounds_won: int
    points_for: int
    points_against: int
    avg_place: float
    rating: float
    recent: tuple[RecentGame, ...] = ()
    """Most recent first."""


def rating_text(rating: float) -> str:
    return number(round(rating)) if abs(rating) >= 100 else f"{rating:.1f}".replace("-", "−")


def percent(rate: float) -> str:
    return f"{round(rate * 100)}%"


def render_standings(
    rows: Sequence[StandingRow], *, title: str, page: int = 1, pages: int = 1, theme: str = "dark"
) -> bytes:
    layout = layout_standings(rows, title=title, page=page, pages=pages, theme=theme)
    return to_png(paint(layout), layout.theme)


def render_player_card(card: PlayerCard, *, theme: str = "dark") -> bytes:
    layout = layout_player_card(card, theme=theme)
    return to_png(paint(layout), layout.theme)


# The number columns, right to left: heading and width.
_WIDTHS = (
    ("Against", 0),
    ("For", 110),
    ("Rating", 90),
    ("Win %", 100),
    ("Wins", 80),
    ("Games", 80),
)
_EDGES = [WIDTH - MARGIN - 12]
for _, _width in _WIDTHS[1:]:
    _EDGES.append(_EDGES[-1] - _width)
_COLUMNS = tuple(reversed([(h, e) for (h, _), e in zip(_WIDTHS, _EDGES, strict=True)]))


def _cells(row: StandingRow) -> tuple[str, ...]:
    return (
        number(row.games),
        number(row.wins),
        percent(row.win_rate),
        rating_text(row.rating),
        number(row.points_for),
        number(row.points_against),
    )


def layout_standings(
    rows: Sequence[StandingRow], *, title: str, page: int = 1, pages: int = 1, theme: str = "dark"
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, WIDTH)
    y = MARGIN
    right = WIDTH - MARGIN
    if pages > 1:
        box = layout.label(
            "page", right, y + 8, f"page {page} of {pages}", BODY, chosen.muted, align="right"
        )
        right = box.x0 - 16
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=right - MARGIN)
    y += line_height(TITLE) + 16
    if not rows:
        layout.label("empty", MARGIN, y, "No games played yet", BODY, chosen.muted)
        layout.height = y + line_height(BODY) + MARGIN
        return layout
    name_x = MARGIN + 64
    layout.label("head:place", MARGIN + 12, y, "#", SMALL_BOLD, chosen.muted)
    layout.label("head:name", name_x, y, "Player", SMALL_BOLD, chosen.muted)
    for heading, edge in _COLUMNS:
        layout.label(f"head:{heading}", edge, y, heading, SMALL_BOLD, chosen.muted, align="right")
    y += line_height(SMALL_BOLD) + 6
    name_room = _COLUMNS[0][1] - 70 - name_x
    for i, row in enumerate(rows):
        fill = chosen.panel if i % 2 == 0 else chosen.panel_alt
        layout.rect(Box(MARGIN, y, WIDTH - MARGIN, y + ROW_HEIGHT), fill, radius=RADIUS)
        mid = y + ROW_HEIGHT // 2
        if 1 <= row.place <= len(MEDALS):
            layout.dot(MARGIN + 28, mid, 32, MEDALS[row.place - 1])
            ink = INK_BLACK
        else:
            ink = chosen.muted
        layout.label(
            f"place:{i}",
            MARGIN + 28,
            mid - line_height(BODY_BOLD) // 2,
            str(row.place),
            BODY_BOLD,
            ink,
            align="center",
        )
        layout.label(
            f"name:{i}",
            name_x,
            mid - line_height(BODY_BOLD) // 2,
            row.name,
            BODY_BOLD,
            chosen.text,
            max_width=name_room,
        )
        for (heading, edge), value in zip(_COLUMNS, _cells(row), strict=True):
            spec = BODY_BOLD if heading == "Rating" else BODY
            colour = chosen.text if heading == "Rating" else chosen.muted
            layout.label(
                f"{heading}:{i}",
                edge,
                mid - line_height(spec) // 2,
                value,
                spec,
                colour,
                align="right",
            )
        y += ROW_HEIGHT + 6
    layout.height = y - 6 + MARGIN
    return layout


CARD_WIDTH = 760


def layout_player_card(card: PlayerCard, *, theme: str = "dark") -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, CARD_WIDTH)
    y = MARGIN
    right = CARD_WIDTH - MARGIN
    rating = layout.label(
        "rating", right, y, rating_text(card.rating), BIG, chosen.accent, align="right"
    )
    layout.label("rating:caption", right, rating.y1, "rating", SMALL, chosen.muted, align="right")
    layout.label(
        "name", MARGIN, y + 6, card.name, TITLE, chosen.text, max_width=rating.x0 - 24 - MARGIN
    )
    record = f"{number(card.games)} games · {number(card.wins)} wins · {percent(card.win_rate)}"
    layout.label(
        "record",
        MARGIN,
        y + 6 + line_height(TITLE),
        record,
        BODY,
        chosen.muted,
        max_width=rating.x0 - 24 - MARGIN,
    )
    y = rating.y1 + line_height(SMALL) + 16

    stats = (
        ("Rounds won", number(card.rounds_won)),
        ("Points for", number(card.points_for)),
        ("Points against", number(card.points_against)),
        ("Average place", f"{card.avg_place:.1f}"),
    )
    gap = 12
    tile_w = (CARD_WIDTH - 2 * MARGIN - gap * (len(stats) - 1)) // len(stats)
    tile_h = line_height(HEADING) + line_height(SMALL) + 24
    for i, (caption, value) in enumerate(stats):
        x = MARGIN + i * (tile_w + gap)
        layout.rect(Box(x, y, x + tile_w, y + tile_h), chosen.panel, radius=RADIUS)
        layout.label(
            f"stat:{i}", x + 14, y + 10, value, HEADING, chosen.text, max_width=tile_w - 28
        )
        layout.label(
            f"stat:{i}:caption",
            x + 14,
            y + 12 + line_height(HEADING),
            caption,
            SMALL,
            chosen.muted,
            max_width=tile_w - 28,
        )
    y += tile_h + 18

    layout.label("recent", MARGIN, y, "Recent games", SMALL_BOLD, chosen.muted)
    y += line_height(SMALL_BOLD) + 8
    if not card.recent:
        layout.label("recent:none", MARGIN, y, "none yet", SMALL, chosen.muted)
        y += line_height(SMALL)
    x = MARGIN
    for i, game in enumerate(card.recent):
        won = game.place == 1
        text = f"{'★ ' if won else ''}{game.place}/{game.players}"  # places stay small
        if x + text_width(text, TAG) + 2 * PILL > CARD_WIDTH - MARGIN:
            break  # older games do not fit
        pill = layout.label(
            f"game:{i}",
            x,
            y,
            text,
            TAG,
            chosen.on_accent if won else chosen.text,
            background=chosen.accent if won else chosen.panel_alt,
            pad=PILL,
        )
        x = pill.x1 + 8
    if card.recent:
        y += pill_height(TAG, PILL)
    layout.height = y + MARGIN
    return layout
