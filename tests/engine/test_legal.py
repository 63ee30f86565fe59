"""The legal-action generator against a brute-force oracle.

The oracle tries every group of cards in the hand (every subset, up to a size), as a new
meld and onto every meld on the table, in every reading; every discard and every swap; every
draw. ``can`` says which of those are allowed. The generator must list exactly the allowed
moves: nothing it lists is refused, and nothing allowed is missing. Moves are compared as
people see them: which faces, where each card goes and what each joker stands for, not which
of two twins or which physical joker is used.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    LayOff,
    Meld,
    Phase,
    SwapJoker,
    TakeDiscard,
    layoff_readings,
    parse_action,
    preset,
    readings,
)
from bot.rummy.melds import PlacedCard, TableMeld, slot_shape
from bot.rummy.players import random_action
from tests.engine.conftest import card, cards, new_game

STATES = max(10, 3 * int(os.environ.get("RUMMY_PROPERTY_EXAMPLES", "30")))
"""States per case: 90 in `make test`, more with more property examples (`make soak`: 300)."""
MAX_GROUP = 7
"""The largest group the oracle tries; larger legal plays are left out of the comparison."""

Key = tuple[Any, ...]


def face(c: Card) -> tuple[int, int]:
    return c.sort_key[:2]


def key_of(game: Game, action: Action) -> Key:
    """The move as people see it, from the action ``apply`` would carry out."""
    played = game.resolve(action)
    match played:
        case Meld(cards=group, reading=reading) if not isinstance(reading, int | None):
            return ("meld", tuple(sorted(map(face, group))), slot_shape(reading.slots))
        case LayOff(cards=group, meld_id=meld_id, reading=reading) if not isinstance(
            reading, int | None
        ):
            shape = slot_shape(reading.slots, game.meld(meld_id).slots)
            return ("layoff", meld_id, tuple(sorted(map(face, group))), shape)
        case SwapJoker(meld_id=meld_id, card=c):
            return ("swap", meld_id, face(c))
        case Discard(card=c):
            return ("discard", face(c))
        case TakeDiscard(depth=depth):
            return ("take", depth)
        case DrawStock() | EndRound():
            return (str(played),)
    raise AssertionError(f"an allowed action resolved to {played!r}")


def size(action: Action) -> int:
    return len(action.cards) if isinstance(action, Meld | LayOff) else 1


def candidates(game: Game) -> Iterator[Action]:
    """Every action worth asking about in this state, with physical cards."""
    state = game.state
    if state.phase is Phase.DRAW:
        yield DrawStock()
        yield EndRound()
        for depth in range(len(state.discard) + 2):
            yield TakeDiscard(depth)
        return
    hand = state.hands[state.current]
    for n in range(1, min(len(hand), MAX_GROUP) + 1):
        for group in combinations(hand, n):
            for reading in readings(group, game.ruleset):
                yield Meld(group, reading)
            for meld in state.melds:
                for reading in layoff_readings(meld, group, game.ruleset):
                    yield LayOff(group, meld.id, reading)
    for c in hand:
        yield Discard(c)
        for meld in state.melds:
            yield SwapJoker(meld.id, c)


def check_oracle(game: Game) -> set[Key]:
    listed = game.legal_actions()
    for action in listed:
        assert game.can(action), f"listed {action} is refused: {game.why_not(action)}"
    listed_keys = {key_of(game, a) for a in listed if size(game.resolve(a)) <= MAX_GROUP}
    assert len(listed_keys) == len(listed) or any(size(a) > MAX_GROUP for a in listed), (
        "the same move is listed twice"
    )
    allowed = {key_of(game, a) for a in candidates(game) if game.can(a)}
    missing = allowed - listed_keys
    assert not missing, f"allowed but not listed: {sorted(missing)[:5]}"
    extra = listed_keys - allowed
    assert not extra, f"listed but not allowed by the oracle: {sorted(extra)[:5]}"
    return allowed


CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 4, {}),
    ("classic", 3, {"limit_layoffs": True, "must_discard_to_go_out": True}),
    ("parlett", 3, {}),
    ("parlett", 3, {"ace_high": True, "must_discard_to_go_out": True}),
    ("parlett", 4, {"two_decks": True}),
    ("500", 3, {"jokers": True}),
    ("500", 4, {"limit_layoffs": True}),
    ("500", 5, {"jokers": True, "ace_always_low": True}),
]


def played_states(name: str, players: int, options: dict[str, Any]) -> Iterator[Game]:
    """States along random games, in both phases, while the hand is small enough for the
    oracle to try every group of cards."""
    found = 0
    for seed in range(1000):
        game = Game.new(preset(name, **options), [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over or found >= STATES:
                break
            hand = game.state.hands[game.state.current]
            if len(hand) <= 11 and rng.random() < 0.08:
                found += 1
                yield game
            game.apply(random_action(game, rng))
        if found >= STATES:
            return


def dealt_states(name: str, players: int, options: dict[str, Any], seed: int) -> Game:
    """A play-phase state built to be rich in moves: a few melds on the table (some with
    jokers), and a small hand of cards near them, near each other, and jokers; sometimes a
    card just taken, a card that must be used, a lay-off already made."""
    rng = random.Random(seed)
    game = Game.new(preset(name, **options), [f"p{i}" for i in range(players)], seed=seed)
    state = game.state
    ruleset = state.ruleset
    pool = sorted(c for hand in state.hands for c in hand) + state.stock + state.discard
    rng.shuffle(pool)

    def take(wanted: list[Card]) -> None:
        for c in wanted:
            pool.remove(c)

    def near(c: Card) -> list[Card]:
        return [
            d
            for d in pool
            if d.is_joker
            or c.is_joker
            or d.rank == c.rank
            or (d.suit == c.suit and abs(d.rank - c.rank) <= 2)
            or (d.suit == c.suit and {d.rank, c.rank} == {1, 13})
        ]

    melds: list[TableMeld] = []
    for _ in range(rng.randint(0, 3)):
        seedcard = rng.choice([c for c in pool if not c.is_joker])
        group = [seedcard, *rng.sample(near(seedcard), min(6, len(near(seedcard))))]
        for n in range(3, 6):
            options_ = [
                g for g in combinations(group[: n + 2], n) if readings(g, ruleset) and seedcard in g
            ]
            if options_:
                chosen = rng.choice(options_)
                reading = rng.choice(readings(chosen, ruleset))
                take(list(chosen))
                placed = tuple(PlacedCard(s.card, s.rank, s.suit, "bob") for s in reading.slots)
                melds.append(TableMeld(len(melds) + 1, "bob", reading.kind, placed))
                break
    hand: list[Card] = []
    while len(hand) < rng.randint(4, 9) and pool:
        anchors = hand + [p.card for m in melds for p in m.cards]
        close = near(rng.choice(anchors)) if anchors and rng.random() < 0.8 else pool
        pick = rng.choice(close or pool)
        take([pick])
        hand.append(pick)
    others = [pool.pop() for _ in range(min(3, len(pool)))]
    state.melds = melds
    state.next_meld_id = len(melds) + 1
    state.hands = [hand, others] + [[] for _ in range(players - 2)]
    state.discard = [pool.pop()]
    state.stock = pool
    state.phase = Phase.PLAY
    state.current = 0
    state.has_melded = [rng.random() < 0.7] + [False] * (players - 1)
    state.layoff_cards = 1 if rng.random() < 0.2 else 0
    state.no_discard = rng.choice(hand) if hand and rng.random() < 0.3 else None
    if ruleset.deep_discard and hand and rng.random() < 0.3:
        state.must_use = rng.choice(hand)
    return Game.from_json(game.to_json())  # the loader's checks: a sound state


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=str)
def test_the_generator_lists_exactly_the_allowed_moves_in_played_states(
    name: str, players: int, options: dict[str, Any]
) -> None:
    kinds: set[str] = set()
    for game in played_states(name, players, options):
        kinds |= {k[0] for k in check_oracle(game)}
    assert {"discard", "take"} <= kinds


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=str)
def test_the_generator_lists_exactly_the_allowed_moves_in_dealt_states(
    name: str, players: int, options: dict[str, Any]
) -> None:
    kinds: set[str] = set()
    for seed in range(STATES):
        kinds |= {k[0] for k in check_oracle(dealt_states(name, players, options, seed))}
    assert {"discard", "meld", "layoff"} <= kinds
    if options.get("jokers", name == "parlett"):
        assert "swap" in kinds or name == "500"


# --- moves the generator used to miss --------------------------------------------------------

PARLETT = preset("parlett")


def listed(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def test_a_joker_may_stand_for_a_card_the_player_holds() -> None:
    game = new_game(PARLETT, ["5h 6h 7h JK 2c 9s Kd", "3c 4d 8s"], upcard="Qs", stock="10d")
    game.apply(DrawStock())
    moves = listed(game)
    assert "meld 5♥ 6♥ 7♥" in moves
    assert "meld JK=5♥ 6♥ 7♥" in moves  # the joker stands for the 5♥ held
    assert "meld 5♥ 6♥ JK=7♥" in moves  # or for the 7♥
    assert "meld 5♥ JK 7♥" in moves  # one reading only: nothing to say about the joker
    check_oracle(game)


def test_a_run_takes_cards_at_both_ends_at_once() -> None:
    game = new_game(PARLETT, ["5h 6h 7h 4h 8h 2c Kd", "3c 4d 9s"], upcard="Qs", stock="10d")
    game.apply(DrawStock())
    game.apply(parse_action("meld 5h 6h 7h"))
    moves = listed(game)
    assert "layoff 1 4♥ 8♥" in moves
    assert "layoff 1 4♥" in moves
    assert "layoff 1 8♥" in moves
    check_oracle(game)


def test_the_oracle_sees_a_missing_move() -> None:
    """The oracle is not vacuous: a generator that drops a move is caught."""
    game = new_game(PARLETT, ["5h 6h 7h 4h 8h 2c Kd", "3c 4d 9s"], upcard="Qs", stock="10d")
    game.apply(DrawStock())
    game.apply(parse_action("meld 5h 6h 7h"))
    original = game.legal_actions
    dropped = [a for a in original() if str(a) != "layoff 1 4♥ 8♥"]
    game.legal_actions = lambda player=None: dropped  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="allowed but not listed"):
        check_oracle(game)


def test_cards_of_a_set_already_complete_cannot_be_laid_off() -> None:
    game = new_game(PARLETT, ["7h 7s 7d 7c 2c 9s Kd", "3c 4d 8s"], upcard="Qs", stock="10d")
    game.apply(DrawStock())
    game.apply(Meld(cards("7h 7s 7d")))
    assert "layoff 1 7♣" in listed(game)
    game.apply(LayOff([card("7c")], 1))
    assert not any(isinstance(a, LayOff) for a in game.legal_actions())
    check_oracle(game)


def test_a_run_of_a_whole_suit_uses_its_ace_at_one_end_only() -> None:
    """Thirteen hearts in Rummy 500, where the ace is high or low: the run A-K and the run
    2-A are offered, and no run holds the one ace at both ends."""
    ruleset = preset("500")
    hearts = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
    clubs = "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc"
    game = new_game(ruleset, [hearts, clubs], upcard="9s", stock="9d")
    game.apply(DrawStock())
    melds = [a for a in game.legal_actions() if isinstance(a, Meld)]
    assert all(len(set(m.cards)) == len(m.cards) and game.can(m) for m in melds)
    whole = {str(m) for m in melds if len(m.cards) == 13}
    assert "meld A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥" in whole
    assert "meld 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥(high)" in whole
    assert len(whole) == 2
