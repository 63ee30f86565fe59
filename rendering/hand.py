"""The picture of one player's hand, sent to them privately.

Cards are fanned wide enough that each corner reads at phone size, with a number under each
so a player can name a card by position. Marked cards stand a little higher with a coloured
tag above them, and a legend under the hand says what each tag means. After a deep take
from a Rummy 500 pile, many cards are new at once: they get a flat bar above them instead of
raised cards and a row of tags, so the hand stays calm to read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bot.rummy.cards import Card
from bot.rummy.views import GameView
from rendering.encode import to_png
from rendering.layout import Box, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import HEADING, MARGIN, SMALL, SMALL_BOLD, plural
from rendering.text import FontSpec, line_height
from rendering.theme import RGB, Theme, get_theme

SIZE = CardSize(96, 134)
STEP = 58
"""Fan step: wider than the corner index so a tag above each card fits."""
PER_ROW = 15
RAISE = 14
MIN_WIDTH = 560
MARK_PAD = 4
MARK = FontSpec(15, bold=True)
CALM = 3
"""More new cards than this are shown with a bar rather than a raised card and a tag."""
BAR = 6

SORTS: dict[str, Callable[[Card], tuple[int, int, int]]] = {
    "suit": lambda c: c.sort_key,
    "rank": lambda c: c.rank_sort_key,
}


def render_hand(
    view: GameView, *, sort_by: str = "suit", theme: str = "dark", four_colour: bool = False
) -> bytes:
    """The viewer's hand as PNG bytes."""
    layout = layout_hand(view, sort_by=sort_by, theme=theme, four_colour=four_colour)
    return to_png(paint(layout), layout.theme)


def sorted_hand(hand: Sequence[Card], sort_by: str = "suit") -> list[Card]:
    """The hand in the order it is drawn and numbered, so commands can use the numbers."""
    try:
        key = SORTS[sort_by]
    except KeyError:
        raise ValueError(f"sort_by must be one of {', '.join(SORTS)}, not {sort_by!r}") from None
    return sorted(hand, key=key)


def _marks(view: GameView, theme: Theme) -> list[tuple[str, str, RGB, Callable[[Card], bool]]]:
    """(tag, meaning, colour, test) for each kind of marked card, in the order shown."""
    drawn = set(view.drawn)
    return [
        ("NEW", "just drawn", theme.mark_new, lambda c: c in drawn),
        ("KEEP", "may not be discarded this turn", theme.mark_keep, lambda c: c == view.no_discard),
        ("USE", "must be melded or laid off now", theme.mark_use, lambda c: c == view.must_use),
    ]


def layout_hand(
    view: GameView, *, sort_by: str = "suit", theme: str = "dark", four_colour: bool = False
) -> Layout:
    chosen = get_theme(theme)
    cards = sorted_hand(view.hand, sort_by)
    rows = max(1, math.ceil(len(cards) / PER_ROW))
    per_row = max(1, math.ceil(len(cards) / rows))
    fan_w = SIZE.fan_width(min(per_row, len(cards)), STEP)
    width = max(MIN_WIDTH, fan_w + 2 * MARGIN)
    layout = Layout(chosen, width)
    marks = _marks(view, chosen)
    new = marks[0]
    calm = sum(1 for c in cards if new[3](c)) > CALM
    barred = {c for c in cards if calm and new[3](c)}
    tagged = marks[1:] if calm else marks
    marked = {c: [m for m in tagged if m[3](c)] for c in cards}
    stack = max((len(m) for m in marked.values()), default=0)

    y = MARGIN
    title = f"Your hand · {plural(len(cards), 'card')}"
    order = f"by {sort_by}"
    right = layout.label("order", width - MARGIN, y + 6, order, SMALL, chosen.muted, align="right")
    layout.label("title", MARGIN, y, title, HEADING, chosen.text, max_width=right.x0 - 12 - MARGIN)
    y += line_height(HEADING) + 14
    if not cards:
        layout.label("empty", MARGIN, y, "no cards in hand", SMALL, chosen.muted)
        layout.height = y + line_height(SMALL) + MARGIN
        return layout

    mark_h = line_height(MARK) + MARK_PAD
    index_h = line_height(SMALL_BOLD)
    for row in range(rows):
        row_cards = cards[row * per_row : (row + 1) * per_row]
        top = y + stack * (mark_h + 4) + (BAR + 2 if barred else 0)
        for i, card in enumerate(row_cards):
            n = row * per_row + i + 1
            x = MARGIN + i * STEP
            lift = RAISE if marked[card] else 0
            layout.card(CardArt.of(card, SIZE, chosen.name, four_colour), x, top + RAISE - lift)
            card_top = top + RAISE - lift
            tag_y = card_top - 4
            if card in barred:
                bar = Box(x + 2, card_top - BAR - 4, x + STEP - 4, card_top - 4)
                layout.rect(bar, new[2], radius=BAR // 2)
                tag_y -= BAR + 2
            for tag, _, colour, _ in marked[card]:
                tag_y -= mark_h
                layout.label(
                    f"mark:{n}:{tag}",
                    x,
                    tag_y,
                    tag,
                    MARK,
                    chosen.on_accent,
                    background=colour,
                    pad=MARK_PAD,
                    max_width=STEP - 4,
                )
                tag_y -= 4
            cx = x + SIZE.strip // 2 + 2  # under the corner index
            layout.label(
                f"index:{n}",
                cx,
                top + RAISE + SIZE.height + 6,
                str(n),
                SMALL_BOLD,
                chosen.muted,
                align="center",
            )
        y = top + RAISE + SIZE.height + 6 + index_h + 12

    shown = [m for m in tagged if any(m in ms for ms in marked.values())]
    if barred:
        meaning = f"just drawn: the {len(barred)} cards with a bar above"
        shown.insert(0, (new[0], meaning, new[2], new[3]))
    y = _legend(layout, shown, y)
    layout.height = y + MARGIN - 12
    return layout


def _legend(
    layout: Layout, marks: Sequence[tuple[str, str, RGB, Callable[[Card], bool]]], y: int
) -> int:
    """One line per kind of tag present: the tag, then what it means."""
    theme = layout.theme
    for tag, meaning, colour, _ in marks:
        pill = layout.label(
            f"legend:{tag}", MARGIN, y, tag, MARK, theme.on_accent, background=colour, pad=MARK_PAD
        )
        text_y = pill.y0 + (pill.height - line_height(SMALL)) // 2
        room = layout.width - MARGIN - pill.x1 - 10
        layout.label(
            f"legend:{tag}:text", pill.x1 + 10, text_y, meaning, SMALL, theme.text, max_width=room
        )
        y = pill.y1 + 8
    return y + 4 if marks else y
