"""The end-of-round picture: what each player was left holding and what the round scored.

One row per player, landscape like every picture: the name column is as wide as the names
need (so they are not cut while the cards have room), the cards left are fanned at the size
the table uses, and a line under the title says why the round scored as it did.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rummy.rules import Scoring
from bot.rummy.views import GameView, RoundEnd, RoundResult
from rendering.encode import to_png
from rendering.layout import Box, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import (
    HEADING,
    MARGIN,
    PILL_PAD,
    RADIUS,
    READ,
    READ_BOLD,
    TITLE,
    WIDTH,
    game_name,
    game_over_text,
    number,
    signed,
)
from rendering.text import break_lines, display_name, line_height, text_width
from rendering.theme import get_theme, player_colour
from rendering.words import ENGLISH_WORDS, Words

MINI = CardSize(62, 68)
"""As wide as the table's pile cards, with ranks at the floor's size, and shorter: the
cards left are read by their corners, and a lower row keeps four players' rounds
landscape."""
MINI_CROWDED = CardSize(50, 62)
"""From seven players on, so the picture stays no higher than it is wide."""
CROWDED = 7
NAME_MIN, NAME_MAX = 150, 360
CLOSE = 24
"""The closest the cards left may be while every rank still shows: the width of its digits."""
NAME_LINES = 5
"""The most lines a name takes in its column: enough for the longest name the bot keeps
(32 characters, CJK included), so that only a longer one is cut."""
COLUMN_GAP = 24
ROW_PAD = 6


def render_round_summary(
    view: GameView,
    result: RoundResult | None = None,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> bytes:
    """The scores of ``result`` (by default the last round played) as PNG bytes."""
    layout = layout_round_summary(view, result, names=names, theme=theme, words=words)
    return to_png(paint(layout), layout.theme)


def _reason(result: RoundResult, names: Mapping[str, str] | None, words: Words) -> str:
    who = display_name(result.ender, names) if result.ender else words("picture.summary.nobody")
    if result.reason is RoundEnd.WENT_OUT:
        return words("picture.summary.went_out", player=who)
    if result.reason is RoundEnd.ENDED:
        return words("picture.summary.ended", player=who)
    return words("picture.summary.blocked")


def _why(view: GameView, result: RoundResult, names: Mapping[str, str] | None, words: Words) -> str:
    """How this round's points came about, in the words of the rules."""
    scoring = view.ruleset.scoring
    if scoring is Scoring.HAND:
        return words("picture.summary.why_hand")
    if scoring is Scoring.NEGATIVE:
        return words("picture.summary.why_negative")
    if result.reason is RoundEnd.WENT_OUT:
        winner = words("picture.summary.the_winner")
        who = display_name(result.ender, names) if result.ender else winner
        return words("picture.summary.why_went_out", player=who)
    scorers = [v for v, p in zip(result.hand_values, result.points, strict=False) if p > 0]
    low = min(scorers or result.hand_values or (0,))
    return words("picture.summary.why_lowest", value=number(low, words))


def _tag(
    view: GameView, result: RoundResult, i: int, player: str, winners: set[str], words: Words
) -> str:
    """Why this player scored, beside their name."""
    if player in winners:
        return words("picture.summary.tag_winner")
    if player == result.ender and result.reason is RoundEnd.WENT_OUT:
        return words("picture.summary.tag_went_out")
    positive = view.ruleset.scoring is Scoring.POSITIVE
    if positive and result.reason is not RoundEnd.WENT_OUT and result.points[i] > 0:
        return words("picture.summary.tag_lowest")
    return ""


COLUMN_WORDS = {
    "Hand": "picture.summary.col_hand",
    "Melded": "picture.summary.col_melded",
    "Round": "picture.summary.col_round",
    "Total": "picture.summary.col_total",
}


def _column_width(name: str, result: RoundResult, players: int, words: Words) -> int:
    """A number column as wide as its head or its widest number, whichever is wider."""
    values = {
        "Hand": result.hand_values,
        "Melded": result.placed_values,
        "Round": result.points,
        "Total": result.totals,
    }[name][:players]
    texts = [signed(v, words) if name == "Round" else number(v, words) for v in values]
    widest = max((text_width(t, READ_BOLD) for t in texts), default=0)
    return max(widest, text_width(words(COLUMN_WORDS[name]), READ_BOLD)) + COLUMN_GAP


