"""The table picture everyone in the channel sees.

Discord fits a picture into its chat column (about 550×350 on a desktop, 360 wide on a
phone) and only a click shows it whole. So:

- The picture is as high as what it holds: a panel with no melds is its heading and one
  line, and the Rummy 500 pile gets a row of its own under the header only when the row
  beside the stock is full. Up to four players the table is at most :data:`ASPECT` of its
  width high (1.0 from five players), and within that a fuller table gets smaller meld
  cards. So the picture grows a little while a round fills the table, but never past its
  cap: a frame fixed at the fullest table's height would leave the early panels empty and
  make Discord shrink every table of the round into its 550×350 box, digits and all.
  :func:`table_size` is that cap, the most a table of the game can need.
- Every word and number is at least ``READ``'s size, the floor of :mod:`rendering.style`
  (8 pixels at phone width). A title too long for its room moves its second part (after
  " · ") to the line under it rather than cut a word; names in the panels and the order
  of play are cut only when even a line of their own is too short, and the message posted
  with the picture has them whole.
- The players' panels follow the order of play, left to right and top to bottom, and the
  header says who played before, whose turn it is and who plays next.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld
from bot.rummy.rules import Scoring
from bot.rummy.views import GameView, SeatView
from rendering.encode import to_png
from rendering.layout import Box, Flow, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import (
    INNER,
    MARGIN,
    MARK_MIN,
    PILL_PAD,
    RADIUS,
    READ,
    READ_BOLD,
    TITLE,
    WIDTH,
    game_name,
    game_over_text,
    number,
)
from rendering.text import (
    SEPARATOR,
    break_lines,
    break_widths,
    display_name,
    line_height,
    text_width,
)
from rendering.theme import INK_BLACK, Theme, get_theme, player_colour
from rendering.words import ENGLISH_WORDS, Words

SMALL_TABLE = 4
"""Up to this many players the panels stand in two columns, above it in three."""
ASPECT = {True: 0.65, False: 1.0}
"""The most a table may be high, as a share of its width: up to ``SMALL_TABLE`` players
(True) and above. A Rummy 500 pile's own row comes on top."""
CARD_WIDTHS = (72, 66, 62, 58, 54, 50, 46, 42)
"""Meld card widths tried in turn, largest first, until every panel's melds fit."""
CROWDED_WIDTHS = (50, 46, 42)
"""Tried after them, with ranks a share of the card (under the floor's size): a table so
full that no card at the floor keeps every meld in the picture shows them all smaller."""
PILE = CardSize(62, 87)
"""The stock and discard cards: the same size whatever the melds, so the header never moves."""

GAP = 10
PANEL_PAD = 10
MELD_GAP = 14
MELD_ROW_GAP = 4
DOT = MARK_MIN
PILE_GAP = 16
ROW_GAP = 6
BADGE_PAD = 5
BADGE_GAP = 4
TIGHT = 24
"""The closest meld cards may be to keep a meld on its row: the width of a rank's digits."""
ARROW_GAP = 8
DEEP_PILES = 520
"""Where the stock starts in Rummy 500, leaving the rest of the header to the pile."""
CLEAR = round(PILE.width * 0.62)
"""A covered pile card is cut here at most, left of its big suit mark, so no sliver of the
mark shows beside the next card."""


def render_table(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    four_colour: bool = False,
    words: Words = ENGLISH_WORDS,
) -> bytes:
    """The table as PNG bytes, its texts in ``words`` (the channel's language)."""
    layout = layout_table(view, names=names, theme=theme, four_colour=four_colour, words=words)
    return to_png(paint(layout), layout.theme)


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the parts of a table go, and the most room its panels may take."""

    columns: int
    rows: int
    panel_w: int
    header: int
    """The bottom of the header (title, order of play, piles)."""
    band: int
    """The top of a Rummy 500 pile's own row; equal to ``header`` when there is none."""
    body: int
    """The top of the players' panels."""
    body_h: int
    """The most the panels may take, their gaps included."""
    legend: int
    """The height of the lay-off legend's line; 0 when there is none."""


def table_size(view: GameView) -> tuple[int, int]:
    """The largest the table of ``view``'s game can be: every table of it fits this, so a
    replay's frames share one canvas."""
    deep = view.ruleset.deep_discard
    extra = _header_bottom(deep) - _header_bottom(False) + (_pile_row_h() + GAP if deep else 0)
    legend = _legend_h() if _dots(view) else 0
    return WIDTH, round(ASPECT[len(view.seats) <= SMALL_TABLE] * WIDTH) + extra + legend


