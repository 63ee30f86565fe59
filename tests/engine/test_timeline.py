"""A finished game retold moment by moment, as the table showed it: what a replay is built of."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.rummy import Discard, DrawStock, Game, InvariantError, Meld, RoundEnd, preset
from bot.rummy.computer import EasyPlayer
from bot.rummy.timeline import Moment, MomentKind, timeline, turns
from tests.engine.conftest import cards, new_game, pass_turn

DEAL, TURN, ROUND_OVER = MomentKind.DEAL, MomentKind.TURN, MomentKind.ROUND_OVER
GAME_OVER, FINAL_SCORES = MomentKind.GAME_OVER, MomentKind.FINAL_SCORES


def _rigged(target: int) -> Game:
    """Ann, bob and cat; each of the first three turns draws and throws its card; in the
    fourth, ann draws 8♥, melds 2♥ to 8♥ and goes out by discarding K♠."""
    game = new_game(
        preset("classic", target=target),
        ["2h 3h 4h 5h 6h 7h Ks", "", ""],
        upcard="9c",
        stock="Qd Jc 10s 8h",
    )
    for _ in range(3):
        pass_turn(game)
    game.apply(DrawStock())
    game.apply(Meld(tuple(cards("2h 3h 4h 5h 6h 7h 8h"))))
    game.apply(Discard(cards("Ks")[0]))
    return game


def _play_out(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while game.current_player is not None:
        view = game.view(game.current_player)
        game.apply(EasyPlayer().choose(view, tuple(game.legal_actions()), rng))
    return game


def kinds(moments: tuple[Moment, ...]) -> list[MomentKind]:
    return [m.kind for m in moments]


def test_a_one_round_game_shows_the_deal_each_turn_and_the_end() -> None:
    game = _rigged(target=1)
    assert game.is_over
    moments = timeline(game)
    assert kinds(moments) == [DEAL, TURN, TURN, TURN, GAME_OVER, FINAL_SCORES]
    assert turns(moments) == 3
    # The turns are the table after each discard: the next player's turn, the pile's top.
    assert [m.view.current for m in moments[1:4]] == ["bob", "cat", "ann"]
    assert [str(m.view.discard[-1]) for m in moments[1:4]] == ["Q♦", "J♣", "10♠"]
    over, final = moments[-2:]
    assert over.view.is_over
    assert over.view.winners == ("ann",)
    assert [str(m) for m in over.view.melds] == ["#1 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥"]  # still on the table
    assert final.result == game.rounds[-1]
    assert final.result.ender == "ann"
    assert [s.score for s in final.view.seats] == list(game.scores)
    assert all(m.view.viewer is None and m.view.hand == () for m in moments)  # no hand shown


def test_a_round_that_ends_mid_game_shows_its_last_turn_then_its_scores_then_the_next_deal() -> (
    None
):
    game = _play_out(_rigged(target=500), seed=3)
    moments = timeline(game)
    assert kinds(moments)[:7] == [DEAL, TURN, TURN, TURN, TURN, ROUND_OVER, DEAL]
    last_turn, scored, dealt = moments[4:7]
    # Ann's last turn as it was before her going-out discard: her meld down, K♠ in hand.
    assert last_turn.view.round_no == 1
    assert last_turn.view.current == "ann"
    assert [str(m) for m in last_turn.view.melds] == ["#1 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥"]
    assert last_turn.view.seats[0].hand_size == 1
    assert scored.result is not None
    assert scored.result.round_no == 1
    assert scored.result.reason is RoundEnd.WENT_OUT
    assert scored.result.ender == "ann"
    assert dealt.view.round_no == 2
    assert dealt.view.melds == ()
    assert kinds(moments)[-2:] == [GAME_OVER, FINAL_SCORES]


def test_every_round_and_turn_of_a_seeded_game_is_there_once() -> None:
    # Seed 2 has a round ended on an empty stock: no turn of its own before its scores.
    game = _play_out(Game.new(preset("classic", target=30), ["ann", "bob"], seed=2), seed=2)
    assert RoundEnd.ENDED in {r.reason for r in game.rounds}
    moments = timeline(game)
    found = kinds(moments)
    assert found.count(DEAL) == len(game.rounds)
    assert found.count(ROUND_OVER) == len(game.rounds) - 1
    assert found[-2:] == [GAME_OVER, FINAL_SCORES]
    assert [m.result for m in moments if m.result is not None] == list(game.rounds)
    discards = sum(1 for action in game.log if isinstance(action, Discard))
    went_out = sum(1 for r in game.rounds if r.reason is RoundEnd.WENT_OUT)
    # A turn per discard; a going-out discard shows the table before it instead, except
    # in the last round, whose end the final table shows.
    assert discards - went_out <= turns(moments) <= discards
    # After a discard the next turn is about to begin (its draw); a round's last turn is
    # shown in its play, so no moment is shown twice.
    shown = [(m.view.turn, m.view.phase.value) for m in moments if m.kind is TURN]
    assert shown == sorted(shown)
    assert len(set(shown)) == len(shown)
    for before, moment in itertools.pairwise(moments):
        if moment.kind is ROUND_OVER and moment.result is not None:
            ended_in_draw = moment.result.reason is RoundEnd.ENDED
            assert (before.kind is TURN and before.view.phase.value == "draw") == ended_in_draw


def test_a_game_still_played_is_not_retold() -> None:
    game = Game.new(preset("classic"), ["ann", "bob"], seed=1)
    with pytest.raises(InvariantError):
        timeline(game)
