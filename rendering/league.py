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
    HEADING,
    MARGIN,
    RADIUS,
    READ,
    READ_BOLD,
    TITLE,
    WIDTH,
    number,
)
from rendering.text import FontSpec, break_lines, line_height, text_width
from rendering.theme import INK_BLACK, MEDALS, get_theme
from rendering.words import ENGLISH_WORDS, Words

ROW_HEIGHT = 50
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


def rating_text(rating: float, words: Words = ENGLISH_WORDS) -> str:
    return words.number(round(rating)) if abs(rating) >= 100 else words.number(rating, 1)


def percent(rate: float, words: Words = ENGLISH_WORDS) -> str:
    return words("picture.percent", value=words.number(round(rate * 100)))


def render_standings(
    rows: Sequence[StandingRow],
    *,
    title: str,
    page: int = 1,
    pages: int = 1,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> bytes:
    """The standings as PNG bytes, in ``words`` (the channel's language)."""
    layout = layout_standings(rows, title=title, page=page, pages=pages, theme=theme, words=words)
    return to_png(paint(layout), layout.theme)


def render_player_card(
    card: PlayerCard, *, theme: str = "dark", words: Words = ENGLISH_WORDS
) -> bytes:
    layout = layout_player_card(card, theme=theme, words=words)
    return to_png(paint(layout), layout.theme)


COLUMNS = ("Games", "Wins", "Win %", "Rating", "For", "Against")
"""The number columns, left to right."""
KEPT_FIRST = ("Rating", "Games", "Wins", "Win %", "For", "Against")
"""The order columns are kept in when not all fit beside the names at the floor's size:
the last ones are left out first (the text posted with the picture has them all)."""
NAME_ROOM = 300
"""The least room the names keep; columns are left out before names get less."""
COLUMN_GAP = 20


_HEADINGS = {
    "Games": "picture.league.games",
    "Wins": "picture.league.wins",
    "Win %": "picture.league.win_rate",
    "Rating": "picture.league.rating",
    "For": "picture.league.for",
    "Against": "picture.league.against",
}


def _cells(row: StandingRow, words: Words) -> tuple[str, ...]:
    return (
        number(row.games, words),
        number(row.wins, words),
        percent(row.win_rate, words),
        rating_text(row.rating, words),
        number(row.points_for, words),
        number(row.points_against, words),
    )


def _column_width(heading: str, rows: Sequence[StandingRow], words: Words) -> int:
    """As wide as the column's head or its widest number, and a gap before it."""
    at = COLUMNS.index(heading)
    spec = READ_BOLD
    widest = max(text_width(_cells(r, words)[at], spec) for r in rows)
    return max(widest, text_width(words(_HEADINGS[heading]), spec)) + COLUMN_GAP


def _columns(
    rows: Sequence[StandingRow], name_x: int, words: Words
) -> tuple[list[tuple[str, int]], int]:
    """The columns shown, left to right, each with its right edge, and where the first
    begins: as many as leave the names :data:`NAME_ROOM`, in the order of
    :data:`KEPT_FIRST`."""
    widths = {h: _column_width(h, rows, words) for h in COLUMNS}
    kept = list(KEPT_FIRST)
    while kept and sum(widths[h] for h in kept) > WIDTH - MARGIN - 12 - name_x - NAME_ROOM:
        kept.pop()
    shown = [h for h in COLUMNS if h in kept]
    edges, edge = [], WIDTH - MARGIN - 12
    for heading in reversed(shown):
        edges.append((heading, edge))
        edge -= widths[heading]
    return list(reversed(edges)), edge


def layout_standings(
    rows: Sequence[StandingRow],
    *,
    title: str,
    page: int = 1,
    pages: int = 1,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, WIDTH)
    y = MARGIN
    right = WIDTH - MARGIN
    if pages > 1:
        of = words("picture.league.page", page=words.number(page), pages=words.number(pages))
        box = layout.label("page", right, y + 8, of, READ, chosen.muted, align="right")
        right = box.x0 - 16
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=right - MARGIN)
    y += line_height(TITLE) + 16
    if not rows:
        layout.label("empty", MARGIN, y, words("picture.league.empty"), READ, chosen.muted)
        layout.height = y + line_height(READ) + MARGIN
        return layout
    name_x = MARGIN + 64
    columns, columns_left = _columns(rows, name_x, words)
    layout.label("head:place", MARGIN + 12, y, "#", READ_BOLD, chosen.muted)
    player = words("picture.league.player")
    layout.label("head:name", name_x, y, player, READ_BOLD, chosen.muted)
    for heading, edge in columns:
        text = words(_HEADINGS[heading])
        layout.label(f"head:{heading}", edge, y, text, READ_BOLD, chosen.muted, align="right")
    y += line_height(READ_BOLD) + 6
    name_room = columns_left - name_x
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
            mid - line_height(READ_BOLD) // 2,
            words.number(row.place),
            READ_BOLD,
            ink,
            align="center",
        )
        layout.label(
            f"name:{i}",
            name_x,
            mid - line_height(READ_BOLD) // 2,
            row.name,
            READ_BOLD,
            chosen.text,
            max_width=name_room,
        )
        cells = dict(zip(COLUMNS, _cells(row, words), strict=True))
        for heading, edge in columns:
            value = cells[heading]
            spec = READ_BOLD if heading == "Rating" else READ
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