def _title(layout: Layout, title: str, banner: str | None, sub: str) -> tuple[int, bool]:
    """The title, on two lines rather than cut, and the game's result beside it when both
    fit on one line, else under it; without a result, the subtitle ``sub`` goes beside the
    title when it fits there. Returns where the next line starts and whether ``sub`` is
    placed."""
    theme, y, room = layout.theme, MARGIN, WIDTH - 2 * MARGIN
    banner_w = text_width(banner, READ_BOLD) + 2 * PILL_PAD + 16 if banner else 0
    beside = banner is not None and text_width(title, TITLE) + banner_w <= room
    sub_w = text_width(sub, READ) + 24
    if banner is None and text_width(title, TITLE) + sub_w <= room:
        layout.label("title", MARGIN, y, title, TITLE, theme.text)
        at = y + line_height(TITLE) - line_height(READ) - 2
        layout.label("subtitle", WIDTH - MARGIN, at, sub, READ, theme.muted, align="right")
        return y + line_height(TITLE) + 4, True
    lines = break_lines(title, TITLE, room - (banner_w if beside else 0), most=4)
    for n, line in enumerate(lines):
        layout.label(
            "title" if n == 0 else f"title:line{n + 1}", MARGIN, y, line, TITLE, theme.text
        )
        y += line_height(TITLE) + 4
    if banner is not None:
        # beside the title on its line, or under it in as many pills as the names need
        parts = [banner] if beside else break_lines(banner, READ_BOLD, room - 2 * PILL_PAD, 4)
        for n, part in enumerate(parts):
            layout.label(
                "banner" if n == 0 else f"banner:line{n + 1}",
                WIDTH - MARGIN if beside else MARGIN,
                MARGIN if beside else y,
                part,
                READ_BOLD,
                theme.on_accent,
                background=theme.accent,
                pad=PILL_PAD,
                align="right" if beside else "left",
            )
            if not beside:
                y += line_height(READ_BOLD) + PILL_PAD + 8
    return y, False


