"""rules.md, "Ending a round", "Scoring a round", "The game" and "The deal" across rounds:
going out, ending on an empty stock, parlett's turn-over and blocked rounds, the 300th
turn, the three scoring modes with hand-worked examples, the target and ties, dealer
rotation and replays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.rummy import (
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    RoundEnd,
    Ruleset,
    TakeDiscard,
    preset,
    readings,
)

from .conftest import card, cards, new_game, pass_turn, refused, run_out_stock, value_parlett

# --- positive scoring: going out ---------------------------------------------------------

# ann draws 9♣ and melds everything. bob K♣ Q♦ J♥ 10♠ 8♣ 7♦ 2♥ = 10+10+10+10+8+7+2 = 57,
# cat A♣ 2♦ 3♥ 4♠ 5♦ 6♥ 7♠ = 1+2+3+4+5+6+7 = 28.
OUT_HANDS = ["3c 4c 5c 6c 9d 9h 9s", "Kc Qd Jh 10s 8c 7d 2h", "Ac 2d 3h 4s 5d 6h 7s"]


def go_out(game: Game) -> None:
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("9c 9d 9h 9s")))


def test_positive_going_out_scores_every_other_hand() -> None:
    game = new_game(preset("classic"), OUT_HANDS, upcard="Kd", stock="9c")
    go_out(game)
    (result,) = game.rounds
    assert result.reason is RoundEnd.WENT_OUT
    assert result.ender == "ann"
    assert result.hand_values == (0, 57, 28)
    assert result.points == (85, 0, 0)  # 57 + 28
    assert game.scores == (85, 0, 0)
    assert result.totals == (85, 0, 0)
    assert not game.is_over  # 85 < 100


def test_positive_simple_scoring() -> None:
    # simple: 2-9 and aces 5. bob 10+10+10+10+5+5+5 = 55, cat 7 x 5 = 35
    game = new_game(preset("classic", simple_scoring=True), OUT_HANDS, "Kd", stock="9c")
    go_out(game)
    assert game.rounds[0].points == (90, 0, 0)


def test_melds_still_in_a_hand_count_as_loose_cards() -> None:
    # bob holds 10♠ J♠ Q♠ (a run he never melded): 10+10+10 = 30, cat 28 as above
    hands = [OUT_HANDS[0], "10s Js Qs Kc Qd Jh 2h", OUT_HANDS[2]]
    game = new_game(preset("classic"), hands, upcard="Kd", stock="9c")
    go_out(game)
    # bob: 10+10+10+10+10+10+2 = 62
    assert game.rounds[0].points == (62 + 28, 0, 0)


def test_parlett_going_out_with_high_or_low_aces_and_jokers() -> None:
    # ann melds Q-K-A♥ (ace high), 5♣ 5♦ 5♠ 5♥ and 9♣ 9♦ 9♠, discards J♦: out.
    # bob: JK 15 + A♣ 11 + A♦ 11 + 2+3+4+6+7+8+10 = 77
    ruleset = preset("parlett", ace_high=True)
    hands = ["Qh Kh Ah 5c 5d 5s 5h 9c 9d 9s", "JK Ac Ad 2s 3c 4s 6h 7c 8d 10s"]
    game = new_game(ruleset, hands, upcard="Kd", stock="Jd")
    game.apply(DrawStock())
    game.apply(Meld(cards("Qh Kh Ah")))
    game.apply(Meld(cards("5c 5d 5s 5h")))
    game.apply(Meld(cards("9c 9d 9s")))
    game.apply(Discard(card("Jd")))
    (result,) = game.rounds
    assert result.points == (77, 0)
    # a new round: nobody has melded in it yet
    assert not any(s.has_melded for s in game.view(None).seats)
    assert game.state.melds == []


def test_negative_going_out_every_player_scores_own_hand() -> None:
    game = new_game(preset("classic", scoring="negative"), OUT_HANDS, "Kd", stock="9c")
    go_out(game)
    assert game.rounds[0].points == (0, 57, 28)


# --- rounds ended on an empty stock ------------------------------------------------------

# Nobody melds; each player draws and discards the drawn card, so hands stay as dealt.
# ann 2+3+4+5+6+7+8 = 35; bob 10+10+10+10+9+8+7 = 64; cat 1+2+3+4+5+6+7 = 28.
ENDED_HANDS = ["2c 3d 4h 5s 6c 7d 8h", "Kc Qd Jh 10s 9c 8d 7h", "Ac 2d 3h 4s 5c 6d 7s"]


def ended(
    ruleset: Ruleset, hands: list[str] = ENDED_HANDS, scores: Sequence[int] | None = None
) -> Game:
    game = new_game(ruleset, hands, upcard="Ks")
    if scores is not None:
        game.state.scores = list(scores)  # set directly: totals near the target
    run_out_stock(game)
    game.apply(EndRound())
    return game


@pytest.mark.parametrize("name", ["classic", "500"])
def test_end_round_is_recorded_with_its_ender(name: str) -> None:
    game = ended(preset(name, target=10_000))
    (result,) = game.rounds
    assert result.reason is RoundEnd.ENDED
    assert result.ender == "ann"  # 30 stock cards, 3 players: back to ann
    assert game.round_no == 2


def test_positive_ended_round_the_lowest_hand_wins_the_differences() -> None:
    game = ended(preset("classic"))
    result = game.rounds[0]
    assert result.hand_values == (35, 64, 28)
    # cat is lowest (28): (35 - 28) + (64 - 28) = 7 + 36 = 43
    assert result.points == (0, 0, 43)


@pytest.mark.parametrize(
    ("hands", "points"),
    [
        # ann 28, bob K Q J 10 9 8 8 = 65, cat 28: pot 65 - 28 = 37, each 37 // 2 = 18
        (["Ac 2d 3h 4s 5c 6d 7s", "Kc Qd Jh 10s 9c 8d 8h", "Ad 2h 3s 4c 5d 6h 7c"], (18, 0, 18)),
        # ann 28, bob 64, cat 28: pot 36, each 18
        (["Ac 2d 3h 4s 5c 6d 7s", "Kc Qd Jh 10s 9c 8d 7h", "Ad 2h 3s 4c 5d 6h 7c"], (18, 0, 18)),
        # all three 28: pot 0
        (["Ac 2d 3h 4s 5c 6d 7s", "Ah 2s 3c 4d 5h 6s 7d", "Ad 2h 3s 4c 5d 6h 7c"], (0, 0, 0)),
    ],
)
def test_positive_tied_winners_split_the_pot_rounding_down(
    hands: list[str], points: tuple[int, ...]
) -> None:
    game = ended(preset("classic"), hands)
    assert game.rounds[0].points == points


def test_positive_three_way_split_rounds_each_share_down() -> None:
    # four players: ann, bob, cat 28 each; dan 10+10+10+10+9+8+8 = 65 → pot 37, 37 // 3 = 12
    hands = [
        "Ac 2d 3h 4s 5c 6d 7s",
        "Ah 2s 3c 4d 5h 6s 7d",
        "Ad 2h 3s 4c 5d 6h 7c",
        "Kc Qd Jh 10s 9c 8d 8h",
    ]
    game = ended(preset("classic"), hands)
    assert game.rounds[0].points == (12, 12, 12, 0)


def test_positive_simple_scoring_ended_round() -> None:
    # simple: ann 7 x 5 = 35; bob 40 + 5 + 5 + 5 = 55; cat 7 x 5 = 35: pot 20, 10 each
    game = ended(preset("classic", simple_scoring=True))
    assert game.rounds[0].points == (10, 0, 10)


def test_negative_ended_round_everyone_pays_own_hand() -> None:
    game = ended(preset("classic", scoring="negative"))
    assert game.rounds[0].points == (35, 64, 28)


def test_hand_scoring_ended_round_subtracts_hands_and_goes_negative() -> None:
    # 500 values in hand: ace 15. ann 35, bob 64, cat 15+2+3+4+5+6+7 = 42
    game = ended(preset("500"))
    assert game.rounds[0].points == (-35, -64, -42)
    assert game.scores == (-35, -64, -42)


# --- Rummy 500 hand scoring with placed cards --------------------------------------------


def test_hand_scoring_counts_every_card_each_player_placed() -> None:
    hands = ["Qs Ks As 7h 8h 9h 6h", "10h Ah 2h 3h Jd Jc 6s", "2c 3c 5s 8s Qd 4d 6d"]
    game = new_game(preset("500"), hands, upcard="Kh", stock="Kd 5d 9d Jh")
    game.apply(DrawStock())  # ann: K♦
    game.apply(Meld(cards("Qs Ks As")))
    game.apply(Meld(cards("7h 8h 9h")))
    game.apply(Discard(card("Kd")))
    game.apply(DrawStock())  # bob: 5♦
    game.apply(LayOff(cards("10h"), 2))  # on ann's meld
    game.apply(Meld(cards("Ah 2h 3h")))
    game.apply(Discard(card("5d")))
    pass_turn(game)  # cat: 9♦
    game.apply(DrawStock())  # ann: J♥
    game.apply(LayOff(cards("6h"), 2))
    game.apply(LayOff(cards("Jh"), 2))  # hand empty: ann goes out
    (result,) = game.rounds
    assert result.reason is RoundEnd.WENT_OUT
    assert result.ender == "ann"
    # ann placed Q♠ K♠ A♠(high) 7♥ 8♥ 9♥ 6♥ J♥: 10+10+15+7+8+9+6+10 = 75, hand 0
    # bob placed 10♥ + A♥(low) 2♥ 3♥: 10+1+2+3 = 16, hand J♦ J♣ 6♠ = 26: 16 - 26 = -10
    # cat placed nothing, hand 2+3+5+8+10+4+6 = 38
    assert result.placed_values == (75, 16, 0)
    assert result.hand_values == (0, 26, 38)
    assert result.points == (75, -10, -38)


THIRTEEN = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
# bob: A♣ 15 + 2+3+5+6+7+8+9 (40) + 10+10+10+10 (40) + 2♦ = 97
BOB_13 = "Ac 2c 3c 5c 6c 7c 8c 9c 10c Jc Qc Kc 2d"


@pytest.mark.parametrize(
    ("options", "declared", "points"),
    [
        ({}, None, (85, -97)),  # low unless declared high: 1 + (2..9 = 44) + 40 = 85
        ({}, 1, (85, -97)),
        ({}, 14, (99, -97)),  # declared high: 15 + 44 + 40 = 99
        # simple scoring: 2-9 count 5. Low ace 5 + 8 x 5 + 40 = 85; high ace 15 + 40 + 40 = 95.
        # bob: A♣ 15 (in hand) + 7 x 5 + 40 + 5 = 95
        ({"simple_scoring": True}, None, (85, -95)),
        ({"simple_scoring": True}, 14, (95, -95)),
    ],
)
def test_500_thirteen_card_run_counts_the_ace_as_declared(
    options: dict[str, Any], declared: int | None, points: tuple[int, int]
) -> None:
    ruleset = preset("500", **options)
    game = new_game(ruleset, [THIRTEEN, BOB_13], upcard="Kd", stock="4d")
    game.apply(DrawStock())
    reading = None
    if declared is not None:
        reading = next(
            r
            for r in readings(THIRTEEN, ruleset)
            if any(s.card.rank == 1 and s.rank == declared for s in r.slots)
        )
    game.apply(Meld(cards(THIRTEEN), reading=reading))
    game.apply(Discard(card("4d")))
    (result,) = game.rounds
    assert result.reason is RoundEnd.WENT_OUT
    assert result.points == points


def test_500_ace_always_low_counts_aces_one_everywhere() -> None:
    # bob's hand: A♣ now 1: 1 + 40 + 40 + 2 = 83; ann's run 85
    game = new_game(preset("500", ace_always_low=True), [THIRTEEN, BOB_13], "Kd", stock="4d")
    game.apply(DrawStock())
    game.apply(Meld(cards(THIRTEEN)))
    game.apply(Discard(card("4d")))
    assert game.rounds[0].points == (85, -83)


def test_500_an_ace_in_a_set_is_worth_fifteen_when_placed() -> None:
    # ann draws K♦ (8 cards), melds A♣ A♦ A♥ (15 x 3 = 45) and 5♠ 6♠ 7♠ (18), lays off 8♠
    # and goes out by discarding K♦: placed 45 + 18 + 8 = 71
    hands = ["Ac Ad Ah 5s 6s 7s 8s", "Kc Qd Jh 10s 9c 8d 7h", "2c 3d 4h 9s 6c 7d 8h"]
    game = new_game(preset("500"), hands, upcard="Ks", stock="Kd")
    game.apply(DrawStock())
    game.apply(Meld(cards("Ac Ad Ah")))
    game.apply(Meld(cards("5s 6s 7s")))
    game.apply(LayOff(cards("8s"), 2))
    game.apply(Discard(card("Kd")))
    (result,) = game.rounds
    assert result.placed_values[0] == 71
    # bob 64; cat 2+3+4+9+6+7+8 = 39
    assert result.points == (71, -64, -39)


def test_500_a_joker_counts_fifteen_wherever_it_lies() -> None:
    # ann melds JK=A♥ 2♥ 3♥ (the joker as a low ace still 15) and 9♣ 9♦ 9♠, lays off 4♥ and
    # discards K♦: placed 15 + 2 + 3 + 27 + 4 = 51.
    ruleset = preset("500", jokers=True)
    hands = ["JK 2h 3h 9c 9d 9s 4h", "Kc Qd Jh 10s 8c 7d 2d", "Ac 2c 3d 4s 5d 6h 7s"]
    game = new_game(ruleset, hands, upcard="Ks", stock="Kd")
    low = next(
        r
        for r in readings("JK 2h 3h", ruleset)
        if any(s.card.is_joker and s.rank == 1 for s in r.slots)
    )
    game.apply(DrawStock())
    game.apply(Meld(cards("JK 2h 3h"), reading=low))
    game.apply(Meld(cards("9c 9d 9s")))
    game.apply(LayOff(cards("4h"), 1))
    game.apply(Discard(card("Kd")))
    (result,) = game.rounds
    # bob 10+10+10+10+8+7+2 = 57; cat A♣ 15 + 2+3+4+5+6+7 = 42
    assert result.placed_values == (51, 0, 0)
    assert result.points == (51, -57, -42)


# --- the game: target, winner, ties ------------------------------------------------------


def test_reaching_the_target_exactly_ends_the_game() -> None:
    game = new_game(preset("classic"), OUT_HANDS, upcard="Kd", stock="9c")
    game.state.scores = [15, 0, 0]  # set directly: 15 + 85 = 100, the target
    go_out(game)
    assert game.is_over
    assert game.phase is Phase.GAME_OVER
    assert game.winners == ("ann",)
    assert game.scores == (100, 0, 0)
    assert game.legal_actions() == []
    assert game.current_player is None
    with pytest.raises(IllegalAction):
        game.apply(DrawStock())


def test_below_the_target_another_round_is_dealt() -> None:
    game = new_game(preset("classic"), OUT_HANDS, upcard="Kd", stock="9c")
    game.state.scores = [14, 0, 0]  # set directly: 14 + 85 = 99
    go_out(game)
    assert not game.is_over
    assert game.round_no == 2
    assert game.phase is Phase.DRAW


def test_positive_tie_at_the_target_plays_another_round() -> None:
    # ann and cat split 37 → 18 each (see above): 82 + 18 = 100 for both
    hands = ["Ac 2d 3h 4s 5c 6d 7s", "Kc Qd Jh 10s 9c 8d 8h", "Ad 2h 3s 4c 5d 6h 7c"]
    game = ended(preset("classic"), hands, scores=[82, 0, 82])
    assert game.scores == (100, 0, 100)
    assert not game.is_over
    assert game.round_no == 2
    assert game.winners == ()


def test_positive_highest_total_wins_when_two_reach_the_target() -> None:
    hands = ["Ac 2d 3h 4s 5c 6d 7s", "Kc Qd Jh 10s 9c 8d 8h", "Ad 2h 3s 4c 5d 6h 7c"]
    game = ended(preset("classic"), hands, scores=[83, 0, 82])
    assert game.scores == (101, 0, 100)
    assert game.winners == ("ann",)


def test_negative_lowest_total_wins_once_someone_reaches_the_target() -> None:
    # points 35, 64, 28: bob 40 + 64 = 104 reaches 100; cat 28 is the lowest
    game = ended(preset("classic", scoring="negative"), scores=[0, 40, 0])
    assert game.scores == (35, 104, 28)
    assert game.is_over
    assert game.winners == ("cat",)


def test_negative_tie_for_the_lowest_plays_another_round() -> None:
    game = ended(preset("classic", scoring="negative"), scores=[0, 40, 7])
    assert game.scores == (35, 104, 35)
    assert not game.is_over
    assert game.round_no == 2


def test_negative_below_the_target_goes_on() -> None:
    game = ended(preset("classic", scoring="negative"), scores=[0, 35, 0])
    assert game.scores == (35, 99, 28)
    assert not game.is_over


def hand_scoring_round(scores: Sequence[int]) -> Game:
    """The 500 example above: points (75, -10, -38)."""
    hands = ["Qs Ks As 7h 8h 9h 6h", "10h Ah 2h 3h Jd Jc 6s", "2c 3c 5s 8s Qd 4d 6d"]
    game = new_game(preset("500"), hands, upcard="Kh", stock="Kd 5d 9d Jh")
    game.state.scores = list(scores)  # set directly: totals near 500
    game.apply(DrawStock())
    game.apply(Meld(cards("Qs Ks As")))
    game.apply(Meld(cards("7h 8h 9h")))
    game.apply(Discard(card("Kd")))
    game.apply(DrawStock())
    game.apply(LayOff(cards("10h"), 2))
    game.apply(Meld(cards("Ah 2h 3h")))
    game.apply(Discard(card("5d")))
    pass_turn(game)
    game.apply(DrawStock())
    game.apply(LayOff(cards("6h"), 2))
    game.apply(LayOff(cards("Jh"), 2))
    return game


def test_hand_scoring_highest_total_wins() -> None:
    game = hand_scoring_round([426, 514, 0])  # 501 and 504: both reached, bob higher
    assert game.scores == (501, 504, -38)
    assert game.winners == ("bob",)


def test_hand_scoring_tie_at_the_target_plays_on() -> None:
    game = hand_scoring_round([425, 510, 0])  # 500 and 500
    assert game.scores == (500, 500, -38)
    assert not game.is_over
    assert game.round_no == 2


# --- parlett: turning the discard pile over ----------------------------------------------

# ann A♣ 2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ = 1+2+...+9+10 = 55
# bob K♣ K♦ Q♥ Q♠ J♣ J♦ 10♥ 9♦ JK 2♠ = 7 x 10 + 9 + 15 + 2 = 96
PARLETT_HANDS = ["Ac 2c 3d 4h 5s 6c 7d 8h 9s 10c", "Kc Kd Qh Qs Jc Jd 10h 9d JK 2s"]


def test_parlett_empty_stock_turns_the_pile_over_unshuffled() -> None:
    game = new_game(preset("parlett"), PARLETT_HANDS, upcard="5c")
    while len(game.state.stock) > 1:
        pass_turn(game)
    pile = list(game.state.discard)
    pile.append(pass_turn(game))  # the last stock card, discarded
    # The pile (bottom first: the upcard, then every discard) is turned face down: its
    # bottom card becomes the top of the stock and is turned up as the new discard pile.
    assert pile[0] == card("5c")
    assert game.state.discard == [pile[0]]
    assert game.state.stock == pile[1:][::-1]  # stock top (last element) is pile[1]
    assert game.round_no == 1
    assert game.phase is Phase.DRAW
    player = game.state.current
    game.apply(DrawStock())  # "and the player then draws"
    assert game.state.hands[player][-1] == pile[1]


def test_parlett_the_fourth_turn_over_blocks_the_round() -> None:
    game = new_game(preset("parlett"), PARLETT_HANDS, upcard="5c")
    turnovers = 0
    while game.round_no == 1:
        before = len(game.state.stock)
        pass_turn(game)
        if game.round_no == 1 and len(game.state.stock) > before - 1:
            turnovers += 1
    assert turnovers == 3
    (result,) = game.rounds
    assert result.reason is RoundEnd.BLOCKED
    assert result.ender is None
    # ended before the next player drew: both hands as dealt
    assert [sorted(h) for h in result.hands] == [sorted(cards(h)) for h in PARLETT_HANDS]
    assert result.hand_values == (55, 96)
    assert result.points == (41, 0)  # scored like an ended round: 96 - 55


def test_parlett_fewer_than_two_cards_to_turn_over_blocks_the_round() -> None:
    # Unreachable by legal play (the pile always has two cards when the stock runs out), so
    # the state is set directly: while ann plays, the stock and the pile are emptied; her
    # discard leaves a one-card pile for bob, who is to draw from an empty stock.
    game = new_game(preset("parlett"), PARLETT_HANDS, upcard="5c")
    game.apply(DrawStock())
    game.state.stock.clear()
    game.state.discard.clear()
    game.apply(Discard(game.state.hands[0][-1]))
    (result,) = game.rounds
    assert result.reason is RoundEnd.BLOCKED
    assert result.ender is None


def test_parlett_a_two_card_pile_is_turned_over() -> None:
    # set directly as above, but the pile keeps one card: ann's discard makes two
    game = new_game(preset("parlett"), PARLETT_HANDS, upcard="5c")
    game.apply(DrawStock())
    game.state.stock.clear()
    drawn = game.state.hands[0][-1]
    game.apply(Discard(drawn))
    assert game.round_no == 1
    assert game.state.discard == [card("5c")]
    assert game.state.stock == [drawn]


@pytest.mark.parametrize("name", ["classic", "500"])
def test_no_turn_over_in_classic_and_500(name: str) -> None:
    game = new_game(preset(name), ENDED_HANDS, upcard="Ks")
    run_out_stock(game)
    assert game.state.stock == []
    refused(game, DrawStock())


# --- the 300th turn ----------------------------------------------------------------------


def take_and_discard(game: Game) -> None:
    """Take the top discard and throw another card: a turn that never touches the stock."""
    game.apply(TakeDiscard())
    taken = game.state.hands[game.state.current][-1]
    other = next(c for c in game.state.hands[game.state.current] if c != taken)
    game.apply(Discard(other))


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
def test_a_round_ends_when_its_300th_turn_is_complete(name: str) -> None:
    ruleset = preset(name, target=100_000)
    game = Game.new(ruleset, ["ann", "bob"], seed=11)
    for _ in range(299):
        take_and_discard(game)
    assert game.round_no == 1
    assert not game.rounds
    take_and_discard(game)
    (result,) = game.rounds
    assert result.reason is RoundEnd.BLOCKED
    assert result.ender is None
    assert game.round_no == 2


def test_a_blocked_round_is_scored_like_an_ended_round() -> None:
    game = Game.new(preset("parlett"), ["ann", "bob"], seed=11)
    for _ in range(300):
        take_and_discard(game)
    (result,) = game.rounds
    values = tuple(sum(value_parlett(c) for c in h) for h in result.hands)
    assert result.hand_values == values
    low = min(values)
    winners = [i for i, v in enumerate(values) if v == low]
    pot = sum(v - low for v in values)
    assert result.points == tuple(pot // len(winners) if i in winners else 0 for i in range(2))


# --- dealer rotation ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "500"])
def test_the_deal_moves_one_seat_each_round(name: str) -> None:
    game = Game.new(preset(name, target=100_000), ["ann", "bob", "cat"], seed=21)
    expected = [("cat", "ann"), ("ann", "bob"), ("bob", "cat"), ("cat", "ann"), ("ann", "bob")]
    for round_no, (dealer, first) in enumerate(expected, start=1):
        assert game.round_no == round_no
        view = game.view(None)
        assert (view.dealer, view.current) == (dealer, first)
        assert [s.is_dealer for s in view.seats] == [p == dealer for p in game.players]
        assert len(game.state.discard) == 1
        assert not any(s.has_melded for s in view.seats)
        run_out_stock(game)
        game.apply(EndRound())


def test_parlett_dealer_rotation_with_two_players() -> None:
    game = Game.new(preset("parlett", target=100_000), ["ann", "bob"], seed=4)
    for round_no, first in enumerate(["ann", "bob", "ann"], start=1):
        assert game.round_no == round_no
        assert game.current_player == first
        assert game.view(None).dealer != first
        for _ in range(300):
            take_and_discard(game)


# --- seeded shuffles: replay --------------------------------------------------------------


def test_a_game_replays_from_its_seed_and_log() -> None:
    game = Game.new(preset("classic", target=100_000), ["ann", "bob", "cat"], seed=99)
    run_out_stock(game)
    game.apply(EndRound())
    for _ in range(5):
        pass_turn(game)
    again = Game.replay(game.ruleset, game.players, 99, list(game.log))
    assert again == game
    assert again.state.hands == game.state.hands
    assert again.state.stock == game.state.stock


def test_the_same_seed_deals_the_same_cards() -> None:
    a = Game.new(preset("parlett"), ["ann", "bob", "cat"], seed=5)
    b = Game.new(preset("parlett"), ["ann", "bob", "cat"], seed=5)
    assert a.state.hands == b.state.hands
    assert a.state.stock == b.state.stock
    assert a.state.discard == b.state.discard


def test_round_two_does_not_reuse_the_rigged_order() -> None:
    # the rig is for round 1 only; round 2 is a fresh seeded shuffle of every card
    game = new_game(preset("classic", target=100_000), ENDED_HANDS, upcard="Ks")
    run_out_stock(game)
    game.apply(EndRound())
    everything = [c for h in game.state.hands for c in h] + game.state.stock + game.state.discard
    assert len(set(everything)) == 52
    assert all(len(h) == 7 for h in game.state.hands)
    assert isinstance(everything[0], Card)
