"""Checks that hold after every action of every game, used by the property tests."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    GameView,
    IllegalAction,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
    full_pack,
    parse_action,
)
from tests.engine.conftest import cards_in


def pack_of(game: Game) -> list[Card]:
    n = len(game.players)
    return full_pack(game.ruleset.decks_for(n), game.ruleset.jokers_per_deck)


def check_every_card_in_one_place(game: Game, pack: frozenset[Card] | None = None) -> None:
    places = [*game.state.stock, *game.state.discard]
    for hand in game.state.hands:
        places += hand
    for meld in game.state.melds:
        places += [p.card for p in meld.cards]
    expected = pack if pack is not None else frozenset(pack_of(game))
    if len(places) == len(expected) and set(places) == expected:
        return
    duplicated = [str(c) for c, k in Counter(places).items() if k > 1]
    missing = [str(c) for c in expected - set(places)]
    raise AssertionError(f"cards in two places: {duplicated}; cards lost: {missing}")


def visible_now(view: GameView) -> set[Card]:
    """What a view shows of the current round (finished rounds reveal their hands)."""
    public = dataclasses.replace(view, rounds=())
    return set(cards_in(public))


def check_views_private(game: Game) -> None:
    viewers: list[str | None] = [*game.players, None]
    for viewer in viewers:
        view = game.view(viewer)
        seen = visible_now(view)
        for seat, player in enumerate(game.players):
            hidden = set(game.state.hands[seat])
            if player == viewer:
                assert view.hand == tuple(game.state.hands[seat])
                continue
            leaked = seen & hidden
            assert not leaked, f"{viewer} sees {player}'s {[str(c) for c in leaked]}"
        assert not (seen & set(game.state.stock)), f"{viewer} sees stock cards"
        hidden_pile = set(game.state.discard) - set(view.discard)
        assert not (seen & hidden_pile), f"{viewer} sees buried discards"
        assert [s.hand_size for s in view.seats] == [len(h) for h in game.state.hands]
        assert view.stock_size == len(game.state.stock)
        assert view.discard_size == len(game.state.discard)


def check_legal_actions_apply(game: Game) -> None:
    """Every generated action passes the same check that ``apply`` runs, and its text form
    (what people read and type) parses back to the very same action."""
    for action in game.legal_actions(game.current_player):
        reason = game.why_not(action, game.current_player)
        assert reason is None, f"generated {action} is refused: {reason}"
        assert parse_action(str(action)) == action, f"{action} does not parse back"


def clone(game: Game) -> Game:
    return Game.from_json(game.to_json())


def clone_state(game: Game) -> Game:
    """The game through its saved state, the log passed beside it as the sessions store it:
    each logged action's round trip is :func:`clone`'s at the end of the game, and decoding
    the whole log again at every check would cost more the longer the game."""
    return Game.from_json(game.to_json(include_log=False), log=game.log)


def random_probe(game: Game, rng: random.Random, pack: list[Card] | None = None) -> Action:
    """An action that is usually illegal: random cards, melds, depths and phases (``pack``:
    the game's, when the caller has it)."""
    pack = pack if pack is not None else pack_of(game)
    hand = game.state.hands[game.state.current]
    pool = hand if hand and rng.random() < 0.7 else pack
    meld_id = rng.randint(0, len(game.state.melds) + 1)
    kind = rng.randrange(7)
    if kind == 0:
        return DrawStock()
    if kind == 1:
        return TakeDiscard(rng.randint(0, len(game.state.discard) + 1))
    if kind == 2:
        return EndRound()
    if kind == 3:
        return Discard(rng.choice(pool))
    if kind == 4:
        return SwapJoker(meld_id, rng.choice(pack))
    cards = tuple(rng.sample(pool, min(len(pool), rng.randint(1, 4))))
    return Meld(cards) if kind == 5 else LayOff(cards, meld_id)


def check_probe(game: Game, action: Action) -> None:
    """A refused action raises and changes nothing; an allowed one applies to a copy."""
    reason = game.why_not(action)
    if reason is None:
        game.copy().apply(action)
        return
    before = game.copy()  # every field of the state, and the log in its saved form
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game == before, f"refused {action} changed the game"
    assert game.log_json == before.log_json, f"refused {action} changed the saved log"


def bulk_options(name: str, seed: int, base: dict[str, Any]) -> dict[str, Any]:
    """Options that vary with the seed, so the bulk games cover jokers, two decks and the
    house rules of every preset."""
    flags = [bool(seed >> bit & 1) for bit in range(4)]
    if name == "classic":
        chosen: dict[str, object] = {"limit_layoffs": flags[0], "simple_scoring": flags[1]}
        chosen["scoring"] = "negative" if flags[2] else "positive"
    elif name == "parlett":
        chosen = {"jokers": not flags[0], "two_decks": flags[1], "ace_high": flags[2]}
    else:
        chosen = {"jokers": flags[0], "limit_layoffs": flags[1], "ace_always_low": flags[2]}
    chosen["must_discard_to_go_out"] = flags[3]
    return {**chosen, **base}


def play_bulk(name: str, players: int, seeds: range, options: dict[str, Any]) -> int:
    """Play one seeded random game per seed and return how many ended. After every action
    no card is lost or duplicated; every 25th action the views stay private and every
    generated action passes its check; every final state survives JSON and replays exactly.
    Runs in a worker process."""
    from bot.rummy import preset
    from bot.rummy.players import random_action

    ended = 0
    for seed in seeds:
        ruleset = preset(name, **bulk_options(name, seed, options))
        game = Game.new(ruleset, [f"p{i}" for i in range(players)], seed=seed)
        pack = frozenset(pack_of(game))
        rng = random.Random(seed)
        for step in range(100_000):
            if game.is_over:
                break
            if step % 25 == 0:
                check_views_private(game)
                check_legal_actions_apply(game)
            game.apply(random_action(game, rng))
            check_every_card_in_one_place(game, pack)
        assert clone(game) == game
        assert Game.replay(game.ruleset, game.players, game.seed, game.log) == game
        ended += game.is_over
    return ended