def _card_rows(count: int, room: int, size: CardSize) -> list[tuple[tuple[int, int], int]]:
    """The cards left in rows of ``room`` pixels: (first, end) of each row and its fan step.
    One row while every corner shows at :data:`CLOSE`; more, each lower by a corner, when
    they would not, so that no rank is covered."""
    if count <= 1:
        return [((0, count), size.strip)]
    per_row = max(1, (room - size.width) // CLOSE + 1)
    lines = -(-count // per_row)
    per_row = -(-count // lines)
    rows = []
    for start in range(0, count, per_row):
        end = min(count, start + per_row)
        fit = (room - size.width) // max(1, end - start - 1)
        rows.append(((start, end), max(8, min(size.strip, fit))))
    return rows


def layout_round_summary(
    view: GameView,
    result: RoundResult | None = None,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    words: Words = ENGLISH_WORDS,
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, WIDTH)
    result = result if result is not None else view.last_round
    y = MARGIN
    if result is None:
        layout.label("title", MARGIN, y, words("picture.summary.none"), HEADING, chosen.text)
        layout.height = y + line_height(HEADING) + MARGIN
        return layout
    winners = set(view.winners) if view.is_over and result == view.last_round else set()
    title = words(
        "picture.summary.title",
        round=words.number(result.round_no),
        reason=_reason(result, names, words),
    )
    sub = words(
        "picture.summary.subtitle",
        game=game_name(view.ruleset, words),
        target=number(view.target, words),
    )
    banner = game_over_text(view.winners, names, words) if winners else None
    y, placed = _title(layout, title, banner, sub)
    why = _why(view, result, names, words)
    room = WIDTH - 2 * MARGIN
    lines = break_lines(why, READ, room)
    for n, line in enumerate(lines):
        layout.label("why" if n == 0 else f"why:line{n + 1}", MARGIN, y, line, READ, chosen.text)
        y += line_height(READ) + 2
    if not placed:
        # beside the scoring rule's last line when it fits there, else on a line of its own
        end = MARGIN + text_width(lines[-1], READ) + 24
        if end + text_width(sub, READ) <= WIDTH - MARGIN:
            at = y - line_height(READ) - 2
            layout.label("subtitle", WIDTH - MARGIN, at, sub, READ, chosen.muted, align="right")
        else:
            layout.label("subtitle", MARGIN, y, sub, READ, chosen.muted, max_width=room)
            y += line_height(READ)
    y += 10

    columns = ["Hand"]
    if view.ruleset.scoring is Scoring.HAND:
        columns.append("Melded")
    columns += ["Round", "Total"]
    seated = view.seats[: len(result.totals)]
    widths = {name: _column_width(name, result, len(seated), words) for name in columns}
    right_edges = {}
    edge = WIDTH - MARGIN - 12
    for name in reversed(columns):
        right_edges[name] = edge
        edge -= widths[name]
    right_edges = dict(reversed(right_edges.items()))
    tags = [_tag(view, result, i, s.player, winners, words) for i, s in enumerate(seated)]
    longest = max((text_width(display_name(s.player, names), READ_BOLD) for s in seated), default=0)
    # the tags under the names are longer in some languages ("main la plus faible"): the
    # column widens for them too, and a tag that still does not fit is cut at the column
    longest = max([longest, *(text_width(tag, READ_BOLD) for tag in tags)])
    numbers_left = right_edges[columns[0]] - widths[columns[0]] + COLUMN_GAP
    mini = MINI if len(seated) < CROWDED else MINI_CROWDED
    # the names are as wide as they need, short of leaving the cards left less than four
    # cards' room with every corner showing; a larger hand takes a second row
    most = numbers_left - MARGIN - 24 - mini.width - 3 * CLOSE
    name_width = min(NAME_MAX, most, max(NAME_MIN, longest + 32 + 8))
    cards_x = MARGIN + name_width + 12
    cards_room = numbers_left - 12 - cards_x
    head_y = y
    player = words("picture.summary.col_player")
    layout.label("head:player", MARGIN + 12, head_y, player, READ_BOLD, chosen.muted)
    left = words("picture.summary.col_cards")
    if text_width(left, READ_BOLD) <= cards_room:  # else the cards say it themselves
        layout.label("head:cards", cards_x, head_y, left, READ_BOLD, chosen.muted)
    for name, right in right_edges.items():
        heading = words(COLUMN_WORDS[name])
        layout.label(
            f"head:{name}",
            right,
            head_y,
            heading,
            READ_BOLD,
            chosen.muted,
            align="right",
        )
    y += line_height(READ_BOLD) + 6
    line_h = line_height(READ_BOLD)
    for i, seat in enumerate(view.seats):
        if i >= len(result.totals):
            break
        # A long name takes a second line, and the row grows for it, rather than be cut.
        name = display_name(seat.player, names)
        lines = break_lines(name, READ_BOLD, name_width - 32, NAME_LINES)
        tag = tags[i]
        text_h = (len(lines) + bool(tag)) * line_h
        hand = sorted(result.hands[i])
        rows = _card_rows(len(hand), cards_room, mini)
        cards_h = mini.height + 3 + (len(rows) - 1) * (mini.index_bottom + 4)
        row_h = max(cards_h, text_h) + 2 * ROW_PAD
        fill = chosen.panel if i % 2 == 0 else chosen.panel_alt
        layout.rect(Box(MARGIN, y, WIDTH - MARGIN, y + row_h), fill, radius=RADIUS)
        mid = y + row_h // 2
        text_y = mid - text_h // 2
        layout.dot(MARGIN + 19, text_y + line_h // 2, 12, player_colour(chosen, seat.seat))
        for n, line in enumerate(lines):
            label = f"name:{i}" if n == 0 else f"name:{i}:line{n + 1}"
            layout.label(label, MARGIN + 32, text_y + n * line_h, line, READ_BOLD, chosen.text)
        if tag:
            layout.label(
                f"tag:{i}",
                MARGIN + 32,
                text_y + len(lines) * line_h,
                tag,
                READ_BOLD,
                chosen.accent,
                max_width=name_width - 32,
            )
        if hand:
            top = mid - cards_h // 2
            for (start, end), step in rows:
                arts = [CardArt.of(c, mini, chosen.name, False) for c in hand[start:end]]
                layout.fan(arts, cards_x, top, step)
                top += mini.index_bottom + 4
        elif text_width(words("picture.summary.no_cards"), READ) <= cards_room:
            layout.label(
                f"nocards:{i}",
                cards_x,
                mid - line_height(READ) // 2,
                words("picture.summary.no_cards"),
                READ,
                chosen.muted,
            )
        values = {
            "Hand": number(result.hand_values[i], words),
            "Round": signed(result.points[i], words),
            "Total": number(result.totals[i], words),
        }
        if "Melded" in right_edges:
            values["Melded"] = number(result.placed_values[i], words)
        for column, right in right_edges.items():
            spec = READ_BOLD if column in ("Round", "Total") else READ
            colour = chosen.text if column == "Total" else chosen.muted
            if column == "Round" and result.points[i] > 0:
                colour = chosen.accent
            layout.label(
                f"{column}:{i}",
                right,
                mid - line_height(spec) // 2,
                values[column],
                spec,
                colour,
                align="right",
            )
        y += row_h + 6
    layout.height = y - 6 + MARGIN
    return layout