def layout_player_card(
    card: PlayerCard, *, theme: str = "dark", words: Words = ENGLISH_WORDS
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, CARD_WIDTH)
    y = MARGIN
    right = CARD_WIDTH - MARGIN
    rating = layout.label(
        "rating", right, y, rating_text(card.rating, words), BIG, chosen.accent, align="right"
    )
    caption = words("picture.league.rating_caption")
    layout.label("rating:caption", right, rating.y1, caption, READ, chosen.muted, align="right")
    room = rating.x0 - 24 - MARGIN
    name_y = y + 6
    for n, line in enumerate(break_lines(card.name, TITLE, room)):  # a name is never cut
        layout.label(
            "name" if n == 0 else f"name:line{n + 1}", MARGIN, name_y, line, TITLE, chosen.text
        )
        name_y += line_height(TITLE)
    record = words(
        "picture.league.record",
        games=words.count("picture.games", card.games),
        wins=words.count("picture.wins", card.wins),
        rate=percent(card.win_rate, words),
    )
    layout.label(
        "record",
        MARGIN,
        name_y,
        record,
        READ,
        chosen.muted,
        max_width=room,
    )
    y = max(rating.y1 + line_height(READ), name_y + line_height(READ)) + 12

    stats = (
        (words("picture.league.rounds_won"), number(card.rounds_won, words)),
        (words("picture.league.points_for"), number(card.points_for, words)),
        (words("picture.league.points_against"), number(card.points_against, words)),
        (words("picture.league.average_place"), words.number(card.avg_place, 1)),
    )
    gap = 12
    # Four tiles in a row when every caption fits one, else two rows of two: a caption is
    # never cut.
    across = len(stats)
    widest = max(max(text_width(c, READ), text_width(v, HEADING)) for c, v in stats)
    if widest + 28 > (CARD_WIDTH - 2 * MARGIN - gap * (across - 1)) // across:
        across = 2
    tile_w = (CARD_WIDTH - 2 * MARGIN - gap * (across - 1)) // across
    tile_h = line_height(HEADING) + line_height(READ) + 20
    for i, (caption, value) in enumerate(stats):
        x = MARGIN + i % across * (tile_w + gap)
        if i and i % across == 0:
            y += tile_h + gap
        layout.rect(Box(x, y, x + tile_w, y + tile_h), chosen.panel, radius=RADIUS)
        layout.label(
            f"stat:{i}", x + 14, y + 10, value, HEADING, chosen.text, max_width=tile_w - 28
        )
        layout.label(
            f"stat:{i}:caption",
            x + 14,
            y + 12 + line_height(HEADING),
            caption,
            READ,
            chosen.muted,
            max_width=tile_w - 28,
        )
    y += tile_h + 14

    layout.label("recent", MARGIN, y, words("picture.league.recent"), READ_BOLD, chosen.muted)
    y += line_height(READ_BOLD) + 8
    if not card.recent:
        layout.label(
            "recent:none", MARGIN, y, words("picture.league.recent_none"), READ, chosen.muted
        )
        y += line_height(READ)
    x = MARGIN
    for i, game in enumerate(card.recent):
        won = game.place == 1
        places = f"{words.number(game.place)}/{words.number(game.players)}"  # places stay small
        text = f"{'★ ' if won else ''}{places}"
        if x + text_width(text, READ_BOLD) + 2 * PILL > CARD_WIDTH - MARGIN:
            break  # older games do not fit
        pill = layout.label(
            f"game:{i}",
            x,
            y,
            text,
            READ_BOLD,
            chosen.on_accent if won else chosen.text,
            background=chosen.accent if won else chosen.panel_alt,
            pad=PILL,
        )
        x = pill.x1 + 8
    if card.recent:
        y += pill_height(READ_BOLD, PILL)
    layout.height = y + MARGIN
    return layout
