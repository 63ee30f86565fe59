"""The table changes height only when what it holds does, never past its cap, and the
hand keeps its size through a turn, so the messages under them stay put; and the seats read
in the order of play.

Rounds are played through the engine with seeded random moves (eager to meld, so tables
fill up), and every picture is laid out after every action.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterator

import pytest

from bot.rummy.game import Game
from bot.rummy.players import random_action
from bot.rummy.rules import preset
from bot.rummy.views import GameView
from rendering import layout_hand, layout_table
from rendering.hand import PER_ROW
from rendering.layout import Label, Layout
from rendering.table import table_size
from tests.rendering import scenes

ROUNDS = [
    ("classic", 2, 11),
    ("classic", 4, 12),
    ("parlett", 3, 13),
    ("parlett", 7, 14),
    ("500", 2, 15),
    ("500", 4, 16),
    ("500", 8, 17),
]


def one_round(name: str, players: int, seed: int) -> Iterator[Game]:
    """The game before every action of its first round."""
    game = Game.new(preset(name), [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.round_no == 1:
        yield game
        game.apply(random_action(game, rng, eagerness=0.9))


def holds(layout: Layout, view: GameView) -> tuple[object, ...]:
    """What a table's height may follow: the melds and their cards, and whether the Rummy
    500 pile has a row of its own (a depth written under the header)."""
    target = next(i for i in layout.items if isinstance(i, Label) and i.name == "target")
    own_row = any(
        isinstance(i, Label) and i.kind == "depth" and i.box.y0 > target.box.y1
        for i in layout.items
    )
    return tuple(len(m.cards) for m in view.melds), own_row


@pytest.mark.parametrize(("name", "players", "seed"), ROUNDS)
def test_the_table_changes_height_only_with_what_it_holds(
    name: str, players: int, seed: int
) -> None:
    """Turns going round, cards drawn and discarded leave the height alone; a meld, a
    lay-off or the pile's own row may change it, never past the cap."""
    heights: dict[tuple[object, ...], set[int]] = defaultdict(set)
    most_melds = 0
    for game in one_round(name, players, seed):
        view = game.view(None)
        layout = layout_table(view)
        cap = table_size(view)
        assert layout.width == cap[0]
        assert layout.height <= cap[1]
        heights[holds(layout, view)].add(layout.height)
        most_melds = max(most_melds, len(view.melds))
    assert most_melds >= 2, "the round made too few melds to test anything"
    assert len(heights) > 2
    changed = {state: hs for state, hs in heights.items() if len(hs) > 1}
    assert not changed


@pytest.mark.parametrize(("name", "players", "seed"), ROUNDS)
def test_the_hand_keeps_its_size_through_a_turn(name: str, players: int, seed: int) -> None:
    """Every hand the player whose turn it is sees, from the draw to the discard.

    Only a Rummy 500 take that brings a hand past ``PER_ROW`` cards adds a row of cards;
    such turns are left out, and the rest must still be most of the round."""
    by_turn: dict[int, set[tuple[int, int]]] = defaultdict(set)
    biggest: dict[int, int] = defaultdict(int)
    for game in one_round(name, players, seed):
        current = game.current_player
        assert current is not None
        view = game.view(current)
        by_turn[view.turn].add(layout_hand(view).size)
        biggest[view.turn] = max(biggest[view.turn], len(view.hand))
    checked = {t: s for t, s in by_turn.items() if biggest[t] <= PER_ROW}
    assert len(checked) >= 0.8 * len(by_turn)
    changed = {t: s for t, s in checked.items() if len(s) > 1}
    assert not changed


def reading_order(layout: Layout, players: int) -> list[int]:
    """The seats whose names the panels show, top row first, left to right."""
    names = [i for i in layout.items if isinstance(i, Label) and i.name.startswith("name:")]
    assert len(names) == players
    names.sort(key=lambda label: (label.box.y0, label.box.x0))
    return [int(label.name.split(":")[1]) for label in names]


@pytest.mark.parametrize("players", range(2, 9))
def test_seats_read_in_the_order_of_play(players: int) -> None:
    people = [f"p{i}" for i in range(players)]
    for current in range(players):
        view = scenes.view(
            preset("500"), scenes.seats(people, dealer=(current - 1) % players, current=current)
        )
        layout = layout_table(view)
        assert reading_order(layout, players) == list(range(players))
        shown = {i.name: i.text for i in layout.items if isinstance(i, Label)}
        assert shown["previous"] == f"p{(current - 1) % players}"
        assert shown["turn"] == f"▶ p{current} to play"
        assert shown["next"] == f"p{(current + 1) % players}"


def test_the_order_of_play_reads_left_to_right() -> None:
    layout = layout_table(scenes.classic_table(), names=scenes.NAMES)
    boxes = dict(layout.labels)
    line = ["previous", "arrow:before", "turn", "arrow:after", "next"]
    for left, right in itertools.pairwise(line):
        assert boxes[left].x1 <= boxes[right].x0, (left, right)
    assert boxes["next"].x1 <= layout.width - 20
    assert boxes["previous"].y0 < boxes["turn"].y1
    assert boxes["next"].y0 < boxes["turn"].y1


def test_the_order_of_play_gives_way_to_the_result_at_the_end() -> None:
    shown = {i.name for i in layout_table(scenes.finished_game()).items if isinstance(i, Label)}
    assert "banner" in shown
    assert not shown & {"previous", "turn", "next", "arrow:before", "arrow:after"}