def _header_bottom(deep: bool, texts: _HeaderTexts | None = None) -> int:
    """The bottom of the header; a Rummy 500 pile's row in it makes it higher, and so do
    texts that need more lines than a title, a pill and a line."""
    pills, lines = (len(texts.banner) or 1, len(texts.info)) if texts is not None else (1, 1)
    return MARGIN + max(
        line_height(TITLE) + pills * (_pill_h() + ROW_GAP) + ROW_GAP + lines * line_height(READ),
        line_height(READ_BOLD) + 4 + (_pile_row_h() - ROW_GAP if deep else PILE.height + 3),
    )


@dataclass(frozen=True, slots=True)
class _HeaderTexts:
    """The header's words left of the piles, in lines that fit there: no name is cut."""

    title: str
    banner: tuple[str, ...]
    """The game's result, a pill a line; none while the game is played."""
    info: tuple[str, ...]
    """What the title's line had no room for, then the target."""


def _header_texts(view: GameView, names: Mapping[str, str] | None, words: Words) -> _HeaderTexts:
    room = _left_room(view, words)
    title = words(
        "picture.table.title",
        round=words.number(view.round_no),
        game=game_name(view.ruleset, words),
    )
    # A title too long for its room keeps its first part and lends the rest (the game's
    # name) to the target's line, rather than cut it.
    first, *rest = break_lines(title, TITLE, room)
    banner: tuple[str, ...] = ()
    if view.is_over:
        banner = _banner_lines(game_over_text(view.winners, names, words), room)
    target = words("picture.table.target", target=number(view.target, words))
    info = tuple(break_lines(SEPARATOR.join([*rest, target]), READ, room, most=3))
    return _HeaderTexts(first, banner, info)


def _banner_lines(text: str, room: int) -> tuple[str, ...]:
    """The game's result in pills a line each: beside the piles as wide as ``room``, under
    them as wide as the table, so that a winner's name is never cut."""
    piles_bottom = MARGIN + line_height(READ_BOLD) + 4 + PILE.height + 3
    widths = []
    for n in range(5):
        top = MARGIN + line_height(TITLE) + ROW_GAP + n * (_pill_h() + ROW_GAP)
        widths.append((room if top < piles_bottom else INNER) - 2 * PILL_PAD)
    return tuple(break_widths(text, READ_BOLD, widths))


def _left_room(view: GameView, words: Words) -> int:
    """How wide the header's texts may be, left of the piles."""
    stock_w, discard_w = _pile_columns(words)
    piles_x = WIDTH - MARGIN - stock_w - PILE_GAP - discard_w
    if view.ruleset.deep_discard:
        piles_x = DEEP_PILES
    return piles_x - 24 - MARGIN


def _legend_h() -> int:
    return 8 + line_height(READ)


def _frame(view: GameView, words: Words, texts: _HeaderTexts) -> Frame:
    """The table's parts. The cap on its height is :data:`ASPECT` of its width, and what
    only Rummy 500 has comes on top: the pile's row in the header, its own row when the
    pile is deep, and the lay-off legend."""
    n = len(view.seats)
    columns = 2 if n <= SMALL_TABLE else 3
    rows = max(1, math.ceil(n / columns))
    panel_w = (INNER - GAP * (columns - 1)) // columns
    deep = view.ruleset.deep_discard
    header = _header_bottom(deep, texts)
    band = header + GAP
    own_row = deep and len(view.discard) > _header_holds(words)
    body = band + (_pile_row_h() + GAP if own_row else 0)
    legend = _legend_h() if _laid_off(view) else 0
    pile_rows = body - header + _header_bottom(deep) - _header_bottom(False) - GAP
    cap = round(ASPECT[n <= SMALL_TABLE] * WIDTH) + pile_rows
    body_h = cap - MARGIN - body
    return Frame(columns, rows, panel_w, header, band, body, body_h, legend)


def _laid_off(view: GameView) -> bool:
    """Whether a dot marks a card laid off by someone other than the meld's owner."""
    return _dots(view) and any(p.placed_by != m.owner for m in view.melds for p in m.cards)


def _dots(view: GameView) -> bool:
    """Who laid a card off changes the score only when melded cards count for their player
    (Rummy 500); elsewhere the dots would be noise."""
    return view.ruleset.scoring is Scoring.HAND


def _pill_h() -> int:
    return line_height(READ_BOLD) + PILL_PAD


def _pile_row_h() -> int:
    return PILE.height + 5 + _pill_h() - PILL_PAD + 6 + ROW_GAP


