"""rules.md, "The three presets", "The deal" and "Card values": players, decks and jokers,
deal sizes, card values, options and their refusal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.rummy import (
    Card,
    Game,
    RulesError,
    Scoring,
    Suit,
    card_value,
    parse_cards,
    preset,
)

from .conftest import NAMES

# --- players: classic 2–4, parlett 2–7, 500 2–4 (5–8 with two decks) -----------------------

PLAYER_RANGES = [("classic", 2, 4), ("parlett", 2, 7), ("500", 2, 8)]


@pytest.mark.parametrize(("name", "low", "high"), PLAYER_RANGES)
def test_player_counts_in_range_are_dealt(name: str, low: int, high: int) -> None:
    for n in range(low, high + 1):
        game = Game.new(preset(name), list(NAMES[:n]), seed=n)
        assert len(game.state.hands) == n


@pytest.mark.parametrize(("name", "low", "high"), PLAYER_RANGES)
def test_player_counts_out_of_range_are_refused(name: str, low: int, high: int) -> None:
    for n in (1, high + 1):
        with pytest.raises(RulesError):
            Game.new(preset(name), [f"p{i}" for i in range(n)], seed=1)


def test_a_player_sits_only_once() -> None:
    with pytest.raises(RulesError):
        Game.new(preset("classic"), ["ann", "ann"], seed=1)


# --- decks / jokers ---------------------------------------------------------------------

DECKS = [
    # (preset, options, players, decks, jokers in play)
    ("classic", {}, 2, 1, 0),
    ("classic", {}, 4, 1, 0),
    ("parlett", {}, 2, 1, 2),
    ("parlett", {}, 5, 1, 2),
    ("parlett", {}, 6, 2, 4),
    ("parlett", {}, 7, 2, 4),
    ("parlett", {"two_decks": True}, 2, 1, 2),
    ("parlett", {"two_decks": True}, 3, 1, 2),
    ("parlett", {"two_decks": True}, 4, 2, 4),
    ("parlett", {"two_decks": True}, 5, 2, 4),
    ("parlett", {"two_decks": True}, 7, 2, 4),
    ("parlett", {"jokers": False}, 3, 1, 0),
    ("parlett", {"jokers": False}, 6, 2, 0),
    ("parlett", {"jokers": False, "two_decks": True}, 4, 2, 0),
    ("500", {}, 2, 1, 0),
    ("500", {}, 4, 1, 0),
    ("500", {}, 5, 2, 0),
    ("500", {}, 8, 2, 0),
    ("500", {"jokers": True}, 3, 1, 2),
    ("500", {"jokers": True}, 5, 2, 4),
]


@pytest.mark.parametrize(("name", "options", "n", "decks", "jokers"), DECKS)
def test_decks_and_jokers(
    name: str, options: dict[str, Any], n: int, decks: int, jokers: int
) -> None:
    ruleset = preset(name, **options)
    assert ruleset.decks_for(n) == decks
    game = Game.new(ruleset, list(NAMES[:n]), seed=3)
    everything = (
        [c for hand in game.state.hands for c in hand] + game.state.stock + game.state.discard
    )
    assert len(everything) == len(set(everything)) == 52 * decks + jokers
    faces = Counter(c.face for c in everything if not c.is_joker)
    assert len(faces) == 52
    assert set(faces.values()) == {decks}
    assert sum(c.is_joker for c in everything) == jokers


# --- cards dealt ------------------------------------------------------------------------

DEAL_SIZES = [
    ("classic", {}, 2, 13),
    ("classic", {}, 3, 7),
    ("classic", {}, 4, 7),
    ("parlett", {}, 2, 10),
    ("parlett", {}, 3, 7),
    ("parlett", {"ten_for_three": True}, 3, 10),
    ("parlett", {"ten_for_three": True}, 2, 10),
    ("parlett", {"ten_for_three": True}, 4, 7),
    ("parlett", {}, 4, 7),
    ("parlett", {}, 5, 7),
    ("parlett", {"two_decks": True}, 4, 10),
    ("parlett", {"two_decks": True}, 5, 10),
    ("parlett", {"two_decks": True}, 3, 7),
    ("parlett", {}, 6, 10),
    ("parlett", {}, 7, 10),
    ("500", {}, 2, 13),
    ("500", {}, 3, 7),
    ("500", {}, 4, 7),
    ("500", {}, 5, 7),
    ("500", {}, 8, 7),
]


@pytest.mark.parametrize(("name", "options", "n", "size"), DEAL_SIZES)
def test_cards_dealt(name: str, options: dict[str, Any], n: int, size: int) -> None:
    ruleset = preset(name, **options)
    assert ruleset.hand_size(n) == size
    game = Game.new(ruleset, list(NAMES[:n]), seed=5)
    assert [len(h) for h in game.state.hands] == [size] * n
    # "the next stock card is turned up to start the discard pile"
    assert len(game.state.discard) == 1
    total = 52 * ruleset.decks_for(n) + ruleset.decks_for(n) * ruleset.jokers_per_deck
    assert len(game.state.stock) == total - size * n - 1
    view = game.view(None)
    assert [s.hand_size for s in view.seats] == [size] * n
    assert view.stock_size == len(game.state.stock)
    assert view.discard_size == 1


def test_deal_is_one_card_at_a_time_from_the_player_after_the_dealer() -> None:
    # 3 players, 7 cards each: seat 0 gets deck[0], deck[3], ...; then the upcard, then
    # the stock with deck[22] on top.
    deck = parse_cards(
        "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ad 2d 3d 4d 5d 6d 7d 8d Ah 2h 3h 4h 5h"
    )
    game = Game.new(preset("classic"), ["ann", "bob", "cat"], seed=9, deck=deck)
    assert game.state.dealer == 2
    assert game.state.current == 0
    for seat in range(3):
        assert game.state.hands[seat] == deck[seat:21:3]
    assert game.state.discard == [deck[21]]
    assert game.state.stock[-1] == deck[22]  # the stock's top is its last element
    assert game.state.stock[-4:] == deck[22:26][::-1]


def test_rigged_deck_naming_a_face_twice_gives_the_second_copy() -> None:
    ruleset = preset("500")  # five players: two decks
    deck = parse_cards("10h 10h")
    game = Game.new(ruleset, list(NAMES[:5]), seed=2, deck=deck)
    assert game.state.hands[0][0] == Card(10, Suit.HEARTS, 0)
    assert game.state.hands[1][0] == Card(10, Suit.HEARTS, 1)


# --- card values ------------------------------------------------------------------------


def c(text: str) -> Card:
    return Card.parse(text)


VALUES = [
    # classic: 2-9 face value (simple: 5), 10-K 10, ace 1 (simple: 5)
    ("classic", {}, "2h", 2),
    ("classic", {}, "5d", 5),
    ("classic", {}, "9s", 9),
    ("classic", {}, "10c", 10),
    ("classic", {}, "Jh", 10),
    ("classic", {}, "Qd", 10),
    ("classic", {}, "Ks", 10),
    ("classic", {}, "Ac", 1),
    ("classic", {"simple_scoring": True}, "2h", 5),
    ("classic", {"simple_scoring": True}, "9s", 5),
    ("classic", {"simple_scoring": True}, "10c", 10),
    ("classic", {"simple_scoring": True}, "Ks", 10),
    ("classic", {"simple_scoring": True}, "Ac", 5),
    # parlett: face value, 10-K 10, ace 1 (11 with high-or-low aces), joker 15
    ("parlett", {}, "2h", 2),
    ("parlett", {}, "9s", 9),
    ("parlett", {}, "10c", 10),
    ("parlett", {}, "Qd", 10),
    ("parlett", {}, "Ac", 1),
    ("parlett", {"ace_high": True}, "Ac", 11),
    ("parlett", {"ace_high": True}, "7c", 7),
    ("parlett", {}, "JK", 15),
    # 500: face value (simple: 5), 10-K 10, ace 15 in hand, joker 15
    ("500", {}, "2h", 2),
    ("500", {}, "9s", 9),
    ("500", {}, "10c", 10),
    ("500", {}, "Ks", 10),
    ("500", {}, "Ac", 15),
    ("500", {"simple_scoring": True}, "2h", 5),
    ("500", {"simple_scoring": True}, "9s", 5),
    ("500", {"simple_scoring": True}, "Jd", 10),
    ("500", {"simple_scoring": True}, "Ac", 15),
    ("500", {"ace_always_low": True}, "Ac", 1),
    ("500", {"ace_always_low": True, "simple_scoring": True}, "Ac", 5),
    ("500", {"jokers": True}, "JK", 15),
    ("500", {"jokers": True, "simple_scoring": True}, "JK", 15),
]


@pytest.mark.parametrize(("name", "options", "text", "value"), VALUES)
def test_card_value_in_hand(name: str, options: dict[str, Any], text: str, value: int) -> None:
    ruleset = preset(name, **options)
    assert card_value(c(text), ruleset) == value
    assert ruleset.card_value(c(text)) == value


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
def test_twins_have_the_same_value(name: str) -> None:
    ruleset = preset(name)
    assert card_value(Card(7, Suit.HEARTS, 1), ruleset) == card_value(Card(7, Suit.HEARTS), ruleset)


# --- preset contents --------------------------------------------------------------------


def test_preset_defaults() -> None:
    classic, parlett, five = preset("classic"), preset("parlett"), preset("500")
    assert (classic.target, parlett.target, five.target) == (100, 100, 500)
    assert classic.scoring is Scoring.POSITIVE
    assert parlett.scoring is Scoring.POSITIVE
    assert five.scoring is Scoring.HAND
    assert (classic.ace_high, parlett.ace_high, five.ace_high) == (False, False, True)
    assert (classic.deep_discard, parlett.deep_discard, five.deep_discard) == (False, False, True)
    assert not classic.limit_layoffs
    assert not five.limit_layoffs
    assert not any(r.must_discard_to_go_out for r in (classic, parlett, five))


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
@pytest.mark.parametrize("target", [1, 50, 250, 1000])
def test_target_is_an_option_of_every_preset(name: str, target: int) -> None:
    assert preset(name, target=target).target == target


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
def test_must_discard_to_go_out_is_an_option_of_every_preset(name: str) -> None:
    assert preset(name, must_discard_to_go_out=True).must_discard_to_go_out


@pytest.mark.parametrize(
    ("name", "options", "field", "value"),
    [
        ("classic", {"limit_layoffs": True}, "limit_layoffs", True),
        ("classic", {"simple_scoring": True}, "simple_scoring", True),
        ("classic", {"scoring": "negative"}, "scoring", Scoring.NEGATIVE),
        ("classic", {"negative_scoring": True}, "scoring", Scoring.NEGATIVE),
        ("parlett", {"jokers": False}, "jokers_per_deck", 0),
        ("parlett", {"ace_high": True}, "ace_high", True),
        ("parlett", {"ten_for_three": True}, "ten_for_three", True),
        ("500", {"limit_layoffs": True}, "limit_layoffs", True),
        ("500", {"simple_scoring": True}, "simple_scoring", True),
        ("500", {"jokers": True}, "jokers_per_deck", 2),
        ("500", {"ace_always_low": True}, "ace_high", False),
    ],
)
def test_options_of_each_preset(
    name: str, options: dict[str, Any], field: str, value: object
) -> None:
    assert getattr(preset(name, **options), field) == value


@pytest.mark.parametrize(
    ("name", "options"),
    [
        # options that belong to another preset
        ("classic", {"jokers": True}),
        ("classic", {"two_decks": True}),
        ("classic", {"ten_for_three": True}),
        ("classic", {"ace_high": True}),
        ("classic", {"ace_always_low": True}),
        ("parlett", {"limit_layoffs": True}),
        ("parlett", {"simple_scoring": True}),
        ("parlett", {"scoring": "negative"}),
        ("parlett", {"negative_scoring": True}),
        ("parlett", {"ace_always_low": True}),
        ("500", {"ten_for_three": True}),
        ("500", {"two_decks": True}),
        ("500", {"ace_high": False}),
        ("500", {"scoring": "negative"}),
        ("500", {"negative_scoring": True}),
        ("classic", {"scoring": "hand"}),
        # no such option anywhere
        ("classic", {"wild_twos": True}),
        ("parlett", {"colour": "red"}),
        # impossible values
        ("classic", {"target": 0}),
        ("parlett", {"target": -100}),
        ("500", {"target": "lots"}),
        ("classic", {"scoring": "backwards"}),
        ("parlett", {"jokers": 3}),
        ("500", {"jokers": 1}),
    ],
)
def test_unavailable_or_impossible_options_are_refused(name: str, options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        preset(name, **options)
    assert str(info.value)  # with a reason
    assert isinstance(info.value, ValueError)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesError):
        preset("gin")


def test_rulesets_are_fixed_values() -> None:
    ruleset = preset("classic")
    with pytest.raises(AttributeError):
        ruleset.target = 5  # type: ignore[misc]
