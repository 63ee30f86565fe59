"""The meld solver: known best arrangements per scoring mode, exactness against brute force,
and the Rummy 500 deep-take question answered as the engine answers it."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rummy import (
    Card,
    Game,
    MeldKind,
    PlacedCard,
    Ruleset,
    Scoring,
    Slot,
    TableMeld,
    TakeDiscard,
    full_pack,
    layoff_readings,
    parse_cards,
    preset,
    readings,
)
from bot.rummy.solver import Arrangement, best_score, can_use_now, solve

EXAMPLES = int(os.environ.get("RUMMY_PROPERTY_EXAMPLES", "100"))


def table_meld(text: str, ruleset: Ruleset, meld_id: int = 1, reading: int = 0) -> TableMeld:
    option = readings(parse_cards(text), ruleset)[reading]
    placed = tuple(PlacedCard(s.card, s.rank, s.suit, "other") for s in option.slots)
    return TableMeld(meld_id, "other", option.kind, placed)


def faces(cards: Sequence[Card]) -> list[str]:
    return sorted(c.face_text for c in cards)


def check_playable(
    arrangement: Arrangement, hand: Sequence[Card], ruleset: Ruleset, melds: Sequence[TableMeld]
) -> None:
    """Every play is a meld or lay-off the engine's own functions accept, every card is used
    once, and the score is what the plays and the cards left are worth."""
    table = {m.id: m for m in melds}
    used: list[Card] = []
    placed = 0
    for play in arrangement.plays:
        cards = play.cards
        used += cards
        if play.meld_id is None:
            options = readings(cards, ruleset)
            assert options, f"{play} is no meld"
        else:
            meld = table[play.meld_id]
            options = layoff_readings(meld, cards, ruleset)
            assert options, f"{play} does not fit {meld}"
            grown = options[0]
            table[meld.id] = TableMeld(
                meld.id,
                meld.owner,
                meld.kind,
                tuple(PlacedCard(s.card, s.rank, s.suit, "x") for s in grown.slots),
            )
        for slot in play.slots:
            low = play.kind is MeldKind.RUN and slot.rank == 1
            placed += ruleset.placed_value(slot.card, low_ace_of_run=low)
    assert sorted(used + list(arrangement.left)) == sorted(hand)
    left = sum(ruleset.card_value(c) for c in arrangement.left)
    assert arrangement.left_value == left
    assert arrangement.placed_value == placed
    expected = placed - left if ruleset.scoring is Scoring.HAND else -left
    assert arrangement.score == expected


# --- known best arrangements ----------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["positive", "negative"])
def test_greedy_is_wrong_two_runs_beat_a_set(scoring: str) -> None:
    ruleset = preset("classic", scoring=scoring)
    hand = parse_cards("6s 7s 8s 6c 7c 8c 8d")
    best = solve(hand, ruleset)
    assert faces(best.left) == ["8♦"]
    assert best.left_value == 8
    assert best.score == -8
    assert best_score(hand, ruleset) == -8
    check_playable(best, hand, ruleset, ())


def test_a_set_beats_a_run_when_it_leaves_less() -> None:
    ruleset = preset("classic")
    hand = parse_cards("5h 6h 7h 7c 7d")
    best = solve(hand, ruleset)
    assert faces(best.left) == ["5♥", "6♥"]
    assert best.left_value == 11


def test_jokers_fill_runs_and_sets() -> None:
    ruleset = preset("parlett")
    hand = parse_cards("5h 6h jk 9c 9d jk 2s")
    hand[-2] = Card.joker(1)
    best = solve(hand, ruleset)
    assert faces(best.left) == ["2♠"]
    assert best.left_value == 2
    check_playable(best, hand, ruleset, ())


def test_jokers_never_outnumber_natural_cards() -> None:
    ruleset = preset("parlett")
    hand = [Card.joker(0), Card.joker(1), *parse_cards("5h 9c")]
    best = solve(hand, ruleset)
    assert best.plays == ()
    assert best.left_value == 15 + 15 + 5 + 9


def test_two_decks_twins_go_to_different_melds() -> None:
    ruleset = preset("parlett", two_decks=True, jokers=False)
    hand = parse_cards("7h 7h#2 7c 7d 8h 9h")
    best = solve(hand, ruleset)
    assert best.left == ()
    kinds = sorted(p.kind.value for p in best.plays)
    assert kinds == ["run", "set"]
    check_playable(best, hand, ruleset, ())


def test_rummy_500_places_the_ace_high_when_that_nets_more() -> None:
    ruleset = preset("500")
    hand = parse_cards("As 2s 3s Qs Ks")
    best = solve(hand, ruleset)
    # Q-K-A placed (10 + 10 + 15) less 2 and 3 left, against A-2-3 (1 + 2 + 3) less 20.
    assert best.score == 35 - 5
    assert faces(best.left) == ["2♠", "3♠"]
    check_playable(best, hand, ruleset, ())


def test_rummy_500_ace_always_low() -> None:
    ruleset = preset("500", ace_always_low=True)
    hand = parse_cards("As 2s 3s Qs Ks")
    best = solve(hand, ruleset)
    assert best.score == (1 + 2 + 3) - 20
    assert faces(best.left) == ["K♠", "Q♠"]


def test_rummy_500_low_ace_placed_is_worth_one_held_fifteen() -> None:
    ruleset = preset("500")
    best = solve(parse_cards("Ah 2h 3h 9c"), ruleset)
    assert best.placed_value == 1 + 2 + 3
    assert best.score == 6 - 9
    assert best_score(parse_cards("Ah 9c"), ruleset) == -24


def test_rummy_500_hand_scoring_with_jokers_and_two_decks() -> None:
    ruleset = preset("500", jokers=True)
    hand = [*parse_cards("Qd Kd 4c 4h"), Card.joker(0)]
    best = solve(hand, ruleset)
    # Q K JK(=A high or J) scores 10 + 10 + 15; the fours stay: -8.
    assert best.score == 35 - 8
    two = preset("500")
    pack = full_pack(2)
    hand = [c for c in pack if c.face_text in ("5♥", "6♥", "7♥")]  # both copies of each
    best = solve(hand, two)
    assert best.left == ()
    assert best.score == 2 * (5 + 6 + 7)


def test_lay_offs_onto_the_table() -> None:
    ruleset = preset("classic")
    melds = [table_meld("5h 6h 7h", ruleset), table_meld("Kc Kd Ks", ruleset, 2)]
    hand = parse_cards("8h 9h Kh 2c")
    best = solve(hand, ruleset, melds)
    assert faces(best.left) == ["2♣"]
    assert {p.meld_id for p in best.plays} == {1, 2}
    check_playable(best, hand, ruleset, melds)


def test_a_joker_alone_is_laid_off() -> None:
    ruleset = preset("parlett")
    melds = [table_meld("5h 6h 7h", ruleset)]
    hand = [Card.joker(0), *parse_cards("Kc")]
    best = solve(hand, ruleset, melds)
    assert faces(best.left) == ["K♣"]
    check_playable(best, hand, ruleset, melds)


def test_must_place_forces_the_card_into_a_play() -> None:
    ruleset = preset("500")
    hand = parse_cards("7s 7h 7d 8h 9h")
    seven = hand[1]
    best = solve(hand, ruleset, must_place=seven)
    assert any(seven in p.cards for p in best.plays)
    with pytest.raises(ValueError, match="cannot be placed"):
        solve(parse_cards("7s 2c 9d"), ruleset, must_place=parse_cards("7s")[0])
    assert best_score(parse_cards("7s 2c 9d"), ruleset, must_place=parse_cards("7s")[0]) is None


# --- exact: never worse than brute force ----------------------------------------------------


def brute_force(hand: Sequence[Card], ruleset: Ruleset, melds: Sequence[TableMeld]) -> int:
    """Try every way to split the hand into new melds, lay-offs (every reading) and cards
    left, using only the engine's own ``readings`` and ``layoff_readings``."""
    hand_scoring = ruleset.scoring is Scoring.HAND

    def placed(slots: Sequence[Slot], kind: MeldKind) -> int:
        if not hand_scoring:
            return 0
        run = kind is MeldKind.RUN
        return sum(ruleset.placed_value(s.card, low_ace_of_run=run and s.rank == 1) for s in slots)

    @cache
    def best(rest: frozenset[Card], table: tuple[TableMeld, ...]) -> int:
        found = -sum(ruleset.card_value(c) for c in rest)
        cards = sorted(rest)
        for n in range(1, len(cards) + 1):
            for group in combinations(cards, n):
                left = rest - set(group)
                if n >= 3:
                    for option in readings(group, ruleset):
                        found = max(found, placed(option.slots, option.kind) + best(left, table))
                for k, meld in enumerate(table):
                    for option in layoff_readings(meld, group, ruleset):
                        grown = TableMeld(
                            meld.id,
                            meld.owner,
                            meld.kind,
                            tuple(PlacedCard(s.card, s.rank, s.suit, "x") for s in option.slots),
                        )
                        mine = [s for s in option.slots if s.card in group]
                        value = placed(mine, meld.kind) + best(
                            left, (*table[:k], grown, *table[k + 1 :])
                        )
                        found = max(found, value)
        return found

    return best(frozenset(hand), tuple(melds))