def layout_table(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    four_colour: bool = False,
    words: Words = ENGLISH_WORDS,
) -> Layout:
    """The table in its round's frame, with the largest meld cards that let every panel
    show all its melds; when even the smallest cannot, a panel says how many it leaves out."""
    chosen = get_theme(theme)
    texts = _header_texts(view, names, words)
    frame = _frame(view, words, texts)
    seats = list(view.seats)
    melds = {
        s.player: sorted((m for m in view.melds if m.owner == s.player), key=lambda m: m.id)
        for s in seats
    }
    inner = frame.panel_w - 2 * PANEL_PAD
    winners = frozenset(view.winners)
    headings = {
        lines: {
            s.player: _heading_h(
                s, view.is_over, winners, inner, display_name(s.player, names), lines, words
            )
            for s in seats
        }
        for lines in (1, 2)
    }
    plans, heights, lines = _fit(frame, seats, melds, headings, _dots(view), words)

    height = frame.body + sum(heights) + GAP * (len(heights) - 1) + frame.legend + MARGIN
    layout = Layout(chosen, WIDTH, height)
    _header(layout, view, names, texts, words)
    if view.ruleset.deep_discard:
        _deep_pile(layout, view.discard, four_colour, frame.band, words)

    panel = _Panel(layout, four_colour, view, names, frame, words, lines)
    y = frame.body
    for row in range(frame.rows):
        for column, seat in enumerate(seats[row * frame.columns : (row + 1) * frame.columns]):
            x = MARGIN + column * (frame.panel_w + GAP)
            heading = headings[lines][seat.player]
            panel.draw(seat, plans[seat.player], (x, y), heights[row], heading)
        y += heights[row] + GAP
    if panel.laid_off:
        y = y - GAP + 8
        layout.dot(MARGIN + DOT // 2, y + line_height(READ) // 2, DOT, chosen.muted)
        text = words("picture.table.legend")
        layout.label("legend", MARGIN + DOT + 8, y, text, READ, chosen.muted, max_width=INNER)
    return layout


# --- planning the melds --------------------------------------------------------------------


def _fit(
    frame: Frame,
    seats: Sequence[SeatView],
    melds: Mapping[str, Sequence[TableMeld]],
    by_lines: Mapping[int, Mapping[str, int]],
    dots: bool,
    words: Words,
) -> tuple[dict[str, _Plan], list[int], int]:
    """Each player's melds planned with the largest cards that fit, each panel row's
    height, and how many lines a name may take. Names take two lines where that keeps
    every meld in with cards whose ranks keep the floor's size, else one; then smaller
    cards are tried; with the smallest, what does not fit is left out."""
    inner = frame.panel_w - 2 * PANEL_PAD
    plans: dict[str, _Plan] = {}
    floor = [CardSize(w, round(w * 1.4)) for w in CARD_WIDTHS]
    crowded = [CardSize(w, round(w * 1.4), floor=False) for w in CROWDED_WIDTHS]
    for sizes in (floor, crowded):
        for lines in (2, 1):
            for size in sizes:
                plans = {p: _plan(ms, size, inner, dots) for p, ms in melds.items()}
                heights = _row_heights(frame, seats, plans, by_lines[lines])
                if heights is not None:
                    return plans, heights, lines
    headings = by_lines[1]
    rows = [
        [s.player for s in seats[row * frame.columns : (row + 1) * frame.columns]]
        for row in range(frame.rows)
    ]
    needs = [max(2 * PANEL_PAD + headings[p] + 8 + plans[p].height for p in r) for r in rows]
    # room for "+N more" at least
    leasts = [
        max(2 * PANEL_PAD + headings[p] + 8 + line_height(READ_BOLD) for p in r) for r in rows
    ]
    room = frame.body_h - GAP * (frame.rows - 1) - sum(leasts)
    extra = _shares([max(0, n - least) for n, least in zip(needs, leasts, strict=True)], room)
    heights = []
    for row, least, more in zip(rows, leasts, extra, strict=True):
        heights.append(least + more)
        for p in row:
            plans[p] = _cut(plans[p], heights[-1] - 2 * PANEL_PAD - headings[p] - 8, inner, words)
    return plans, heights, 1


def _shares(needs: Sequence[int], room: int) -> list[int]:
    """``room`` shared among rows that need ``needs``: a row that needs less than an even
    share gets what it needs, and what it leaves goes to the others, so only the fullest
    rows leave melds out."""
    shares = [0] * len(needs)
    left, waiting = max(0, room), sorted(range(len(needs)), key=lambda i: needs[i])
    while waiting:
        i = waiting.pop(0)
        shares[i] = min(needs[i], left // (len(waiting) + 1))
        left -= shares[i]
    return shares


@dataclass(frozen=True, slots=True)
class _Placed:
    meld: TableMeld
    x: int
    y: int
    step: int


@dataclass(frozen=True, slots=True)
class _Plan:
    """Where a panel's melds go, relative to the top left of its meld area."""

    size: CardSize
    placed: tuple[_Placed, ...]
    height: int
    dots: bool
    left_out: int = 0
    more_at: tuple[int, int] = (0, 0)


def _plan(melds: Sequence[TableMeld], size: CardSize, width: int, dots: bool) -> _Plan:
    with_dots = dots and any(p.placed_by != m.owner for m in melds for p in m.cards)
    flow = Flow(0, 0, width, MELD_GAP, MELD_ROW_GAP)
    placed = []
    for meld in melds:
        count = len(meld.cards)
        badge = _badge_w(meld.id, size)
        step = size.strip
        if badge + size.fan_width(count) > width and count > 1:
            step = max(6, (width - badge - size.width) // (count - 1))
        left = flow.right - flow.x
        if flow.x > flow.left and badge + size.fan_width(count, step) > left and count > 1:
            # closer cards keep the meld beside the one before, while every rank still shows
            closer = (left - badge - size.width) // (count - 1)
            if closer >= TIGHT:
                step = min(step, closer)
        x, y = flow.place(badge + size.fan_width(count, step), _block_h(size, with_dots))
        placed.append(_Placed(meld, x, y, step))
    height = flow.bottom if melds else line_height(READ)
    return _Plan(size, tuple(placed), height, with_dots)


@lru_cache(maxsize=256)
def _badge_w(meld_id: int, size: CardSize) -> int:
    """The room a meld's number takes left of its cards. Beside them, not on them: a number
    at the floor's size is taller than what is left of a small card under its corner, and
    under the cards it would make every row of melds higher. Cards whose ranks are under
    the floor (:data:`CROWDED_WIDTHS`) carry it on their first card, at its foot."""
    if not size.floor:
        return 0
    return text_width(str(meld_id), READ_BOLD) + 2 * BADGE_PAD + BADGE_GAP


@lru_cache(maxsize=32)
def _badge_top(size: CardSize) -> int:
    """Where a meld's number starts: at the top of its place beside the cards, or on the
    first card, past its corner index."""
    if size.floor:
        return 0
    return max(size.index_bottom + 2, size.height - _badge_h() - 3)


def _block_h(size: CardSize, dots: bool) -> int:
    below = DOT + 4 if dots and not _dots_on_cards(size) else 0
    return max(size.height, _badge_top(size) + _badge_h()) + 3 + below


def _dots_on_cards(size: CardSize) -> bool:
    """Whether a lay-off dot goes on its card, under the corner index, rather than in a row
    of its own under the meld: on a card with room for it there, which costs no height."""
    return size.floor and size.height - size.index_bottom >= DOT + 6


def _dot_y(size: CardSize) -> int:
    """The centre of a lay-off dot, from the top of its meld's cards."""
    if _dots_on_cards(size):
        return (size.index_bottom + size.height) // 2
    return _block_h(size, False) + DOT // 2 + 2


def _badge_h() -> int:
    return line_height(READ_BOLD) + BADGE_PAD


def _row_heights(
    frame: Frame,
    seats: Sequence[SeatView],
    plans: Mapping[str, _Plan],
    headings: Mapping[str, int],
) -> list[int] | None:
    """Each row of panels as high as its fullest panel; None when the rows do not fit the
    frame's room."""
    needs = []
    for row in range(frame.rows):
        in_row = seats[row * frame.columns : (row + 1) * frame.columns]
        needs.append(
            max(2 * PANEL_PAD + headings[s.player] + 8 + plans[s.player].height for s in in_row)
        )
    if frame.body_h - GAP * (frame.rows - 1) - sum(needs) < 0:
        return None
    return needs


def _more_text(count: int, words: Words) -> str:
    return words("picture.table.more", count=words.number(count))


def _cut(plan: _Plan, room: int, width: int, words: Words) -> _Plan:
    """The melds that fit ``room``, and a place after them to say how many are left out."""
    block = _block_h(plan.size, plan.dots)
    kept = [p for p in plan.placed if p.y + block <= room]
    if len(kept) == len(plan.placed):
        return plan
    label_h = line_height(READ_BOLD)
    while True:
        text_w = text_width(_more_text(len(plan.placed) - len(kept), words), READ_BOLD)
        if not kept:
            at = (0, 0)
            break
        last = kept[-1]
        fan = plan.size.fan_width(len(last.meld.cards), last.step)
        right = last.x + _badge_w(last.meld.id, plan.size) + fan + MELD_GAP
        if right + text_w <= width:
            at = (right, last.y + (block - label_h) // 2)
            break
        if last.y + block + 8 + label_h <= room:
            at = (0, last.y + block + 8)
            break
        kept.pop()
    return replace(
        plan, placed=tuple(kept), left_out=len(plan.placed) - len(kept), more_at=at, height=room
    )


# --- the header ----------------------------------------------------------------------------


def _pile_columns(words: Words) -> tuple[int, int]:
    """The widths of the stock's and the discard pile's columns: wide enough for any count."""
    stock = max(PILE.width, text_width(words("picture.table.stock", count="888"), READ_BOLD))
    discard = max(PILE.width, text_width(words("picture.table.discard", count="888"), READ_BOLD))
    return stock, discard


def _header(
    layout: Layout,
    view: GameView,
    names: Mapping[str, str] | None,
    texts: _HeaderTexts,
    words: Words,
) -> None:
    """The title, the order of play (or the game's result) and the target on the left, the
    piles on the right."""
    theme = layout.theme
    stock_w, _ = _pile_columns(words)
    room = _left_room(view, words)
    piles_x = room + 24 + MARGIN
    y = MARGIN
    layout.label("title", MARGIN, y, texts.title, TITLE, theme.text)
    y += line_height(TITLE) + ROW_GAP
    for n, line in enumerate(texts.banner):
        layout.label(
            "banner" if n == 0 else f"banner:line{n + 1}",
            MARGIN,
            y,
            line,
            READ_BOLD,
            theme.on_accent,
            background=theme.accent,
            pad=PILL_PAD,
        )
        y += _pill_h() + ROW_GAP
    if not texts.banner:
        if view.current is not None:
            _order(layout, view, names, y, room, words)
        y += _pill_h() + ROW_GAP
    for n, line in enumerate(texts.info):
        layout.label(
            "target" if n == 0 else f"target:line{n + 1}", MARGIN, y, line, READ, theme.muted
        )
        y += line_height(READ)
    _piles(layout, view, piles_x, stock_w, words)


def _order(
    layout: Layout,
    view: GameView,
    names: Mapping[str, str] | None,
    y: int,
    room: int,
    words: Words,
) -> None:
    """Who played before → whose turn it is → who plays next, on one line."""
    theme = layout.theme
    players = [s.player for s in view.seats]
    at = players.index(view.current) if view.current in players else 0
    before = display_name(players[at - 1], names)
    after = display_name(players[(at + 1) % len(players)], names)
    current = display_name(players[at], names)
    arrow = text_width("→", READ) + 2 * ARROW_GAP
    prev_w, next_w = text_width(before, READ), text_width(after, READ)
    side = max(prev_w, next_w)
    turn = words("picture.table.to_play", player=current)
    pill = text_width(turn, READ_BOLD) + 2 * PILL_PAD
    if prev_w + next_w + pill + 2 * arrow > room:  # "to play" goes first, then names are cut
        turn = f"▶ {current}"
        pill = text_width(turn, READ_BOLD) + 2 * PILL_PAD
    if prev_w + next_w + pill + 2 * arrow > room:
        side = (room - min(pill, room // 2) - 2 * arrow) // 2
        pill = room - min(prev_w, side) - min(next_w, side) - 2 * arrow
    # Each name is a label of its own, so a right-to-left name cannot carry an arrow
    # to its other side.
    text_y = y + PILL_PAD // 2
    box = layout.label("previous", MARGIN, text_y, before, READ, theme.muted, max_width=side)
    box = layout.label("arrow:before", box.x1 + ARROW_GAP, text_y, "→", READ, theme.muted)
    box = layout.label(
        "turn",
        box.x1 + ARROW_GAP,
        y,
        turn,
        READ_BOLD,
        theme.on_accent,
        max_width=pill,
        background=theme.accent,
        pad=PILL_PAD,
    )
    box = layout.label("arrow:after", box.x1 + ARROW_GAP, text_y, "→", READ, theme.text)
    layout.label("next", box.x1 + ARROW_GAP, text_y, after, READ, theme.text, max_width=side)


def _piles(layout: Layout, view: GameView, x: int, stock_w: int, words: Words) -> None:
    """The stock, then the discard pile's top card (in Rummy 500, the stock's and the pile's
    counts only: the pile has rows of its own, starting under them)."""
    theme = layout.theme
    card_y = MARGIN + line_height(READ_BOLD) + 4
    stock = words("picture.table.stock", count=number(view.stock_size, words))
    layout.label("stock", x, MARGIN, stock, READ_BOLD, theme.muted)
    if view.stock_size and not view.ruleset.deep_discard:
        layout.card(CardArt.card_back(PILE, theme.name), x, card_y)
    elif not view.ruleset.deep_discard:
        _empty_slot(layout, x, card_y, PILE)
    x += stock_w + PILE_GAP
    caption = words("picture.table.discard", count=number(view.discard_size, words))
    room = WIDTH - MARGIN - x
    layout.label("discard", x, MARGIN, caption, READ_BOLD, theme.muted, max_width=room)
    if view.ruleset.deep_discard:
        return
    if view.discard:
        layout.card(_art(view.discard[-1], PILE, theme, False), x, card_y)
    else:
        _empty_slot(layout, x, card_y, PILE)


def _depth_step() -> int:
    """Each pile card shows its corner and room for a two-digit depth under it."""
    return max(PILE.strip, text_width("88", READ_BOLD) + 6)


def _pile_rows(words: Words) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(left, top, width) of the Rummy 500 pile's two rows: the deepest cards in the header
    under the counts of the stock and the pile, the rest, with the top card, across the
    table below it."""
    left = DEEP_PILES
    upper = (left, MARGIN + line_height(READ_BOLD) + 4, WIDTH - MARGIN - left)
    return upper, (MARGIN, 0, INNER)


def _pile_fits(words: Words) -> tuple[int, int]:
    """How many cards each row of the Rummy 500 pile holds with every depth written."""
    upper, lower = _pile_rows(words)
    full = _depth_step()
    return (upper[2] - PILE.width) // full + 1, (lower[2] - PILE.width) // full + 1


def _header_holds(words: Words) -> int:
    """How many cards the header's row of the Rummy 500 pile holds on its own, as close as
    their corners allow (a depth under every second card): a pile needs a row of its own
    only when it is deeper."""
    upper, _ = _pile_rows(words)
    return (upper[2] - PILE.width) // PILE.strip + 1


def _deep_pile(
    layout: Layout, pile: Sequence[Card], four_colour: bool, y: int, words: Words
) -> None:
    """The whole pile, bottom card first, each card's depth under it.

    The row in the header, beside the stock, holds a pile that is not deep; a deeper one
    keeps its deepest cards there and the rest, with the top card, in a row of its own below
    the header. Only the top card is drawn whole, outlined and
    with its depth in a pill; every other card shows just its corner strip, so nothing but
    the true top looks like the top. A pile too deep for both rows gets closer cards, and
    depths under every second or third card.
    """
    if not pile:
        return
    upper, lower = _pile_rows(words)
    lower = (lower[0], y, lower[2])
    fits = _pile_fits(words)
    count = len(pile)
    if count <= _header_holds(words):
        split = count
    elif count <= sum(fits):
        split = fits[0]
    else:
        split = round(count * fits[0] / sum(fits))
    for (x, top, width), cards, first in (
        (upper, pile[:split], count),
        (lower, pile[split:], count - split),
    ):
        if cards:
            _pile_row(layout, cards, first, four_colour, (x, top, width))


def _pile_row(
    layout: Layout,
    cards: Sequence[Card],
    deepest: int,
    four_colour: bool,
    place: tuple[int, int, int],
) -> None:
    """One row of the pile; ``deepest`` is the depth of its first card."""
    theme = layout.theme
    x, y, width = place
    full = _depth_step()
    step = full
    if len(cards) > 1:
        step = max(4, min(full, (width - PILE.width) // (len(cards) - 1)))
    every = math.ceil(full / step)
    for i, card in enumerate(cards):
        depth = deepest - i
        art = _art(card, PILE, theme, four_colour)
        cx = x + i * step
        top = depth == 1
        if top:
            layout.card(art, cx, y)
            box = Box(cx - 2, y - 2, cx + PILE.width + 2, y + PILE.height + 2)
            layout.rect(box, None, outline=theme.accent, radius=PILE.radius + 2, line=3)
            centre = cx + PILE.width // 2
        else:
            layout.card(replace(art, cut=min(step, CLEAR)), cx, y)
            centre = cx + step // 2
        if not top and (depth % every or (depth < every + 2 and every > 1)):
            continue
        layout.label(
            f"depth:{depth}",
            centre,
            y + PILE.height + 5,
            str(depth),
            READ_BOLD,
            theme.on_accent if top else theme.muted,
            align="center",
            background=theme.accent if top else None,
            pad=6 if top else 0,
            kind="depth",
        )


def _empty_slot(layout: Layout, x: int, y: int, size: CardSize) -> None:
    box = Box(x, y, x + size.width, y + size.height)
    layout.rect(box, None, outline=layout.theme.slot, radius=size.radius)


def _art(card: Card, size: CardSize, theme: Theme, four_colour: bool) -> CardArt:
    return CardArt.of(card, size, theme.name, four_colour)


# --- the players' panels --------------------------------------------------------------------


NAME_X = 22
"""Where a panel's name starts, right of its player's colour."""

TAG_TEXT = {
    "turn": "picture.tag.turn",
    "dealer": "picture.tag.dealer",
    "winner": "picture.tag.winner",
}
ACCENT_TAGS = frozenset({"turn", "winner"})


def _tags(seat: SeatView, over: bool, winners: frozenset[str]) -> list[str]:
    """The pills after the card count."""
    tags = []
    if seat.is_current and not over:
        tags.append("turn")
    if seat.is_dealer:
        tags.append("dealer")
    if seat.player in winners:
        tags.append("winner")
    return tags


@dataclass(frozen=True, slots=True)
class _Status:
    """Where a panel's status goes under the name: the tags' (left, row) after the card
    count, and the row whose right end holds the score."""

    tags: tuple[tuple[int, int], ...]
    score_row: int

    @property
    def rows(self) -> int:
        return 1 + max([self.score_row, *(row for _, row in self.tags)])


def _status(width: int, count: str, tags: Sequence[str], score: str, words: Words) -> _Status:
    """The card count, the tags and the score in a panel ``width`` wide: the score ends the
    first row when it fits beside the count, else the second; tags flow around it."""
    score_w = text_width(score, READ_BOLD) + 12
    count_w = text_width(count, READ) + 8
    score_row = 0 if count_w + score_w <= width else 1
    row, x = 0, count_w
    places = []
    for tag in tags:
        w = text_width(words(TAG_TEXT[tag]), READ_BOLD) + 2 * PILL_PAD
        while x + w > width - (score_w if row == score_row else 0) and (x or row == score_row):
            row, x = row + 1, 0
        places.append((x, row))
        x += w + 8
    return _Status(tuple(places), score_row)


def _score_text(seat: SeatView, words: Words) -> str:
    return words("picture.table.score", score=number(seat.score, words))


def _heading_h(
    seat: SeatView,
    over: bool,
    winners: frozenset[str],
    width: int,
    name: str,
    lines: int,
    words: Words,
) -> int:
    """The name's rows, then as many rows as the card count, the tags and the score need.

    The turn's pill goes on the name's first row, and the rows are counted as if it were
    always there and the hand two digits long, so a panel keeps its height while the turn
    goes round and cards come and go."""
    counts = (words.count("picture.cards", n) for n in (seat.hand_size, 88))
    count = max(counts, key=lambda text: text_width(text, READ))
    tags = [t for t in _tags(seat, over, winners) if t != "turn"]
    rows = _status(width, count, tags, _score_text(seat, words), words).rows
    more = len(_name_lines(name, width, lines, words)) - 1
    return (
        _pill_h() + ROW_GAP + more * line_height(READ_BOLD) + rows * (_pill_h() + ROW_GAP) - ROW_GAP
    )


def _name_lines(name: str, width: int, lines: int, words: Words, turn: bool = True) -> list[str]:
    """A panel's name in one line, beside the turn's pill when ``turn``, or with ``lines``
    2, in two: the second as wide as the panel. A name longer than its lines is cut at the
    end of the last (the message posted with the picture has it whole). A panel's height
    counts the lines as if the pill were there, so it keeps its height as the turn goes
    round."""
    pill = text_width(words(TAG_TEXT["turn"]), READ_BOLD) + 2 * PILL_PAD + 8 if turn else 0
    return break_widths(name, READ_BOLD, (width - NAME_X - pill, width - NAME_X)[:lines])


class _Panel:
    """One player's panel: who they are, how they stand, and the melds they made."""

    def __init__(
        self,
        layout: Layout,
        four_colour: bool,
        view: GameView,
        names: Mapping[str, str] | None,
        frame: Frame,
        words: Words,
        name_lines: int,
    ) -> None:
        self.layout, self.four_colour, self.names = layout, four_colour, names
        self.name_lines = name_lines
        self.words = words
        self.width = frame.panel_w
        self.colours = {s.player: player_colour(layout.theme, s.seat) for s in view.seats}
        self.winners = frozenset(view.winners)
        self.over = view.is_over
        self.laid_off = False

    def draw(
        self, seat: SeatView, plan: _Plan, at: tuple[int, int], height: int, heading: int
    ) -> None:
        x, y = at
        layout, theme = self.layout, self.layout.theme
        under = len(layout.items)
        left, right = x + PANEL_PAD, x + self.width - PANEL_PAD
        top = y + PANEL_PAD
        self._heading(seat, left, right, top)
        melds_y = top + heading + 8
        if plan.placed or plan.left_out:
            self._melds(seat, plan, left, melds_y)
        elif not self.over:
            none = self.words("picture.table.no_melds")
            layout.label(f"nomelds:{seat.seat}", left, melds_y, none, READ, theme.muted)
        current = seat.is_current and not self.over
        box = Box(x, y, x + self.width, y + height)
        fill, outline = (theme.current, theme.accent) if current else (theme.panel, None)
        layout.rect(box, fill, outline, RADIUS, line=3 if current else 1, under=under)

    def _heading(self, seat: SeatView, left: int, right: int, top: int) -> None:
        """The name, with the turn's pill at its right when it is this player's turn; then
        the card count, the other tags and the score, wrapping in a narrow panel. The turn
        has a place of its own so that panels keep their height as it goes round."""
        layout, theme, words = self.layout, self.layout.theme, self.words
        pill_h = _pill_h()
        if seat.is_current and not self.over:
            text = words(TAG_TEXT["turn"])
            turn_x = right - text_width(text, READ_BOLD) - 2 * PILL_PAD
            self._tag("turn", seat, turn_x, top, text)
        name_y = top + PILL_PAD // 2
        dot_y = name_y + line_height(READ_BOLD) // 2
        layout.dot(left + 7, dot_y, 14, self.colours.get(seat.player, theme.muted))
        name = display_name(seat.player, self.names)
        current = seat.is_current and not self.over
        lines = _name_lines(name, right - left, self.name_lines, words, turn=current)
        for n, line in enumerate(lines):
            at = name_y + n * line_height(READ_BOLD)
            label = f"name:{seat.seat}" if n == 0 else f"name:{seat.seat}:line{n + 1}"
            layout.label(label, left + NAME_X, at, line, READ_BOLD, theme.text)
        counted = len(_name_lines(name, right - left, self.name_lines, words))
        y = top + pill_h + ROW_GAP + (counted - 1) * line_height(READ_BOLD)
        text_y = y + PILL_PAD // 2
        score = _score_text(seat, words)
        count = words.count("picture.cards", seat.hand_size)
        tags = [t for t in _tags(seat, self.over, self.winners) if t != "turn"]
        status = _status(right - left, count, tags, score, words)
        score_y = text_y + status.score_row * (pill_h + ROW_GAP)
        layout.label(
            f"score:{seat.seat}", right, score_y, score, READ_BOLD, theme.text, align="right"
        )
        layout.label(
            f"cards:{seat.seat}", left, text_y, count, READ, theme.muted, max_width=right - left
        )
        for tag, (x, row) in zip(tags, status.tags, strict=True):
            self._tag(tag, seat, left + x, y + row * (pill_h + ROW_GAP), words(TAG_TEXT[tag]))

    def _tag(self, tag: str, seat: SeatView, x: int, y: int, text: str) -> Box:
        theme = self.layout.theme
        accent = tag in ACCENT_TAGS
        ink, fill = (theme.on_accent, theme.accent) if accent else (theme.panel, theme.muted)
        return self.layout.label(
            f"{tag}:{seat.seat}", x, y, text, READ_BOLD, ink, background=fill, pad=PILL_PAD
        )

    def _melds(self, seat: SeatView, plan: _Plan, x: int, y: int) -> None:
        layout, theme, size = self.layout, self.layout.theme, plan.size
        for placed in plan.placed:
            meld, mx, my = placed.meld, x + placed.x, y + placed.y
            arts = [
                CardArt.of(p.card, size, theme.name, self.four_colour, p.slot) for p in meld.cards
            ]
            shown = layout.fan(arts, mx + _badge_w(meld.id, size), my, placed.step)
            layout.label(
                f"meld:{meld.id}",
                mx + (0 if size.floor else 3),
                my + _badge_top(size),
                str(meld.id),
                READ_BOLD,
                theme.on_badge,
                background=theme.badge,
                pad=BADGE_PAD,
                kind="meld",
            )
            if not plan.dots:
                continue
            for card, box in zip(meld.cards, shown, strict=True):
                if card.placed_by != meld.owner:
                    self.laid_off = True
                    colour = self.colours.get(card.placed_by, theme.muted)
                    cx = box.x0 + min(placed.step, size.strip) // 2
                    outline = INK_BLACK if _dots_on_cards(size) else None
                    layout.dot(cx, my + _dot_y(size), DOT, colour, outline)
        if plan.left_out:
            mx, my = x + plan.more_at[0], y + plan.more_at[1]
            text = _more_text(plan.left_out, self.words)
            layout.label(f"more:{seat.seat}", mx, my, text, READ_BOLD, theme.muted)
