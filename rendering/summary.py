"""The end-of-round picture: what each player was left holding and what the round scored."""

from __future__ import annotations

from collections.abc import Mapping

from bot.rummy.rules import Scoring
from bot.rummy.views import GameView, RoundEnd, RoundResult
from rendering.encode import to_png
from rendering.layout import Box, Layout
from rendering.paint import paint
from rendering.sprites import CardArt, CardSize
from rendering.style import (
    BODY,
    BODY_BOLD,
    HEADING,
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
    signed,
)
from rendering.text import display_name, line_height
from rendering.theme import get_theme, player_colour

MINI = CardSize(48, 67)
NAME_WIDTH = 230
CARDS_X = MARGIN + NAME_WIDTH + 16
NUMBER_WIDTH = 86
ROW_PAD = 10


def render_round_summary(
    view: GameView,
    result: RoundResult | None = None,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
) -> bytes:
    """The scores of ``result`` (by default the last round played) as PNG bytes."""
    layout = layout_round_summary(view, result, names=names, theme=theme)
    return to_png(paint(layout), layout.theme)


def _reason(result: RoundResult, names: Mapping[str, str] | None) -> str:
    who = display_name(result.ender, names) if result.ender else "nobody"
    if result.reason is RoundEnd.WENT_OUT:
        return f"{who} went out"
    if result.reason is RoundEnd.ENDED:
        return f"{who} ended the round"
    return "the round was blocked"


def layout_round_summary(
    view: GameView,
    result: RoundResult | None = None,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
) -> Layout:
    chosen = get_theme(theme)
    layout = Layout(chosen, WIDTH)
    result = result if result is not None else view.last_round
    y = MARGIN
    if result is None:
        layout.label("title", MARGIN, y, "No round has been scored yet", HEADING, chosen.text)
        layout.height = y + line_height(HEADING) + MARGIN
        return layout
    title = f"Round {result.round_no} · {_reason(result, names)}"
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=WIDTH - 2 * MARGIN)
    y += line_height(TITLE) + 4
    sub = f"{game_name(view.ruleset)} · target {view.target}"
    layout.label("subtitle", MARGIN, y, sub, BODY, chosen.muted, max_width=WIDTH - 2 * MARGIN)
    y += line_height(BODY) + 18

    columns = ["Hand"]
    if view.ruleset.scoring is Scoring.HAND:
        columns.append("Melded")
    columns += ["Round", "Total"]
    right_edges = {
        name: WIDTH - MARGIN - 12 - (len(columns) - 1 - i) * NUMBER_WIDTH
        for i, name in enumerate(columns)
    }
    head_y = y
    layout.label("head:player", MARGIN + 12, head_y, "Player", SMALL_BOLD, chosen.muted)
    layout.label("head:cards", CARDS_X, head_y, "Cards left", SMALL_BOLD, chosen.muted)
    for name, right in right_edges.items():
        layout.label(f"head:{name}", right, head_y, name, SMALL_BOLD, chosen.muted, align="right")
    y += line_height(SMALL_BOLD) + 6
    cards_room = right_edges[columns[0]] - NUMBER_WIDTH + 20 - CARDS_X

    row_h = MINI.height + 2 * ROW_PAD
    winners = set(view.winners) if view.is_over and result == view.last_round else set()
    for i, seat in enumerate(view.seats):
        if i >= len(result.totals):
            break
        fill = chosen.panel if i % 2 == 0 else chosen.panel_alt
        layout.rect(Box(MARGIN, y, WIDTH - MARGIN, y + row_h), fill, radius=RADIUS)
        mid = y + row_h // 2
        name = display_name(seat.player, names)
        tag = (
            "★ winner"
            if seat.player in winners
            else "went out"
            if (seat.player == result.ender and result.reason is RoundEnd.WENT_OUT)
            else ""
        )
        name_mid = mid - 12 if tag else mid
        layout.dot(MARGIN + 19, name_mid, 12, player_colour(chosen, seat.seat))
        layout.label(
            f"name:{i}",
            MARGIN + 32,
            name_mid - line_height(BODY_BOLD) // 2,
            name,
            BODY_BOLD,
            chosen.text,
            max_width=NAME_WIDTH - 32,
        )
        if tag:
            layout.label(f"tag:{i}", MARGIN + 32, mid + 2, tag, TAG, chosen.accent)
        hand = result.hands[i]
        if hand:
            step = min(MINI.strip, max(8, (cards_room - MINI.width) // max(1, len(hand) - 1)))
            arts = [CardArt.of(c, MINI, chosen.name, False) for c in sorted(hand)]
            layout.fan(arts, CARDS_X, y + ROW_PAD, step)
        else:
            layout.label(
                f"nocards:{i}",
                CARDS_X,
                mid - line_height(SMALL) // 2,
                "no cards",
                SMALL,
                chosen.muted,
            )
        values = {
            "Hand": number(result.hand_values[i]),
            "Round": signed(result.points[i]),
            "Total": number(result.totals[i]),
        }
        if "Melded" in right_edges:
            values["Melded"] = number(result.placed_values[i])
        for column, right in right_edges.items():
            spec = BODY_BOLD if column in ("Round", "Total") else BODY
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
    if winners:
        y += 8
        text = game_over_text(view.winners, names)
        box = layout.label(
            "banner",
            MARGIN,
            y,
            text,
            BODY_BOLD,
            chosen.on_accent,
            background=chosen.accent,
            pad=PILL_PAD,
            max_width=WIDTH - 2 * MARGIN,
        )
        y = box.y1 + 6
    layout.height = y - 6 + MARGIN
    return layout