RULESETS = [
    preset("classic"),
    preset("classic", scoring="negative", simple_scoring=True),
    preset("parlett"),
    preset("parlett", ace_high=True, two_decks=True),
    preset("500"),
    preset("500", jokers=True),
    preset("500", jokers=True, ace_always_low=True),
]


@st.composite
def situations(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[TableMeld]]:
    ruleset = draw(st.sampled_from(RULESETS))
    decks = 2 if ruleset.two_decks_for_four_five else 1
    pack = full_pack(decks, ruleset.jokers_per_deck)
    ranks = draw(st.sets(st.integers(1, 13), min_size=2, max_size=6))
    pool = [c for c in pack if c.is_joker or c.rank in ranks]
    pool = draw(st.permutations(pool))
    melds: list[TableMeld] = []
    taken: set[Card] = set()
    for start in range(draw(st.integers(0, 2))):
        for size in (4, 3):
            group = [c for c in pool if c not in taken][start * 2 : start * 2 + size]
            options = readings(group, ruleset)
            if options:
                option = options[draw(st.integers(0, len(options) - 1))]
                placed = tuple(PlacedCard(s.card, s.rank, s.suit, "o") for s in option.slots)
                melds.append(TableMeld(len(melds) + 1, "o", option.kind, placed))
                taken.update(group)
                break
    rest = [c for c in pool if c not in taken]
    hand = rest[: draw(st.integers(1, 7))]
    return ruleset, hand, melds


