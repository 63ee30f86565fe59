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
from rendering.text import display_name, line_height, text_width
from rendering.theme import get_theme, player_colour
from rendering.words import ENGLISH_WORDS, Words

MINI = CardSize(62, 87)
"""As large as the table's cards, so ranks read at the size Discord shows the picture."""
MINI_CROWDED = CardSize(50, 70)
"""From seven players on, so the picture stays no higher than it is wide."""
CROWDED = 7
NAME_MIN, NAME_MAX = 150, 360
NUMBER_WIDTH = 86
ROW_PAD = 8


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
    title_right = WIDTH - MARGIN
    if winners:  # beside the title rather than under the rows: the picture stays landscape
        banner = layout.label(
            "banner",
            WIDTH - MARGIN,
            y,
            game_over_text(view.winners, names, words),
            BODY_BOLD,
            chosen.on_accent,
            background=chosen.accent,
            pad=PILL_PAD,
            max_width=(WIDTH - 2 * MARGIN) * 11 // 20,
            align="right",
        )
        title_right = banner.x0 - 16
    title = words(
        "picture.summary.title",
        round=words.number(result.round_no),
        reason=_reason(result, names, words),
    )
    layout.label("title", MARGIN, y, title, TITLE, chosen.text, max_width=title_right - MARGIN)
    y += line_height(TITLE) + 4
    why = _why(view, result, names, words)
    layout.label("why", MARGIN, y, why, BODY, chosen.text, max_width=WIDTH - 2 * MARGIN)
    y += line_height(BODY) + 2
    sub = words(
        "picture.summary.subtitle",
        game=game_name(view.ruleset, words),
        target=number(view.target, words),
    )
    layout.label("subtitle", MARGIN, y, sub, SMALL, chosen.muted, max_width=WIDTH - 2 * MARGIN)
    y += line_height(SMALL) + 12

    columns = ["Hand"]
    if view.ruleset.scoring is Scoring.HAND:
        columns.append("Melded")
    columns += ["Round", "Total"]
    right_edges = {
        name: WIDTH - MARGIN - 12 - (len(columns) - 1 - i) * NUMBER_WIDTH
        for i, name in enumerate(columns)
    }
    seated = view.seats[: len(result.totals)]
    tags = [_tag(view, result, i, s.player, winners, words) for i, s in enumerate(seated)]
    longest = max((text_width(display_name(s.player, names), BODY_BOLD) for s in seated), default=0)
    # the tags under the names are longer in some languages ("main la plus faible"): the
    # column widens for them too, and a tag that still does not fit is cut at the column
    longest = max([longest, *(text_width(tag, TAG) for tag in tags)])
    name_width = min(NAME_MAX, max(NAME_MIN, longest + 32 + 8))
    cards_x = MARGIN + name_width + 12
    head_y = y
    player = words("picture.summary.col_player")
    layout.label("head:player", MARGIN + 12, head_y, player, SMALL_BOLD, chosen.muted)
    left = words("picture.summary.col_cards")
    layout.label("head:cards", cards_x, head_y, left, SMALL_BOLD, chosen.muted)
    for name, right in right_edges.items():
        heading = words(COLUMN_WORDS[name])
        layout.label(
            f"head:{name}",
            right,
            head_y,
            heading,
            SMALL_BOLD,
            chosen.muted,
            align="right",
            max_width=NUMBER_WIDTH - 8,
        )
    y += line_height(SMALL_BOLD) + 6
    cards_room = right_edges[columns[0]] - NUMBER_WIDTH + 20 - cards_x

    mini = MINI if len(seated) < CROWDED else MINI_CROWDED
    row_h = mini.height + 3 + 2 * ROW_PAD
    for i, seat in enumerate(view.seats):
        if i >= len(result.totals):
            break
        fill = chosen.panel if i % 2 == 0 else chosen.panel_alt
        layout.rect(Box(MARGIN, y, WIDTH - MARGIN, y + row_h), fill, radius=RADIUS)
        mid = y + row_h // 2
        name = display_name(seat.player, names)
        tag = tags[i]
        name_mid = mid - 12 if tag else mid
        layout.dot(MARGIN + 19, name_mid, 12, player_colour(chosen, seat.seat))
        layout.label(
            f"name:{i}",
            MARGIN + 32,
            name_mid - line_height(BODY_BOLD) // 2,
            name,
            BODY_BOLD,
            chosen.text,
            max_width=name_width - 32,
        )
        if tag:
            layout.label(
                f"tag:{i}", MARGIN + 32, mid + 2, tag, TAG, chosen.accent, max_width=name_width - 32
            )
        hand = result.hands[i]
        if hand:
            step = min(mini.strip, max(8, (cards_room - mini.width) // max(1, len(hand) - 1)))
            arts = [CardArt.of(c, mini, chosen.name, False) for c in sorted(hand)]
            layout.fan(arts, cards_x, y + ROW_PAD, step)
        else:
            layout.label(
                f"nocards:{i}",
                cards_x,
                mid - line_height(SMALL) // 2,
                words("picture.summary.no_cards"),
                SMALL,
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
    layout.height = y - 6 + MARGIN
    return layout
