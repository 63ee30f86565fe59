"""What players and spectators see: their own hand only, the table, and of the discard pile
every card in 500 but only the top card and the size in classic and parlett."""

from __future__ import annotations

import pytest

from bot.rummy import (
    Card,
    Discard,
    DrawStock,
    Game,
    Meld,
    Phase,
    TakeDiscard,
    preset,
)

from .conftest import card, cards, cards_in, new_game, pass_turn

HANDS = ["7h 8h 9h 2c 2d 2s Kd", "6h 5h 2h", ""]


def game_for(name: str) -> Game:
    return new_game(preset(name), HANDS, upcard="Qs", stock="Jd 3c 4s 8c")


def hidden_from(game: Game, viewer: str | None) -> set[Card]:
    """Cards the viewer may not know: other hands, the stock, and (outside 500) the
    discard pile below its top card."""
    hidden = set(game.state.stock)
    for seat, hand in enumerate(game.state.hands):
        if game.players[seat] != viewer:
            hidden |= set(hand)
    if not game.ruleset.deep_discard:
        hidden |= set(game.state.discard[:-1])
    return hidden


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
@pytest.mark.parametrize("viewer", ["ann", "bob", "cat", None, "zed"])
def test_no_view_holds_a_hidden_card(name: str, viewer: str | None) -> None:
    game = game_for(name)
    checkpoints = 0
    for step in (
        DrawStock(),
        Meld(cards("7h 8h 9h")),
        Discard(card("Kd")),
        DrawStock(),
        Discard(card("3c")),
        DrawStock(),
    ):
        game.apply(step)
        leaked = set(cards_in(game.view(viewer))) & hidden_from(game, viewer)
        assert not leaked, f"{viewer} sees {leaked} after {step}"
        checkpoints += 1
    assert checkpoints == 6


@pytest.mark.parametrize("viewer", ["ann", "bob", "cat"])
def test_a_player_sees_their_own_hand(viewer: str) -> None:
    game = game_for("classic")
    view = game.view(viewer)
    seat = game.players.index(viewer)
    assert view.viewer == viewer
    assert sorted(view.hand) == sorted(game.state.hands[seat])


@pytest.mark.parametrize("viewer", [None, "zed"])
def test_a_spectator_sees_no_hand(viewer: str | None) -> None:
    view = game_for("classic").view(viewer)
    assert view.viewer is None
    assert view.hand == ()
    assert view.drawn == ()


def test_the_card_drawn_from_the_stock_is_shown_only_to_the_drawer() -> None:
    game = game_for("classic")
    game.apply(DrawStock())
    assert game.view("ann").drawn == (card("Jd"),)
    for other in ("bob", "cat", None):
        assert game.view(other).drawn == ()
        assert card("Jd") not in set(cards_in(game.view(other)))


def test_no_discard_and_must_use_are_the_players_own() -> None:
    game = game_for("500")
    game.apply(TakeDiscard())
    assert game.view("ann").no_discard == card("Qs")
    assert game.view("bob").no_discard is None
    assert game.view(None).no_discard is None


def test_counts_seats_and_turn() -> None:
    game = game_for("classic")
    view = game.view("bob")
    assert [s.player for s in view.seats] == ["ann", "bob", "cat"]
    assert [s.seat for s in view.seats] == [0, 1, 2]
    assert [s.hand_size for s in view.seats] == [7, 7, 7]
    assert [s.is_dealer for s in view.seats] == [False, False, True]
    assert [s.is_current for s in view.seats] == [True, False, False]
    assert view.dealer == "cat"
    assert view.current == "ann"
    assert view.phase is Phase.DRAW
    assert view.round_no == 1
    assert view.stock_size == 52 - 21 - 1
    assert view.discard_size == 1
    assert view.discard == (card("Qs"),)
    assert view.target == 100
    game.apply(DrawStock())
    game.apply(Meld(cards("7h 8h 9h")))
    view = game.view("cat")
    assert view.phase is Phase.PLAY
    assert [s.hand_size for s in view.seats] == [5, 7, 7]
    assert [s.has_melded for s in view.seats] == [True, False, False]
    (meld,) = view.melds
    assert meld.id == 1
    assert meld.owner == "ann"
    assert [p.card for p in meld.cards] == cards("7h 8h 9h")
    assert all(p.placed_by == "ann" for p in meld.cards)


@pytest.mark.parametrize("name", ["classic", "parlett"])
def test_classic_and_parlett_show_the_top_discard_and_the_size(name: str) -> None:
    game = game_for(name)
    pass_turn(game)  # J♦
    pass_turn(game)  # 3♣
    for viewer in ("ann", "bob", "cat", None):
        view = game.view(viewer)
        assert view.discard == (card("3c"),)
        assert view.discard_size == 3


def test_500_shows_the_whole_discard_pile_bottom_first() -> None:
    game = game_for("500")
    pass_turn(game)
    pass_turn(game)
    for viewer in ("ann", "bob", "cat", None):
        view = game.view(viewer)
        assert view.discard == tuple(cards("Qs Jd 3c"))
        assert view.discard_size == 3


def test_a_finished_round_shows_its_hands_and_scores() -> None:
    hands = ["3c 4c 5c 6c 9d 9h 9s", "Kc Qd Jh 10s 8c 7d 2h", "Ac 2d 3h 4s 5d 6h 7s"]
    game = new_game(preset("classic"), hands, upcard="Kd", stock="9c")
    game.state.scores = [15, 0, 0]  # set directly: ann's 85 points reach the target
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("9c 9d 9h 9s")))
    for viewer in ("bob", None):
        view = game.view(viewer)
        assert view.phase is Phase.GAME_OVER
        assert view.is_over
        assert view.current is None
        assert view.winners == ("ann",)
        (result,) = view.rounds
        assert result.ender == "ann"
        assert sorted(result.hands[1]) == sorted(cards(hands[1]))
        assert result.points == (85, 0, 0)
        assert [s.score for s in view.seats] == [100, 0, 0]
        assert not any(s.is_current for s in view.seats)
