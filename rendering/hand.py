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
from rendering.style import HEADING, MARGIN, READ, READ_BOLD, WIDTH
from rendering.text import line_height, text_width
from rendering.theme import RGB, Theme, get_theme
from rendering.words import ENGLISH_WORDS, Words

SIZE = CardSize(96, 134)
STEP = 58
"""Fan step: wider than the corner index so a tag above each card fits."""
MIN_STEP = SIZE.strip + 4
PER_ROW = (WIDTH - 2 * MARGIN - SIZE.width) // MIN_STEP + 1
"""Cards in a row, as close as their corners allow, before a second row starts."""
RAISE = 14
MARK_PAD = 6
MARK = READ_BOLD
TITLE = HEADING
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
    view: GameView,
    *,
    sort_by: str = "suit",
    theme: str = "dark",
    four_colour: bool = False,
    words: Words = ENGLISH_WORDS,
) -> bytes:
    """The viewer's hand as PNG bytes, its texts in ``words`` (the owner's language)."""
    layout = layout_hand(view, sort_by=sort_by, theme=theme, four_colour=four_colour, words=words)
    return to_png(paint(layout), layout.theme)


def sorted_hand(hand: Sequence[Card], sort_by: str = "suit") -> list[Card]:
    """The hand in the order it is drawn and numbered, so commands can use the numbers."""
    try:
        key = SORTS[sort_by]
    except KeyError:
        raise ValueError(f"sort_by must be one of {', '.join(SORTS)}, not {sort_by!r}") from None
    return sorted(hand, key=key)


Mark = tuple[str, str, str, RGB, Callable[[Card], bool]]
"""(tag, word, meaning, colour, test): ``tag`` names the labels, ``word`` is read."""


def _marks(view: GameView, theme: Theme, words: Words) -> list[Mark]:
    """The kinds of marked card, in the order shown."""
    drawn = set(view.drawn)

    def mark(tag: str, colour: RGB, test: Callable[[Card], bool]) -> Mark:
        key = f"picture.mark.{tag.lower()}"
        return (tag, words(key), words(f"{key}_meaning"), colour, test)

    return [
        mark("NEW", theme.mark_new, lambda c: c in drawn),
        mark("KEEP", theme.mark_keep, lambda c: c == view.no_discard),
        mark("USE", theme.mark_use, lambda c: c == view.must_use),
    ]


SORT_WORDS = {"suit": "picture.hand.by_suit", "rank": "picture.hand.by_rank"}


def layout_hand(
    view: GameView,
    *,
    sort_by: str = "suit",
    theme: str = "dark",
    four_colour: bool = False,
    words: Words = ENGLISH_WORDS,
) -> Layout:
    chosen = get_theme(theme)
    cards = sorted_hand(view.hand, sort_by)
    rows = max(1, math.ceil(len(cards) / PER_ROW))
    per_row = max(1, math.ceil(len(cards) / rows))
    step = STEP if per_row < 2 else min(STEP, (WIDTH - 2 * MARGIN - SIZE.width) // (per_row - 1))
    layout = Layout(chosen, WIDTH)
    marks = _marks(view, chosen, words)
    new = marks[0]
    calm = sum(1 for c in cards if new[4](c)) > CALM
    barred = {c for c in cards if calm and new[4](c)}
    tagged = marks[1:] if calm else marks
    marked = {c: [m for m in tagged if m[4](c)] for c in cards}

    y = MARGIN
    title = words("picture.hand.title", cards=words.count("picture.cards", len(cards)))
    order = words(SORT_WORDS[sort_by])
    right = layout.label("order", WIDTH - MARGIN, y + 2, order, READ, chosen.muted, align="right")
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=right.x0 - 12 - MARGIN)
    y += line_height(TITLE) + 10
    mark_h = line_height(MARK) + MARK_PAD
    index_h = line_height(READ_BOLD)
    row_h = STACK * (mark_h + 4) + RAISE + SIZE.height + 6 + index_h + 12
    legend_h = STACK * (mark_h + 8) + 4  # two lines hold every kind of tag
    layout.height = y + rows * row_h + legend_h + MARGIN - 12
    if not cards:
        layout.label(
            "empty", MARGIN, y + row_h // 3, words("picture.hand.empty"), READ, chosen.muted
        )
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
                layout.rect(bar, new[3], radius=BAR // 2)
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
        meaning = words.count("picture.mark.new_barred", len(barred))
        shown.insert(0, (new[0], new[1], meaning, new[3], new[4]))
    _legend(layout, shown, y, words)
    return layout


def _stacked(marks: Sequence[Mark]) -> list[tuple[str, str, RGB]]:
    """(name, letters, colour) of the tags over one card, at most ``STACK`` high: further
    tags share the last one's pill (a card the engine never makes: both kept and to use)."""
    tags = [(tag, word[0], colour) for tag, word, _, colour, _ in marks]
    if len(tags) > STACK:
        rest = tags[STACK - 1 :]
        merged = ("+".join(t[0] for t in rest), "".join(t[1] for t in rest), rest[0][2])
        tags = [*tags[: STACK - 1], merged]
    return tags


def _legend(layout: Layout, marks: Sequence[Mark], y: int, words: Words) -> None:
    """Each kind of tag present: its letter, then its word and meaning, side by side while
    they fit, so two lines hold them all; on the last line, texts too long for a language
    share what room is left in proportion and are cut."""
    theme = layout.theme
    right = layout.width - MARGIN
    texts = [words("picture.mark.legend", word=m[1].lower(), meaning=m[2]) for m in marks]
    wants = [
        text_width(m[1][0], MARK) + 2 * MARK_PAD + 10 + text_width(text, READ)
        for m, text in zip(marks, texts, strict=True)
    ]
    x, line = MARGIN, 0
    for i, ((tag, word, _, colour, _), text) in enumerate(zip(marks, texts, strict=True)):
        if x > MARGIN and x + wants[i] > right and line < STACK - 1:
            x, y, line = MARGIN, y + line_height(MARK) + MARK_PAD + 8, line + 1
        pill = layout.label(
            f"legend:{tag}", x, y, word[0], MARK, theme.on_accent, background=colour, pad=MARK_PAD
        )
        text_y = pill.y0 + (pill.height - line_height(READ)) // 2
        room = right - pill.x1 - 10
        later = sum(want + 28 for want in wants[i + 1 :])
        if line == STACK - 1 and x + wants[i] + later > right:
            room = max(40, (right - x) * wants[i] // (wants[i] + later) - (pill.x1 + 10 - x))
        box = layout.label(
            f"legend:{tag}:text", pill.x1 + 10, text_y, text, READ, theme.text, max_width=room
        )
        x = box.x1 + 28
