"""Adding a variant is one registry entry: a Gin-like two-player variant that exists only in
this test, registered by a fixture and nothing else, is dealt, played to the end by the
computer players, saved and reloaded, and drawn."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.rummy import Game, RulesError, Ruleset, preset, preset_names
from bot.rummy.computer import HardPlayer, Level, make_player
from bot.rummy.serialize import state_from_data, state_to_dict
from bot.rummy.variants import ALIASES, VARIANTS, Scoring, StockOut, Variant, register
from rendering import layout_table, render_round_summary, render_table
from rendering.layout import Label

GIN = Variant(
    name="gin-test",
    aliases=("gin-like",),
    title="Gin-like Rummy",
    picture_title="Gin-like Rummy",
    name_key="variant.gin_test",
    scorings=(Scoring.POSITIVE,),
    rules={
        "min_players": 2,
        "max_players": 2,
        "jokers_per_deck": 0,
        "two_decks_for_four_five": False,
        "ten_for_three": False,
        "ace_high": False,
        "deep_discard": False,
        "stock_out": StockOut.END_ROUND,
        "simple_scoring": False,
        "target": 100,
        "limit_layoffs": False,
        "must_discard_to_go_out": True,
        "joker_swap": False,
    },
    options=("target",),
    decks={2: 1},
    hand_sizes={2: 10},
    cut_losses_after=5,
)


@pytest.fixture
def gin() -> Iterator[Variant]:
    """GIN in the registry for one test, and the registry as it was afterwards."""
    variants, aliases = dict(VARIANTS), dict(ALIASES)
    yield register(GIN)
    VARIANTS.clear()
    VARIANTS.update(variants)
    ALIASES.clear()
    ALIASES.update(aliases)


def test_a_registered_variant_is_a_preset_with_its_own_deal_and_options(gin: Variant) -> None:
    assert preset_names()[-1] == "gin-test"
    ruleset = preset(" Gin-Like ", target=60)
    assert (ruleset.name, ruleset.target, ruleset.must_discard_to_go_out) == ("gin-test", 60, True)
    assert (ruleset.decks_for(2), ruleset.hand_size(2)) == (1, 10)
    assert ruleset.describe() == "gin-test (target=60)"
    assert HardPlayer().cut_after["gin-test"] == 5
    with pytest.raises(
        RulesError,
        match="gin-test has no option 'jokers'; its options are: game_target, target, target_score",
    ):
        preset("gin-test", jokers=True)
    with pytest.raises(RulesError, match="needs 2 to 2 players, and this table has 3"):
        Game.new(ruleset, ["ann", "bob", "cat"], seed=1)


def test_a_registered_variant_plays_a_seeded_game_reloads_and_is_drawn(gin: Variant) -> None:
    ruleset = preset("gin-test", target=40)
    game = Game.new(ruleset, ["ann", "bob"], seed=21)
    assert [len(hand) for hand in game.state.hands] == [10, 10]
    assert len(game.state.stock) == 52 - 2 * 10 - 1
    seats = {"ann": make_player(Level.NORMAL), "bob": make_player(Level.EASY)}
    rng = random.Random(21)
    for _ in range(5_000):
        player = game.current_player
        if player is None:
            break
        legal = tuple(game.legal_actions())
        game.apply(seats[player].choose(game.view(player), legal, rng))
    assert game.is_over
    assert game.winners

    state, log = state_from_data(state_to_dict(game.state))
    reloaded = Game(state, log)
    assert reloaded.state.ruleset == ruleset
    assert Ruleset.from_json(ruleset.to_json()) == ruleset
    replayed = Game.replay(ruleset, ["ann", "bob"], 21, game.state.log)
    assert replayed.state.scores == reloaded.state.scores == game.state.scores

    view = game.view("ann")
    texts = [item.text for item in layout_table(view).items if isinstance(item, Label)]
    assert any("Gin-like Rummy" in text for text in texts), texts
    for picture in (render_table(view), render_round_summary(view)):
        assert picture.startswith(b"\x89PNG")


def test_a_variant_cannot_take_a_name_already_registered(gin: Variant) -> None:
    before = dict(ALIASES)
    with pytest.raises(ValueError, match="variant names already taken: gin-like"):
        register(replace(GIN, name="gin-other"))
    assert before == ALIASES
    assert "gin-other" not in VARIANTS


def test_an_entry_deals_from_its_fewest_players_on() -> None:
    with pytest.raises(ValueError, match="gin-test: the deal tables must start at 2 players"):
        replace(GIN, hand_sizes={3: 10})
