"""The picture of one player's hand, sent to them privately.

Cards are fanned wide enough that each corner reads at phone size, with a number under each
so a player can name a card by position. Marked cards stand a little higher with a coloured
one-letter tag above them (a word would be wider than the card's corner at a size a phone
can show), and a legend under the hand says what each tag means. After a deep take from a
Rummy 500 pile, many cards are new at once: they get a flat bar above them instead of
raised cards and a row of tags, so the hand stays calm to read.

The picture keeps one size while the hand changes during a turn, so the buttons and menus
under it do not move: it is always as wide as the other pictures, with room for two tags
above a card and two lines of legend, and it gets a second row of cards only past
``PER_ROW`` cards, which only a deep Rummy 500 take reaches.
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
from rendering.style import MARGIN, READ, READ_BOLD, WIDTH, plural
from rendering.text import FontSpec, line_height, text_width
from rendering.theme import RGB, Theme, get_theme

SIZE = CardSize(96, 134)
STEP = 58
"""Fan step: wider than the corner index so a tag above each card fits."""
MIN_STEP = SIZE.strip + 4
PER_ROW = (WIDTH - 2 * MARGIN - SIZE.width) // MIN_STEP + 1
"""Cards in a row, as close as their corners allow, before a second row starts."""
RAISE = 14
MARK_PAD = 6
MARK = READ_BOLD
TITLE = FontSpec(28, bold=True)
STACK = 2
"""Tags a card can carry at once (NEW with KEEP, or NEW with USE): the room kept above the
cards, and the lines kept for the legend."""
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
    step = STEP if per_row < 2 else min(STEP, (WIDTH - 2 * MARGIN - SIZE.width) // (per_row - 1))
    layout = Layout(chosen, WIDTH)
    marks = _marks(view, chosen)
    new = marks[0]
    calm = sum(1 for c in cards if new[3](c)) > CALM
    barred = {c for c in cards if calm and new[3](c)}
    tagged = marks[1:] if calm else marks
    marked = {c: [m for m in tagged if m[3](c)] for c in cards}

    y = MARGIN
    title = f"Your hand · {plural(len(cards), 'card')}"
    order = f"by {sort_by}"
    right = layout.label("order", WIDTH - MARGIN, y + 2, order, READ, chosen.muted, align="right")
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=right.x0 - 12 - MARGIN)
    y += line_height(TITLE) + 10
    mark_h = line_height(MARK) + MARK_PAD
    index_h = line_height(READ_BOLD)
    row_h = STACK * (mark_h + 4) + RAISE + SIZE.height + 6 + index_h + 12
    legend_h = STACK * (mark_h + 8) + 4  # two lines hold every kind of tag
    layout.height = y + rows * row_h + legend_h + MARGIN - 12
    if not cards:
        layout.label("empty", MARGIN, y + row_h // 3, "no cards in hand", READ, chosen.muted)
        return layout

    for row in range(rows):
        row_cards = cards[row * per_row : (row + 1) * per_row]
        top = y + STACK * (mark_h + 4)
        for i, card in enumerate(row_cards):
            n = row * per_row + i + 1
            x = MARGIN + i * step
            lift = RAISE if marked[card] else 0
            card_top = top + RAISE - lift
            layout.card(CardArt.of(card, SIZE, chosen.name, four_colour), x, card_top)
            tag_y = card_top - 4
            if card in barred:
                bar = Box(x + 2, card_top - BAR - 4, x + step - 4, card_top - 4)
                layout.rect(bar, new[2], radius=BAR // 2)
                tag_y -= BAR + 2
            for tag, letters, colour in _stacked(marked[card]):
                tag_y -= mark_h
                layout.label(
                    f"mark:{n}:{tag}",
                    x,
                    tag_y,
                    letters,
                    MARK,
                    chosen.on_accent,
                    background=colour,
                    pad=MARK_PAD,
                )
                tag_y -= 4
            cx = x + SIZE.strip // 2 + 2  # under the corner index
            layout.label(
                f"index:{n}",
                cx,
                top + RAISE + SIZE.height + 6,
                str(n),
                READ_BOLD,
                chosen.muted,
                align="center",
            )
        y += row_h

    shown = [m for m in tagged if any(m in ms for ms in marked.values())]
    if barred:
        meaning = f"just drawn, the {len(barred)} cards with a bar above"
        shown.insert(0, (new[0], meaning, new[2], new[3]))
    _legend(layout, shown, y)
    return layout


def _stacked(
    marks: Sequence[tuple[str, str, RGB, Callable[[Card], bool]]],
) -> list[tuple[str, str, RGB]]:
    """(name, letters, colour) of the tags over one card, at most ``STACK`` high: further
    tags share the last one's pill (a card the engine never makes: both kept and to use)."""
    tags = [(tag, tag[0], colour) for tag, _, colour, _ in marks]
    if len(tags) > STACK:
        rest = tags[STACK - 1 :]
        merged = ("+".join(t[0] for t in rest), "".join(t[1] for t in rest), rest[0][2])
        tags = [*tags[: STACK - 1], merged]
    return tags


def _legend(
    layout: Layout, marks: Sequence[tuple[str, str, RGB, Callable[[Card], bool]]], y: int
) -> None:
    """Each kind of tag present: its letter, then its word and meaning, side by side while
    they fit, so two lines hold them all."""
    theme = layout.theme
    x = MARGIN
    for tag, meaning, colour, _ in marks:
        text = f"{tag.lower()}: {meaning}"
        pill_w = text_width(tag[0], MARK) + 2 * MARK_PAD
        wanted = pill_w + 10 + text_width(text, READ)
        if x > MARGIN and x + wanted > layout.width - MARGIN:
            x, y = MARGIN, y + line_height(MARK) + MARK_PAD + 8
        pill = layout.label(
            f"legend:{tag}", x, y, tag[0], MARK, theme.on_accent, background=colour, pad=MARK_PAD
        )
        text_y = pill.y0 + (pill.height - line_height(READ)) // 2
        room = layout.width - MARGIN - pill.x1 - 10
        box = layout.label(
            f"legend:{tag}:text", pill.x1 + 10, text_y, text, READ, theme.text, max_width=room
        )
        x = box.x1 + 28
