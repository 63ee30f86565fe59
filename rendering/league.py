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
from rendering.words import ENGLISH_WORDS, Words

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
_ROOMS = {h: w for (h, _), (_, w) in zip(_WIDTHS, (*_WIDTHS[1:], ("", 80)), strict=True)}
"""A heading's room: to the numbers of the column on its left."""
_COLUMNS = tuple(reversed([(h, e) for (h, _), e in zip(_WIDTHS, _EDGES, strict=True)]))


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
        box = layout.label("page", right, y + 8, of, BODY, chosen.muted, align="right")
        right = box.x0 - 16
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=right - MARGIN)
    y += line_height(TITLE) + 16
    if not rows:
        layout.label("empty", MARGIN, y, words("picture.league.empty"), BODY, chosen.muted)
        layout.height = y + line_height(BODY) + MARGIN
        return layout
    name_x = MARGIN + 64
    layout.label("head:place", MARGIN + 12, y, "#", SMALL_BOLD, chosen.muted)
    player = words("picture.league.player")
    layout.label("head:name", name_x, y, player, SMALL_BOLD, chosen.muted)
    for heading, edge in _COLUMNS:
        text = words(_HEADINGS[heading])
        room = _ROOMS[heading] - 8  # up to the next column's numbers
        layout.label(
            f"head:{heading}",
            edge,
            y,
            text,
            SMALL_BOLD,
            chosen.muted,
            align="right",
            max_width=room,
        )
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
            words.number(row.place),
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
        for (heading, edge), value in zip(_COLUMNS, _cells(row, words), strict=True):
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
    layout.label("rating:caption", right, rating.y1, caption, SMALL, chosen.muted, align="right")
    layout.label(
        "name", MARGIN, y + 6, card.name, TITLE, chosen.text, max_width=rating.x0 - 24 - MARGIN
    )
    record = words(
        "picture.league.record",
        games=words.count("picture.games", card.games),
        wins=words.count("picture.wins", card.wins),
        rate=percent(card.win_rate, words),
    )
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
        (words("picture.league.rounds_won"), number(card.rounds_won, words)),
        (words("picture.league.points_for"), number(card.points_for, words)),
        (words("picture.league.points_against"), number(card.points_against, words)),
        (words("picture.league.average_place"), words.number(card.avg_place, 1)),
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

    layout.label("recent", MARGIN, y, words("picture.league.recent"), SMALL_BOLD, chosen.muted)
    y += line_height(SMALL_BOLD) + 8
    if not card.recent:
        layout.label(
            "recent:none", MARGIN, y, words("picture.league.recent_none"), SMALL, chosen.muted
        )
        y += line_height(SMALL)
    x = MARGIN
    for i, game in enumerate(card.recent):
        won = game.place == 1
        places = f"{words.number(game.place)}/{words.number(game.players)}"  # places stay small
        text = f"{'★ ' if won else ''}{places}"
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
