"""The round summary, the score chart and the league pictures, checked on their layouts."""

from __future__ import annotations

import math
from dataclasses import replace

from rendering import (
    StandingRow,
    layout_player_card,
    layout_round_summary,
    layout_score_chart,
    layout_standings,
)
from rendering.chart import nice_ticks
from rendering.layout import CardItem, Label, Layout, Line
from rendering.summary import NAME_LINES
from rendering.text import ELLIPSIS
from rendering.theme import DARK, THEMES, player_colour
from rendering.words import ENGLISH, Words
from tests.rendering import scenes


def texts(layout: Layout) -> dict[str, str]:
    return {i.name: i.text for i in layout.items if isinstance(i, Label)}


def test_summary_shows_each_players_hand_value_points_and_total() -> None:
    view, result = scenes.hand_scoring_round()
    shown = texts(layout_round_summary(view, result, names=scenes.NAMES))
    assert shown["title"] == "Round 5 · Bob went out"
    for i in range(4):
        assert shown[f"Hand:{i}"] == str(result.hand_values[i])
        assert shown[f"Melded:{i}"] == str(result.placed_values[i])
        assert shown[f"Total:{i}"] == str(result.totals[i]).replace("-", "−")
    assert shown["Round:0"] == "+18"
    assert shown["Round:2"] == "−39"
    assert shown["nocards:1"] == "no cards"
    assert shown["tag:1"] == "went out"


def test_summary_defaults_to_the_last_round_and_hides_melded_outside_500() -> None:
    view = scenes.finished_game()
    shown = texts(layout_round_summary(view, names=scenes.NAMES))
    assert shown["title"].startswith("Round 5 ")
    assert not any(name.startswith("Melded") for name in shown)
    assert shown["banner"] == "★ Game over · Bob wins!"


def test_summary_without_rounds_says_so() -> None:
    view = scenes.classic_table()
    assert texts(layout_round_summary(view))["title"] == "No round has been scored yet"


def test_chart_draws_one_line_per_player_through_every_round() -> None:
    view = scenes.finished_game()
    layout = layout_score_chart(view, names=scenes.NAMES)
    lines = [i for i in layout.items if isinstance(i, Line) and not i.dashed]
    assert [line.colour for line in lines] == [player_colour(DARK, s.seat) for s in view.seats]
    assert all(len(line.points) == len(view.rounds) + 1 for line in lines)
    bob = lines[1].points
    assert bob[-1][1] < bob[0][1]  # Bob's total rose, so his line ends higher up
    shown = texts(layout)
    assert shown["legend:1"] == "★ Bob  123"
    assert shown["target"] == "target 100"


def test_nice_ticks_cover_the_range_with_round_steps() -> None:
    assert nice_ticks(0, 123) == [0, 50, 100, 150]
    assert nice_ticks(-79, 500) == [-100, 0, 100, 200, 300, 400, 500]
    assert nice_ticks(0, 3) == [0, 1, 2, 3]


def test_standings_show_every_row_and_cut_long_names() -> None:
    rows = scenes.standings()
    shown = texts(layout_standings(rows, title="Standings", page=2, pages=3))
    assert shown["page"] == "page 2 of 3"
    assert shown["name:1"].endswith(ELLIPSIS)
    assert shown["Win %:0"] == "45%"
    assert shown["Rating:0"] == "31.5"
    assert [shown[f"place:{i}"] for i in range(len(rows))] == [str(r.place) for r in rows]


def test_standings_without_rows_and_with_big_ratings() -> None:
    assert texts(layout_standings([], title="Standings"))["empty"] == "No games played yet"
    row = replace(scenes.standings()[0], rating=1512.4, points_for=123456)
    shown = texts(layout_standings([row], title="Standings"))
    assert shown["Rating:0"] == "1,512"
    assert "For:0" not in shown  # left out by rule: not room for every column at the floor
    assert "page" not in shown


def test_player_card_shows_the_record_and_recent_games() -> None:
    card = scenes.player_card()
    shown = texts(layout_player_card(card))
    assert shown["record"] == "36 games · 14 wins · 39%"
    assert shown["rating"] == "28.7"
    assert shown["game:0"] == "★ 1/4"
    assert shown["game:1"] == "3/4"
    assert shown["stat:2"] == "−87"


def test_standing_row_is_a_plain_value() -> None:
    row = StandingRow(1, "Ann", 3, 2, 2 / 3, 25.0, 100, 50)
    assert row == StandingRow(1, "Ann", 3, 2, 2 / 3, 25.0, 100, 50)
    assert hash(row) == hash(StandingRow(1, "Ann", 3, 2, 2 / 3, 25.0, 100, 50))


def test_summary_says_why_a_round_without_a_winner_scored() -> None:
    view, result = scenes.blocked_round()
    shown = texts(layout_round_summary(view, result, names=scenes.NAMES))
    assert shown["title"] == "Round 5 · the round was blocked"  # one line when it fits
    assert shown["why"].startswith("No one went out: the lowest hand (4)")
    assert shown["tag:3"] == "lowest hand"
    view, result = scenes.ended_round()
    shown = texts(layout_round_summary(view, result, names=scenes.NAMES))
    # too long for one line: broken after its " · ", nothing cut
    assert [shown["title"], shown["title:line2"]] == [
        "Round 3",
        "Ann ended the round on an empty stock",
    ]
    assert shown["tag:3"] == "lowest hand"


def test_summary_names_are_not_cut_while_the_cards_have_room() -> None:
    view, result = scenes.hand_scoring_round()
    names = {**scenes.NAMES, "bob": "Maximiliana Bartholomew"}
    shown = texts(layout_round_summary(view, result, names=names))
    # a second line rather than a cut
    assert [shown["name:1"], shown["name:1:line2"]] == ["Maximiliana", "Bartholomew"]
    assert "name:0:line2" not in shown  # "Ann" keeps to one
    names["bob"] = scenes.LONG_NAME * 3  # no room for this one even on all its lines
    shown = texts(layout_round_summary(view, result, names=names))
    assert shown[f"name:1:line{NAME_LINES}"].endswith(ELLIPSIS)


def test_chart_target_is_clear_of_the_players() -> None:
    view = scenes.finished_game()
    for theme in THEMES.values():
        layout = layout_score_chart(view, names=scenes.NAMES, theme=theme.name)
        target = next(i for i in layout.items if isinstance(i, Label) and i.name == "target")
        assert target.colour not in theme.players
        assert all(math.dist(target.colour, p) > 80 for p in theme.players)  # plainly apart
        lines = [i for i in layout.items if isinstance(i, Line) and not i.dashed]
        for line in lines:  # no player's point lies under the label
            for x, y in line.points:
                box = target.box
                assert not (box.x0 - 6 <= x <= box.x1 + 6 and box.y0 - 6 <= y <= box.y1 + 6)


def test_summary_tags_stay_in_the_name_column() -> None:
    """A tag longer than the narrowest column ("main la plus faible") widens the column; one
    longer than the widest column is cut there, never drawn over the cards."""
    view, result = scenes.blocked_round()
    for tag, whole in (("main la plus faible", True), ("nejméně karet v ruce " * 4, False)):
        words = Words(texts={**ENGLISH, "picture.summary.tag_lowest": tag})
        layout = layout_round_summary(view, result, names=scenes.NAMES, words=words)
        boxes = dict(layout.labels)
        first_card = min(i.x for i in layout.items if isinstance(i, CardItem))
        assert boxes["tag:3"].x1 < min(boxes["head:cards"].x0, first_card)
        assert (texts(layout)["tag:3"] == tag) is whole
