"""The table picture everyone in the channel sees.

Top to bottom: the round and target, the piles, then one panel per player holding their
name, card count, score and melds. Panels grow downwards as melds wrap; when the table gets
crowded (seven players, two decks) the cards shrink so the picture stays a sensible height.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld
from bot.rummy.views import GameView, SeatView
from rendering.encode import to_png
from rendering.layout import Box, Flow, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import (
    BODY,
    BODY_BOLD,
    HEADING,
    INNER,
    MARGIN,
    PILL_PAD,
    RADIUS,
    SMALL,
    SMALL_BOLD,
    TAG,
    TITLE,
    WIDTH,
    game_name,
    game_over_text,
    number,
    plural,
)
from rendering.text import FontSpec, display_name, line_height, text_width
from rendering.theme import Theme, get_theme, player_colour

CARD_SIZES = (CardSize(64, 90), CardSize(56, 78), CardSize(48, 67))
MAX_HEIGHT = 1500
"""Above this the cards shrink, down to the smallest size."""

COLUMNS = 2
PANEL_GAP = 12
PANEL_WIDTH = (INNER - PANEL_GAP * (COLUMNS - 1)) // COLUMNS
PANEL_PAD = 14
MELD_GAP = 18
DOT = 10


def render_table(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    four_colour: bool = False,
) -> bytes:
    """The table as PNG bytes."""
    layout = layout_table(view, names=names, theme=theme, four_colour=four_colour)
    return to_png(paint(layout), layout.theme)


def layout_table(
    view: GameView,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    four_colour: bool = False,
) -> Layout:
    chosen = get_theme(theme)
    layout = _layout(view, names, chosen, four_colour, CARD_SIZES[0])
    for size in CARD_SIZES[1:]:
        if layout.height <= MAX_HEIGHT:
            break
        layout = _layout(view, names, chosen, four_colour, size)
    return layout


def _layout(
    view: GameView,
    names: Mapping[str, str] | None,
    theme: Theme,
    four_colour: bool,
    size: CardSize,
) -> Layout:
    layout = Layout(theme, WIDTH)
    y = _header(layout, view, names)
    y = _piles(layout, view, size, four_colour, y + 18)
    seats = {s.player: s for s in view.seats}
    owners = [s.player for s in view.seats]
    owners += sorted({m.owner for m in view.melds} - set(owners))
    section = _Section(layout, size, four_colour, view, names)
    # Panels in seat order, each in the shorter column: a player with many melds beside
    # one with none would otherwise leave a large empty panel.
    tops = [y + PANEL_GAP] * COLUMNS
    for owner in owners:
        column = tops.index(min(tops))
        x = MARGIN + column * (PANEL_WIDTH + PANEL_GAP)
        melds = sorted((m for m in view.melds if m.owner == owner), key=lambda m: m.id)
        tops[column] = section.draw(owner, seats.get(owner), melds, x, tops[column]) + PANEL_GAP
    y = max(tops) - PANEL_GAP
    if section.laid_off:
        y += 12
        layout.dot(MARGIN + DOT // 2, y + line_height(SMALL) // 2, DOT, theme.muted)
        text = "a dot under a card: laid off by the player of that colour"
        layout.label("legend", MARGIN + DOT + 8, y, text, SMALL, theme.muted, max_width=INNER)
        y += line_height(SMALL)
    layout.height = y + MARGIN
    return layout


def _header(layout: Layout, view: GameView, names: Mapping[str, str] | None) -> int:
    theme = layout.theme
    y = MARGIN
    target = layout.label(
        "target", WIDTH - MARGIN, y + 6, f"Target {view.target}", BODY, theme.muted, align="right"
    )
    title = f"Round {view.round_no} · {game_name(view.ruleset)}"
    room = target.x0 - MARGIN - 16
    layout.label("title", MARGIN, y, title, TITLE, theme.text, max_width=room)
    y += line_height(TITLE)
    if view.current is not None and not view.is_over:
        turn = f"▶ {display_name(view.current, names)} to play"
        layout.label("turn", MARGIN, y + 2, turn, BODY_BOLD, theme.accent, max_width=INNER)
        y += line_height(BODY_BOLD) + 2
    if view.is_over:
        y += 10
        box = layout.label(
            "banner",
            MARGIN,
            y,
            game_over_text(view.winners, names),
            BODY_BOLD,
            theme.on_accent,
            max_width=INNER,
            background=theme.accent,
            pad=PILL_PAD,
        )
        y = box.y1
    return y


def _piles(layout: Layout, view: GameView, size: CardSize, four_colour: bool, y: int) -> int:
    """The stock, then the discard pile: its top card, or in Rummy 500 every card."""
    theme = layout.theme
    caption_h = line_height(SMALL_BOLD) + 6
    stock = f"Stock · {view.stock_size}"
    layout.label("stock", MARGIN, y, stock, SMALL_BOLD, theme.muted)
    card_y = y + caption_h
    if view.stock_size:
        layout.card(CardArt.card_back(size, theme.name), MARGIN, card_y)
    else:
        _empty_slot(layout, MARGIN, card_y, size)
    x = MARGIN + max(size.width, text_width(stock, SMALL_BOLD)) + 28
    caption = f"Discard · {view.discard_size}"
    deep = view.ruleset.deep_discard and len(view.discard) > 1
    if deep:
        caption += "  (1 = top card)"
    layout.label("discard", x, y, caption, SMALL_BOLD, theme.muted, max_width=WIDTH - MARGIN - x)
    bottom = card_y + size.height
    if not view.discard:
        _empty_slot(layout, x, card_y, size)
    elif not deep:
        layout.card(_art(view.discard[-1], size, theme, four_colour), x, card_y)
    else:
        bottom = _deep_pile(layout, view.discard, size, four_colour, x, card_y)
    return bottom


def _deep_pile(
    layout: Layout, pile: Sequence[Card], size: CardSize, four_colour: bool, x: int, y: int
) -> int:
    """The whole pile fanned, bottom card first, with each card's depth under it."""
    theme = layout.theme
    per_row = max(1, (WIDTH - MARGIN - x - size.width) // size.strip + 1)
    depth_font = FontSpec(min(TAG.size, size.strip * 2 // 3), bold=True)  # "40" fits a strip
    depth_h = line_height(depth_font) + 2
    for start in range(0, len(pile), per_row):
        row = pile[start : start + per_row]
        arts = [_art(c, size, theme, four_colour) for c in row]
        for i, shown in enumerate(layout.fan(arts, x, y)):
            depth = len(pile) - (start + i)
            cx = shown.x0 + size.strip // 2
            layout.label(
                f"depth:{depth}",
                cx,
                shown.y1 + 2,
                str(depth),
                depth_font,
                theme.muted,
                align="center",
            )
        y += size.height + depth_h + 8
    return y - 8


def _empty_slot(layout: Layout, x: int, y: int, size: CardSize) -> None:
    box = Box(x, y, x + size.width, y + size.height)
    layout.rect(box, None, outline=layout.theme.slot, radius=size.radius)


def _art(card: Card, size: CardSize, theme: Theme, four_colour: bool) -> CardArt:
    return CardArt.of(card, size, theme.name, four_colour)


class _Section:
    """One player's panel: who they are, how they stand, and the melds they made."""

    def __init__(
        self,
        layout: Layout,
        size: CardSize,
        four_colour: bool,
        view: GameView,
        names: Mapping[str, str] | None,
    ) -> None:
        self.layout, self.size, self.four_colour, self.names = layout, size, four_colour, names
        self.colours = {s.player: player_colour(layout.theme, s.seat) for s in view.seats}
        self.winners = frozenset(view.winners)
        self.laid_off = False

    def draw(
        self, owner: str, seat: SeatView | None, melds: Sequence[TableMeld], x: int, y: int
    ) -> int:
        """Lay out the panel with its top at ``y``; returns its bottom."""
        layout, theme = self.layout, self.layout.theme
        under = len(layout.items)
        left, right = x + PANEL_PAD, x + PANEL_WIDTH - PANEL_PAD
        top = y + PANEL_PAD
        key = seat.seat if seat is not None else owner
        row_h = line_height(HEADING)
        layout.dot(left + 7, top + row_h // 2, 14, self.colours.get(owner, theme.muted))
        name_right = right
        if seat is not None:
            score = layout.label(
                f"score:{key}",
                right,
                top + 1,
                f"{number(seat.score)} pts",
                BODY_BOLD,
                theme.text,
                align="right",
            )
            name_right = score.x0 - 12
        name = display_name(owner, self.names)
        layout.label(
            f"name:{key}",
            left + 24,
            top,
            name,
            HEADING,
            theme.text,
            max_width=name_right - left - 24,
        )
        y = top + row_h + 6
        if seat is not None:
            y = self._status(seat, left, y)
        y += 10
        if melds:
            y = self._melds(melds, left, right - left, y)
        else:
            layout.label(f"nomelds:{key}", left, y, "no melds yet", SMALL, theme.muted)
            y += line_height(SMALL)
        bottom = y + PANEL_PAD
        current = seat is not None and seat.is_current
        box = Box(x, top - PANEL_PAD, x + PANEL_WIDTH, bottom)
        fill, outline = (theme.current, theme.accent) if current else (theme.panel, None)
        layout.rect(box, fill, outline, RADIUS, line=3 if current else 1, under=under)
        return bottom

    def _status(self, seat: SeatView, x: int, y: int) -> int:
        """The card count, then the turn, dealer and winner tags."""
        layout, theme = self.layout, self.layout.theme
        pill_h = line_height(TAG) + PILL_PAD
        count = layout.label(
            f"cards:{seat.seat}",
            x,
            y + (pill_h - line_height(BODY)) // 2,
            plural(seat.hand_size, "card"),
            BODY,
            theme.muted,
        )
        x = count.x1 + 12
        tags = []
        if seat.is_current:
            tags.append(("turn", "▶ TURN", theme.accent))
        if seat.is_dealer:
            tags.append(("dealer", "DEALER", theme.muted))
        if seat.player in self.winners:
            tags.append(("winner", "★ WINNER", theme.accent))
        for name, text, colour in tags:
            ink = theme.panel if colour == theme.muted else theme.on_accent
            box = layout.label(
                f"{name}:{seat.seat}", x, y, text, TAG, ink, background=colour, pad=PILL_PAD
            )
            x = box.x1 + 8
        return y + pill_h

    def _melds(self, melds: Sequence[TableMeld], x: int, width: int, y: int) -> int:
        layout, theme, size = self.layout, self.layout.theme, self.size
        tag_h = line_height(TAG) + 2
        dots = any(p.placed_by != m.owner for m in melds for p in m.cards)
        block_h = tag_h + size.height + (DOT + 6 if dots else 4)
        flow = Flow(x, y, width, MELD_GAP, 10)
        for meld in melds:
            fan_w = size.fan_width(len(meld.cards))
            mx, my = flow.place(fan_w, block_h)
            layout.label(f"meld:{meld.id}", mx, my, f"#{meld.id}", TAG, theme.muted)
            arts = [
                CardArt.of(p.card, size, theme.name, self.four_colour, p.slot) for p in meld.cards
            ]
            shown = layout.fan(arts, mx, my + tag_h)
            for placed, box in zip(meld.cards, shown, strict=True):
                if placed.placed_by != meld.owner:
                    self.laid_off = True
                    colour = self.colours.get(placed.placed_by, theme.muted)
                    cx = box.x0 + size.strip // 2
                    layout.dot(cx, box.y1 + 4 + DOT // 2, DOT, colour)
        return flow.bottom