@settings(
    max_examples=max(5, EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(situations())
def test_never_worse_than_brute_force(
    situation: tuple[Ruleset, list[Card], list[TableMeld]],
) -> None:
    ruleset, hand, melds = situation
    expected = brute_force(hand, ruleset, melds)
    assert best_score(hand, ruleset, melds) == expected
    arrangement = solve(hand, ruleset, melds)
    assert arrangement.score == expected
    check_playable(arrangement, hand, ruleset, melds)


def test_seeded_dense_hands_match_brute_force() -> None:
    """A fixed batch of dense small hands (jokers, twins, aces) on top of the property test."""
    rng = random.Random(11)
    for trial in range(40):
        ruleset = RULESETS[trial % len(RULESETS)]
        pack = full_pack(2 if ruleset.two_decks_for_four_five else 1, ruleset.jokers_per_deck)
        ranks = set(rng.sample(range(1, 14), 3))
        pool = [c for c in pack if c.is_joker or c.rank in ranks or c.rank == 1]
        hand = rng.sample(pool, min(len(pool), 7))
        assert best_score(hand, ruleset) == brute_force(hand, ruleset, ()), hand


# --- the deep take: the solver agrees with the engine --------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"jokers": True},
        {"limit_layoffs": True},
        {"must_discard_to_go_out": True, "jokers": True},
    ],
)
def test_can_use_now_agrees_with_the_engines_deep_take(options: dict[str, object]) -> None:
    ruleset = preset("500", **options)
    checked = 0
    for seed in range(3):
        game = Game.new(ruleset, ["ann", "bob", "cat"], seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            view = game.view(game.current_player)
            legal = game.legal_actions()
            if view.phase.value == "draw":
                seat = next(s for s in view.seats if s.player == view.viewer)
                for depth in range(2, len(view.discard) + 1):
                    taken = view.discard[-depth:]
                    expected = TakeDiscard(depth) in legal
                    got = can_use_now(
                        taken[0],
                        (*view.hand, *taken),
                        view.melds,
                        ruleset,
                        has_melded=seat.has_melded,
                    )
                    assert got == expected, (view.hand, taken, view.melds)
                    checked += 1
            game.apply(rng.choice(legal))
    assert checked > 100
