"""The table picture everyone in the channel sees.

Discord fits a picture into its chat column (about 550×350 on a desktop, 360 wide on a
phone) and only a click shows it whole, so the table is landscape: the round, whose turn
it is and the piles across the top, then the players' panels side by side in two columns
(three from five players on). A fuller table gets smaller cards and tighter fans, chosen
so that the shrunken picture keeps its card ranks and meld numbers readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld
from bot.rummy.rules import Scoring
from bot.rummy.views import GameView, SeatView
from rendering.encode import to_png
from rendering.layout import Box, Flow, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import (
    BODY,
    BODY_BOLD,
    DESKTOP,
    HEADING,
    INNER,
    MARGIN,
    PHONE,
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

SMALL_TABLE = 4
"""Up to this many players the table aims at 0.65 times as high as wide, above it 1.0."""
RATIOS = {True: 0.65, False: 1.0}
CANDIDATES = {
    True: ((2, 62), (2, 56), (2, 50), (2, 46)),
    False: ((3, 54), (3, 48), (3, 44), (4, 44), (4, 40)),
}
"""(columns, card width) tried in turn, largest cards first, for small and full tables."""
STRETCH = 0.15

PANEL_GAP = 10
PANEL_PAD = 10
MELD_GAP = 14
DOT = 10
PILE_GAP = 16


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
    """The largest cards that keep the picture within the table's ratio and its ranks
    readable in both display boxes.

    Readability comes first: a picture may then be up to ``STRETCH`` taller than its ratio.
    When no size is readable (a crowded table), the most readable one within the ratio, and
    when none is within it, the shortest.
    """
    chosen = get_theme(theme)
    small = len(view.seats) <= SMALL_TABLE
    limit = RATIOS[small] * WIDTH
    tried: list[tuple[bool, float, Layout]] = []
    stretched: Layout | None = None
    for columns, width in CANDIDATES[small]:
        size = CardSize(width, round(width * 1.4))
        if stretched is not None and size.rank_cap * PHONE.scale(WIDTH, WIDTH) < 6:
            return stretched  # no smaller card reads at phone width: stop looking
        layout = _layout(view, names, chosen, four_colour, size, columns)
        w, h = layout.size
        readable = size.rank_cap * min(DESKTOP.scale(w, h) / 8, PHONE.scale(w, h) / 6)
        if h <= limit and readable >= 1:
            return layout
        if stretched is None and readable >= 1 and h <= limit + STRETCH * WIDTH:
            stretched = layout
        tried.append((h <= limit, readable, layout))
    if stretched is not None:
        return stretched
    within = [t for t in tried if t[0]]
    if within:
        return max(within, key=lambda t: t[1])[2]
    return min(tried, key=lambda t: t[2].height)[2]


def _layout(
    view: GameView,
    names: Mapping[str, str] | None,
    theme: Theme,
    four_colour: bool,
    size: CardSize,
    columns: int,
) -> Layout:
    layout = Layout(theme, WIDTH)
    y = _header(layout, view, names, size, four_colour)
    seats = {s.player: s for s in view.seats}
    owners = [s.player for s in view.seats]
    owners += sorted({m.owner for m in view.melds} - set(owners))
    panel_w = (INNER - PANEL_GAP * (columns - 1)) // columns
    section = _Section(layout, size, four_colour, view, names, panel_w)
    # Panels in seat order, each in the shorter column: a player with many melds beside
    # one with none would otherwise leave a large empty panel.
    tops = [y + PANEL_GAP] * columns
    for owner in owners:
        column = tops.index(min(tops))
        x = MARGIN + column * (panel_w + PANEL_GAP)
        melds = sorted((m for m in view.melds if m.owner == owner), key=lambda m: m.id)
        tops[column] = section.draw(owner, seats.get(owner), melds, x, tops[column]) + PANEL_GAP
    y = max(tops) - PANEL_GAP
    if section.laid_off:
        y += 8
        layout.dot(MARGIN + DOT // 2, y + line_height(SMALL) // 2, DOT, theme.muted)
        text = "a dot under a card: laid off by the player of that colour"
        layout.label("legend", MARGIN + DOT + 8, y, text, SMALL, theme.muted, max_width=INNER)
        y += line_height(SMALL)
    layout.height = y + MARGIN
    return layout


def _header(
    layout: Layout,
    view: GameView,
    names: Mapping[str, str] | None,
    size: CardSize,
    four_colour: bool,
) -> int:
    """The title, turn and target on the left, the piles on the right; a deep Rummy 500
    pile that does not fit beside them gets the full width below."""
    theme = layout.theme
    deep = view.ruleset.deep_discard and len(view.discard) > 1
    pile_w = _pile_width(view, size) if deep else size.width
    piles_w = max(size.width, text_width(f"Stock · {view.stock_size}", SMALL_BOLD))
    piles_w += PILE_GAP + max(pile_w, text_width(_discard_caption(view, deep), SMALL_BOLD))
    title = f"Round {view.round_no} · {game_name(view.ruleset)}"
    turn = ""
    if view.current is not None and not view.is_over:
        turn = f"▶ {display_name(view.current, names)} to play"
    wanted = max(text_width(title, TITLE), text_width(turn, BODY_BOLD)) + 24
    beside = WIDTH - 2 * MARGIN - piles_w >= min(wanted, 380)
    left_room = WIDTH - 2 * MARGIN - (piles_w + 24 if beside else 0)

    y = MARGIN
    layout.label("title", MARGIN, y, title, TITLE, theme.text, max_width=left_room)
    y += line_height(TITLE)
    if turn:
        layout.label("turn", MARGIN, y + 2, turn, BODY_BOLD, theme.accent, max_width=left_room)
        y += line_height(BODY_BOLD) + 2
    if view.is_over:
        y += 6
        box = layout.label(
            "banner",
            MARGIN,
            y,
            game_over_text(view.winners, names),
            BODY_BOLD,
            theme.on_accent,
            max_width=left_room,
            background=theme.accent,
            pad=PILL_PAD,
        )
        y = box.y1
    target = f"Target {number(view.target)}"
    layout.label("target", MARGIN, y + 4, target, BODY, theme.muted, max_width=left_room)
    y += line_height(BODY) + 4
    if beside:
        bottom = _piles(layout, view, size, four_colour, WIDTH - MARGIN - piles_w, MARGIN, deep)
        return max(y, bottom)
    return _piles(layout, view, size, four_colour, MARGIN, y + 12, deep)


def _discard_caption(view: GameView, deep: bool) -> str:
    caption = f"Discard · {view.discard_size}"
    return caption + "  (1 = top card)" if deep else caption


def _depth_font(size: CardSize) -> FontSpec:
    return FontSpec(max(13, round(size.width * 0.36)), bold=True)


def _pile_step(size: CardSize) -> int:
    """Each pile card shows at least its corner and room for a two-digit depth under it."""
    return max(size.strip, text_width("40", _depth_font(size)) + 8)


def _pile_width(view: GameView, size: CardSize) -> int:
    return size.fan_width(len(view.discard), _pile_step(size))


def _piles(
    layout: Layout,
    view: GameView,
    size: CardSize,
    four_colour: bool,
    x: int,
    y: int,
    deep: bool,
) -> int:
    """The stock, then the discard pile: its top card, or in Rummy 500 every card."""
    theme = layout.theme
    caption_h = line_height(SMALL_BOLD) + 4
    stock = f"Stock · {number(view.stock_size)}"
    layout.label("stock", x, y, stock, SMALL_BOLD, theme.muted)
    card_y = y + caption_h
    if view.stock_size:
        layout.card(CardArt.card_back(size, theme.name), x, card_y)
    else:
        _empty_slot(layout, x, card_y, size)
    x += max(size.width, text_width(stock, SMALL_BOLD)) + PILE_GAP
    caption = _discard_caption(view, deep)
    layout.label("discard", x, y, caption, SMALL_BOLD, theme.muted, max_width=WIDTH - MARGIN - x)
    bottom = card_y + size.height + 3
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
    """The whole pile, bottom card first, with each card's depth under it.

    Only the top card is drawn whole, outlined and with its depth in a pill; every other
    card shows just its corner strip, even at the end of a wrapped row, so nothing but the
    true top looks like the top.
    """
    theme = layout.theme
    step = _pile_step(size)
    per_row = max(1, (WIDTH - MARGIN - x - size.width) // step + 1)
    depth_font = _depth_font(size)
    depth_h = line_height(depth_font) + 4
    for start in range(0, len(pile), per_row):
        row = pile[start : start + per_row]
        for i, card in enumerate(row):
            depth = len(pile) - (start + i)
            art = _art(card, size, theme, four_colour)
            cx = x + i * step
            if depth > 1:
                layout.card(replace(art, cut=step), cx, y)
                centre = cx + step // 2
            else:
                layout.card(art, cx, y)
                box = Box(cx - 2, y - 2, cx + size.width + 2, y + size.height + 2)
                layout.rect(box, None, outline=theme.accent, radius=size.radius + 2, line=3)
                centre = cx + size.width // 2
            top = depth == 1
            layout.label(
                f"depth:{depth}",
                centre,
                y + size.height + 5,
                str(depth),
                depth_font,
                theme.on_accent if top else theme.muted,
                align="center",
                background=theme.accent if top else None,
                pad=6 if top else 0,
                kind="depth",
            )
        y += size.height + 5 + depth_h + 6
    return y - 6


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
        width: int,
    ) -> None:
        self.layout, self.size, self.four_colour, self.names = layout, size, four_colour, names
        self.width = width
        self.colours = {s.player: player_colour(layout.theme, s.seat) for s in view.seats}
        self.winners = frozenset(view.winners)
        self.over = view.is_over
        # Who laid a card off changes the score only when melded cards count for their
        # player (Rummy 500); elsewhere the dots would be noise.
        self.dots = view.ruleset.scoring is Scoring.HAND
        self.laid_off = False
        self.name_font = HEADING if width > 400 else BODY_BOLD
        self.badge_font = FontSpec(max(13, round(size.width * 0.36)), bold=True)

    def draw(
        self, owner: str, seat: SeatView | None, melds: Sequence[TableMeld], x: int, y: int
    ) -> int:
        """Lay out the panel with its top at ``y``; returns its bottom."""
        layout, theme = self.layout, self.layout.theme
        under = len(layout.items)
        left, right = x + PANEL_PAD, x + self.width - PANEL_PAD
        top = y + PANEL_PAD
        y = self._heading(owner, seat, left, right, top)
        if melds:
            y = self._melds(melds, left, right - left, y + 8)
        elif not self.over:
            key = seat.seat if seat is not None else owner
            layout.label(f"nomelds:{key}", left, y + 4, "no melds yet", SMALL, theme.muted)
            y += line_height(SMALL) + 4
        bottom = y + PANEL_PAD
        current = seat is not None and seat.is_current and not self.over
        box = Box(x, top - PANEL_PAD, x + self.width, bottom)
        fill, outline = (theme.current, theme.accent) if current else (theme.panel, None)
        layout.rect(box, fill, outline, RADIUS, line=3 if current else 1, under=under)
        return bottom

    def _tags(self, seat: SeatView) -> list[tuple[str, str, bool]]:
        """(name, text, accent) of the pills after the card count."""
        tags = []
        if seat.is_current and not self.over:
            tags.append(("turn", "▶ TURN", True))
        if seat.is_dealer:
            tags.append(("dealer", "DEALER", False))
        if seat.player in self.winners:
            tags.append(("winner", "★ WINNER", True))
        return tags

    def _heading(self, owner: str, seat: SeatView | None, left: int, right: int, top: int) -> int:
        """The name and score; the card count and tags beside the name when they fit,
        under it otherwise. Returns the bottom."""
        layout, theme, spec = self.layout, self.layout.theme, self.name_font
        key = seat.seat if seat is not None else owner
        row_h = line_height(spec)
        layout.dot(left + 6, top + row_h // 2, 12, self.colours.get(owner, theme.muted))
        name_right = right
        if seat is not None:
            score = layout.label(
                f"score:{key}",
                right,
                top + (row_h - line_height(BODY_BOLD)) // 2,
                f"{number(seat.score)} pts",
                BODY_BOLD,
                theme.text,
                align="right",
            )
            name_right = score.x0 - 12
        name = display_name(owner, self.names)
        if seat is None:
            layout.label(
                f"name:{key}", left + 20, top, name, spec, theme.text, max_width=name_right - left
            )
            return top + row_h
        count = plural(seat.hand_size, "card")
        tags = self._tags(seat)
        status_w = text_width(count, BODY) + sum(
            text_width(text, TAG) + 2 * PILL_PAD + 8 for _, text, _ in tags
        )
        one_row = left + 20 + text_width(name, spec) + 12 + status_w <= name_right
        name_box = layout.label(
            f"name:{key}",
            left + 20,
            top,
            name,
            spec,
            theme.text,
            max_width=name_right - left - 20,
        )
        if one_row:
            sx, sy = name_box.x1 + 12, top
        else:
            sx, sy = left, top + row_h + 4
        return self._status(seat, count, tags, (sx, left, right), sy, row_h)

    def _status(
        self,
        seat: SeatView,
        count: str,
        tags: list[tuple[str, str, bool]],
        xs: tuple[int, int, int],
        y: int,
        h: int,
    ) -> int:
        """The card count and the tags from ``x``, wrapping between ``left`` and ``right``
        in a narrow panel; returns the bottom."""
        layout, theme = self.layout, self.layout.theme
        x, left, right = xs
        box = layout.label(
            f"cards:{seat.seat}", x, y + (h - line_height(BODY)) // 2, count, BODY, theme.muted
        )
        x = box.x1 + 8
        pill_h = line_height(TAG) + PILL_PAD
        for name, text, accent in tags:
            ink, fill = (theme.on_accent, theme.accent) if accent else (theme.panel, theme.muted)
            if x + text_width(text, TAG) + 2 * PILL_PAD > right:
                x, y = left, y + h + 4
            box = layout.label(
                f"{name}:{seat.seat}",
                x,
                y + (h - pill_h) // 2,
                text,
                TAG,
                ink,
                background=fill,
                pad=PILL_PAD,
            )
            x = box.x1 + 8
        return y + h

    def _melds(self, melds: Sequence[TableMeld], x: int, width: int, y: int) -> int:
        layout, theme, size = self.layout, self.layout.theme, self.size
        dots = self.dots and any(p.placed_by != m.owner for m in melds for p in m.cards)
        block_h = size.height + 3 + (DOT + 4 if dots else 0)
        flow = Flow(x, y, width, MELD_GAP, 8)
        badge_h = line_height(self.badge_font) + 5
        for meld in melds:
            count = len(meld.cards)
            step = size.strip
            if size.fan_width(count) > width and count > 1:
                step = max(6, (width - size.width) // (count - 1))
            mx, my = flow.place(size.fan_width(count, step), block_h)
            arts = [
                CardArt.of(p.card, size, theme.name, self.four_colour, p.slot) for p in meld.cards
            ]
            shown = layout.fan(arts, mx, my, step)
            layout.label(
                f"meld:{meld.id}",
                mx + 3,
                my + size.height - badge_h - 3,
                str(meld.id),
                self.badge_font,
                theme.on_badge,
                background=theme.badge,
                pad=5,
                kind="meld",
            )
            if not dots:
                continue
            for placed, box in zip(meld.cards, shown, strict=True):
                if placed.placed_by != meld.owner:
                    self.laid_off = True
                    colour = self.colours.get(placed.placed_by, theme.muted)
                    cx = box.x0 + min(step, size.strip) // 2
                    layout.dot(cx, box.y1 + 3 + DOT // 2 + 2, DOT, colour)
        return flow.bottom
