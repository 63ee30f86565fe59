"""Actions as values: their text form, their JSON form, and choosing a reading by number."""

from __future__ import annotations

import pytest

from bot.rummy import (
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    LayOff,
    Meld,
    NotYourTurn,
    Phase,
    PlayerError,
    SwapJoker,
    TakeDiscard,
    action_from_json,
    action_to_json,
    parse_action,
    preset,
    readings,
)
from tests.engine.conftest import cards, new_game, refused

PARLETT = preset("parlett")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DrawStock()),
        ("take", TakeDiscard(1)),
        ("take 3", TakeDiscard(3)),
        ("end", EndRound()),
        ("meld 7h 8h 9h", Meld(tuple(cards("7h 8h 9h")))),
        ("layoff 2 10h", LayOff(tuple(cards("10h")), 2)),
        ("swap 1 7h", SwapJoker(1, Card.parse("7h"))),
        ("discard Qs", Discard(Card.parse("Qs"))),
    ],
)
def test_text_form_parses_back(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "fold", "take many", "layoff x 10h", "discard 11h"])
def test_text_that_is_no_action_is_refused_for_people(text: str) -> None:
    with pytest.raises(PlayerError):
        parse_action(text)


def test_json_form_round_trips_with_readings_objects_and_numbers() -> None:
    reading = readings("5h 6h jk", PARLETT)[1]
    for action in (
        Meld(reading.cards, reading),
        Meld(reading.cards, 1),
        LayOff(tuple(cards("jk")), 3, 0),
        TakeDiscard(4),
    ):
        assert action_from_json(action_to_json(action)) == action


def test_a_reading_chosen_by_number_is_that_reading() -> None:
    # 5♥ 6♥ JK reads as 5-6-7 or 4-5-6 (rules.md: the player chooses); number 1 is the
    # second reading offered.
    game = new_game(PARLETT, ["5h 6h jk 9c 9d Ks Qd", "", ""], upcard="2s", stock="8c")
    game.apply(DrawStock())
    offered = readings(cards("5h 6h jk"), PARLETT)
    game.apply(Meld(tuple(cards("5h 6h jk")), 1))
    assert game.state.melds[0].slots == offered[1].slots


def test_a_reading_number_out_of_range_is_refused_and_changes_nothing() -> None:
    game = new_game(PARLETT, ["5h 6h jk 9c 9d Ks Qd", "", ""], upcard="2s", stock="8c")
    game.apply(DrawStock())
    refused(game, Meld(tuple(cards("5h 6h jk")), 2))


def test_out_of_turn_says_so_and_names_whose_turn_it_is() -> None:
    game = new_game(PARLETT, ["5h 6h jk 9c 9d Ks Qd", "", ""], upcard="2s", stock="8c")
    before = game.to_json()
    with pytest.raises(NotYourTurn) as refusal:
        game.apply(DrawStock(), "bob")
    assert str(refusal.value) == "It is not your turn."
    assert refusal.value.current == "ann"
    assert game.to_json() == before


def test_a_copy_goes_its_own_way() -> None:
    game = Game.new(PARLETT, ["ann", "bob"], seed=5)
    twin = game.copy()
    assert twin == game
    twin.apply(DrawStock(), "ann")
    assert twin != game
    assert game.phase is Phase.DRAW
    assert len(game.hand("ann")) + 1 == len(twin.hand("ann"))
    assert len(game.log) + 1 == len(twin.log)


def test_actions_accept_a_list_of_cards() -> None:
    assert Meld(cards("7h 8h 9h")) == Meld(tuple(cards("7h 8h 9h")))
    assert LayOff(cards("10h"), 2).cards == (Card.parse("10h"),)
