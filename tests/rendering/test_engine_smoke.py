"""Pictures of real games played by the engine's random player, from deal to game over.

Golden tests use hand-built views; this one makes sure views the engine really produces
(every phase, every preset) lay out cleanly and render.
"""

from __future__ import annotations

import random

import pytest

from bot.rummy.game import Game
from bot.rummy.players import random_action
from bot.rummy.rules import preset
from rendering import (
    layout_hand,
    layout_round_summary,
    layout_table,
    render_hand,
    render_round_summary,
    render_score_chart,
    render_table,
)
from tests.rendering.test_properties import assert_labels_inside_and_apart


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [("classic", 4, 1), ("parlett", 7, 2), ("500", 5, 3)],
)
def test_random_games_render_at_every_stage(name: str, players: int, seed: int) -> None:
    ids = [f"cpu-{i}" for i in range(players)]
    game = Game.new(preset(name, target=60 if name != "500" else 150), ids, seed=seed)
    rng = random.Random(seed)
    for step in range(5000):
        if game.is_over:
            break
        if step % 25 == 0:
            viewer = game.current_player
            view = game.view(viewer)
            assert_labels_inside_and_apart(layout_table(view))
            assert_labels_inside_and_apart(layout_hand(view))
            if view.rounds:
                assert_labels_inside_and_apart(layout_round_summary(view))
        game.apply(random_action(game, rng))
    assert game.is_over
    view = game.view(ids[0])
    assert view.rounds
    for picture in (
        render_table(view),
        render_hand(view),
        render_round_summary(view),
        render_score_chart(view),
    ):
        assert picture.startswith(b"\x89PNG")
