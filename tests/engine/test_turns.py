"""rules.md, "A turn": draw, meld, lay off, swap a joker, discard, and the duties and
refusals that come with them. Every refusal must leave the game exactly as it was."""

from __future__ import annotations

import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    MeldKind,
    NotYourTurn,
    Phase,
    PlayerError,
    RoundEnd,
    Ruleset,
    Suit,
    SwapJoker,
    TakeDiscard,
    preset,
    readings,
)

from .conftest import card, cards, new_game, pass_turn, refused, run_out_stock

CLASSIC = preset("classic")
PARLETT = preset("parlett")
FIVE = preset("500")

# --- draw first, one draw, only the current player ---------------------------------------

BASIC_HANDS = ["7h 8h 9h 2c 2d 2s Kd", "6h 5h 2h", ""]


def basic(ruleset: Ruleset = CLASSIC) -> Game:
    """ann to play; upcard Q♠; the stock's top cards are J♦ (ann) then 3♣ (bob)."""
    return new_game(ruleset, BASIC_HANDS, upcard="Qs", stock="Jd 3c")


@pytest.mark.parametrize(
    "action",
    [
        Meld(cards("7h 8h 9h")),
        Discard(card("Kd")),
        LayOff(cards("Kd"), 1),
        SwapJoker(1, card("Kd")),
    ],
    ids=str,
)
def test_a_turn_starts_with_a_draw(action: Action) -> None:
    game = basic()
    assert game.phase is Phase.DRAW
    refused(game, action)


def test_drawing_from_the_stock_takes_its_top_card() -> None:
    game = basic()
    size = len(game.state.stock)
    game.apply(DrawStock())
    assert card("Jd") in game.state.hands[0]
    assert len(game.state.hands[0]) == 8
    assert len(game.state.stock) == size - 1
    assert game.state.stock[-1] == card("3c")
    assert game.phase is Phase.PLAY


def test_taking_the_discard_takes_the_upcard() -> None:
    game = basic()
    game.apply(TakeDiscard())
    assert card("Qs") in game.state.hands[0]
    assert game.state.discard == []


@pytest.mark.parametrize("second", [DrawStock(), TakeDiscard(), EndRound()], ids=str)
def test_exactly_one_draw(second: Action) -> None:
    game = basic()
    game.apply(DrawStock())
    refused(game, second)


@pytest.mark.parametrize("who", ["bob", "cat", "zed"])
def test_only_the_current_player_acts(who: str) -> None:
    game = basic()
    for action in (DrawStock(), TakeDiscard()):
        message = refused(game, action, player=who, error=NotYourTurn)
        assert message
    assert issubclass(NotYourTurn, PlayerError)
    game.apply(DrawStock(), player="ann")
    refused(game, Discard(card("7h")), player="bob", error=NotYourTurn)


def test_the_player_after_the_dealer_starts_round_one() -> None:
    game = basic()
    assert game.state.current == 0
    assert game.current_player == "ann"
    assert game.state.dealer == 2


# --- discarding --------------------------------------------------------------------------


def test_discard_ends_the_turn_and_the_next_player_draws() -> None:
    game = basic()
    game.apply(DrawStock())
    game.apply(Discard(card("Kd")))
    assert game.state.discard[-1] == card("Kd")
    assert card("Kd") not in game.state.hands[0]
    assert len(game.state.hands[0]) == 7
    assert game.current_player == "bob"
    assert game.phase is Phase.DRAW


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    game = basic()
    game.apply(DrawStock())
    game.apply(Discard(card("Jd")))
    assert game.state.discard[-1] == card("Jd")


@pytest.mark.parametrize("ruleset", [CLASSIC, PARLETT, FIVE], ids=["classic", "parlett", "500"])
def test_the_card_just_taken_from_the_discard_pile_may_not_be_discarded(ruleset: Ruleset) -> None:
    game = basic(ruleset)
    game.apply(TakeDiscard())
    refused(game, Discard(card("Qs")))
    assert Discard(card("Qs")) not in game.legal_actions()
    game.apply(Discard(card("Kd")))  # any other card: fine
    assert game.state.discard == [card("Kd")]


def test_taking_the_top_card_carries_no_other_duty_in_500() -> None:
    game = basic(FIVE)
    game.apply(TakeDiscard(1))
    assert game.view("ann").must_use is None
    game.apply(Discard(card("Kd")))  # no meld needed
    assert game.current_player == "bob"


def test_a_twin_of_the_card_just_taken_may_be_discarded() -> None:
    # 500 with five players: two decks. ann holds the first 10♥; the upcard is its twin.
    # Naming either copy means "a ten of hearts": the one that may be discarded goes.
    hands = ["10h 4c", "", "", "", ""]
    game = new_game(FIVE, hands, upcard="10h", stock="")
    first, twin = Card(10, Suit.HEARTS, 0), Card(10, Suit.HEARTS, 1)
    assert first in game.state.hands[0]
    assert game.state.discard == [twin]
    game.apply(TakeDiscard())
    assert game.resolve(Discard(twin)) == Discard(first)
    game.apply(Discard(twin))
    assert game.state.discard == [first]
    assert twin in game.state.hands[0]


def test_discarding_a_card_not_held_is_refused() -> None:
    game = basic()
    game.apply(DrawStock())
    refused(game, Discard(card("As")))


# --- melds on the table ------------------------------------------------------------------


def test_melds_are_numbered_in_order_and_remember_who_placed_them() -> None:
    game = basic()
    game.apply(DrawStock())
    game.apply(Meld(cards("2c 2d 2s")))
    game.apply(Meld(cards("9h 7h 8h")))
    assert [m.id for m in game.state.melds] == [1, 2]
    first, second = game.state.melds
    assert first.kind is MeldKind.SET
    assert second.kind is MeldKind.RUN
    assert first.owner == second.owner == "ann"
    assert all(p.placed_by == "ann" for m in game.state.melds for p in m.cards)
    assert [p.rank for p in second.cards] == [7, 8, 9]
    assert sorted(game.state.hands[0]) == sorted(cards("Kd Jd"))
    assert game.view(None).seats[0].has_melded


@pytest.mark.parametrize("text", ["7h 8h", "7h 8h 2c", "2c 2d Kd", "7h 9h Kd", "7h 8h 9h 10h"])
def test_a_group_that_is_no_meld_or_not_held_is_refused(text: str) -> None:
    game = basic()
    game.apply(DrawStock())
    refused(game, Meld(cards(text)))


def test_the_player_chooses_what_a_joker_stands_for() -> None:
    game = new_game(PARLETT, ["5h 6h JK", ""], upcard="Kc", stock="9c")
    game.apply(DrawStock())
    for r in readings("5h 6h JK", PARLETT):
        (joker,) = [s for s in r.slots if s.card.is_joker]
        if joker.rank == 4:
            low = r
    game.apply(Meld(cards("5h 6h JK"), reading=low))
    placed = {p.card: (p.rank, p.suit) for p in game.state.melds[0].cards}
    assert placed[Card.joker()] == (4, Suit.HEARTS)


# --- lay-offs ----------------------------------------------------------------------------


def ann_melds_run_and_set(game: Game) -> None:
    game.apply(DrawStock())  # J♦
    game.apply(Meld(cards("7h 8h 9h")))  # meld 1
    game.apply(Meld(cards("2c 2d 2s")))  # meld 2
    game.apply(Discard(card("Jd")))
    game.apply(DrawStock())  # bob: 3♣


def test_lay_off_onto_another_players_meld() -> None:
    game = basic()
    ann_melds_run_and_set(game)
    game.apply(LayOff(cards("5h 6h"), 1))  # two cards at once, no meld of bob's own needed
    game.apply(LayOff(cards("2h"), 2))
    run, group = game.state.melds
    assert run.owner == "ann"
    assert group.owner == "ann"
    assert [(p.rank, p.placed_by) for p in run.cards] == [
        (5, "bob"),
        (6, "bob"),
        (7, "ann"),
        (8, "ann"),
        (9, "ann"),
    ]
    assert {p.suit: p.placed_by for p in group.cards}[Suit.HEARTS] == "bob"
    assert len(group.cards) == 4


def test_lay_off_that_breaks_a_meld_is_refused() -> None:
    game = basic()
    ann_melds_run_and_set(game)
    refused(game, LayOff(cards("5h"), 1))  # gap at 6
    refused(game, LayOff(cards("2h"), 1))  # wrong suit for the run
    refused(game, LayOff(cards("6h"), 2))  # wrong rank for the set
    refused(game, LayOff(cards("6h"), 9))  # no such meld


def test_a_set_holds_at_most_four_cards() -> None:
    # 500, five players, two decks: 7♥ 7♦ 7♠ on the table; bob holds 7♣ 7♥#2 7♣#2
    game = new_game(FIVE, ["7h 7d 7s", "7c 7h 7c", "", "", ""], upcard="Kd", stock="Ks 4d")
    game.apply(DrawStock())
    game.apply(Meld(cards("7h 7d 7s")))
    game.apply(Discard(card("Ks")))
    game.apply(DrawStock())
    refused(game, LayOff((Card(7, Suit.HEARTS, 1),), 1))  # hearts already in the set
    game.apply(LayOff((Card(7, Suit.CLUBS, 0),), 1))
    refused(game, LayOff((Card(7, Suit.CLUBS, 1),), 1))  # a fifth card


@pytest.mark.parametrize(
    ("ruleset", "allowed"),
    [(CLASSIC, False), (PARLETT, False), (preset("parlett", ace_high=True), True), (FIVE, True)],
    ids=["classic", "parlett", "parlett-high", "500"],
)
def test_lay_off_an_ace_above_the_king(ruleset: Ruleset, allowed: bool) -> None:
    game = new_game(ruleset, ["Jc Qc Kc", "Ac 2c", ""], upcard="9d", stock="4h 5s", seed=4)
    game.apply(DrawStock())
    game.apply(Meld(cards("Jc Qc Kc")))
    game.apply(Discard(card("4h")))
    game.apply(DrawStock())
    action = LayOff(cards("Ac"), 1)
    if allowed:
        game.apply(action)
        assert [p.rank for p in game.state.melds[0].cards] == [11, 12, 13, 14]
        refused(game, LayOff(cards("2c"), 1))  # never K-A-2
    else:
        refused(game, action)


def test_melds_are_never_rearranged_a_joker_keeps_its_place() -> None:
    # 5♥ 6♥ JK=7♥ on the table: 8♥ extends it; 7♥ cannot take the joker's place by a lay-off
    game = new_game(PARLETT, ["5h 6h JK", "8h 7h 4h"], upcard="Kc", stock="9c 9d")
    seven = next(r for r in readings("5h 6h JK", PARLETT) if str(r) == "5♥ 6♥ JK=7♥")
    game.apply(DrawStock())
    game.apply(Meld(cards("5h 6h JK"), reading=seven))
    game.apply(Discard(card("9c")))
    game.apply(DrawStock())
    refused(game, LayOff(cards("7h"), 1))
    game.apply(LayOff(cards("8h"), 1))
    game.apply(LayOff(cards("4h"), 1))
    assert [(str(p.card), p.rank) for p in game.state.melds[0].cards] == [
        ("4♥", 4),
        ("5♥", 5),
        ("6♥", 6),
        ("JK", 7),
        ("8♥", 8),
    ]


# --- option: limit lay-offs (classic and 500) -------------------------------------------

LIMIT_HANDS = ["7h 8h 9h 10h Jh 2c 4d", "6h 5h 2d", ""]


@pytest.mark.parametrize("name", ["classic", "500"])
def test_limit_layoffs_one_card_per_turn_a_meld_earlier_in_the_turn_counts(name: str) -> None:
    game = new_game(preset(name, limit_layoffs=True), LIMIT_HANDS, "Qs", stock="Ks Kc Kd 3s")
    game.apply(DrawStock())
    game.apply(Meld(cards("7h 8h 9h")))
    refused(game, LayOff(cards("10h Jh"), 1))  # two cards in one lay-off
    game.apply(LayOff(cards("10h"), 1))  # melded earlier this turn: allowed
    refused(game, LayOff(cards("Jh"), 1))  # a second card this turn
    game.apply(Discard(card("Ks")))
    # bob has not melded this round: no lay-off
    game.apply(DrawStock())
    refused(game, LayOff(cards("6h"), 1))
    game.apply(Discard(card("Kc")))
    game.apply(DrawStock())  # cat
    game.apply(Discard(card("Kd")))
    # ann's next turn: one more card
    game.apply(DrawStock())
    game.apply(LayOff(cards("Jh"), 1))
    assert len(game.state.melds[0].cards) == 5


@pytest.mark.parametrize("name", ["classic", "500"])
def test_without_the_limit_anyone_lays_off_any_number(name: str) -> None:
    game = new_game(preset(name), LIMIT_HANDS, "Qs", stock="Ks Kc Kd 3s")
    game.apply(DrawStock())
    game.apply(Meld(cards("7h 8h 9h")))
    game.apply(LayOff(cards("10h Jh"), 1))
    game.apply(Discard(card("Ks")))
    game.apply(DrawStock())
    game.apply(LayOff(cards("6h"), 1))  # bob never melded
    game.apply(LayOff(cards("5h"), 1))


# --- going out ---------------------------------------------------------------------------

OUT_HANDS = ["3c 4c 5c 6c 9d 9h 9s", "Kc Qd Jh 10s 8c 7d 2h", "Ac 2d 3h 4s 5d 6h 7s"]


def out_game(ruleset: Ruleset = CLASSIC) -> Game:
    """ann draws 9♣ and can meld everything: 3-4-5-6♣ and 9♣ 9♦ 9♥ 9♠."""
    return new_game(ruleset, OUT_HANDS, upcard="Kd", stock="9c")


def test_going_out_without_a_discard() -> None:
    game = out_game()
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("9c 9d 9h 9s")))
    (result,) = game.rounds
    assert result.reason is RoundEnd.WENT_OUT
    assert result.ender == "ann"
    assert game.round_no == 2


def test_going_out_with_a_lay_off() -> None:
    game = out_game()
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("9d 9h 9s")))
    game.apply(LayOff(cards("9c"), 2))
    assert game.rounds[0].reason is RoundEnd.WENT_OUT


def test_going_out_by_discarding_the_last_card() -> None:
    game = out_game()
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("9d 9h 9s")))
    game.apply(Discard(card("9c")))
    (result,) = game.rounds
    assert result.reason is RoundEnd.WENT_OUT
    assert result.ender == "ann"


def test_must_discard_to_go_out_refuses_a_play_that_empties_the_hand() -> None:
    game = out_game(preset("classic", must_discard_to_go_out=True))
    game.apply(DrawStock())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    refused(game, Meld(cards("9c 9d 9h 9s")))
    game.apply(Meld(cards("9d 9h 9s")))
    refused(game, LayOff(cards("9c"), 2))
    game.apply(Discard(card("9c")))
    assert game.rounds[0].reason is RoundEnd.WENT_OUT
    assert game.rounds[0].ender == "ann"


def test_dead_end_holding_only_the_card_just_taken_is_refused() -> None:
    # ann takes K♦ from the pile; melding everything else would leave only K♦, which she
    # may not discard: refused. Discarding a 9 instead is fine.
    game = out_game()
    game.apply(TakeDiscard())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    refused(game, Meld(cards("9d 9h 9s")))
    refused(game, Discard(card("Kd")))
    game.apply(Discard(card("9s")))
    assert game.current_player == "bob"


def test_dead_end_rule_does_not_apply_once_the_taken_card_is_melded() -> None:
    # ann takes K♦ and melds it at once (K♣ K♦ K♥); melding 3-4-5-6♣ then leaves her 9♠,
    # which she may discard. Nothing leaves her "holding only the card just taken".
    game = new_game(CLASSIC, ["Kc Kh 3c 4c 5c 6c 9s", "", ""], upcard="Kd", stock="8h")
    game.apply(TakeDiscard())
    game.apply(Meld(cards("Kc Kd Kh")))
    assert game.why_not(Meld(cards("3c 4c 5c 6c"))) is None
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Discard(card("9s")))
    assert game.rounds[0].reason is RoundEnd.WENT_OUT


def test_dead_end_rule_does_not_apply_once_the_taken_card_is_laid_off() -> None:
    # ann melds 7-8-9♥ (meld 1); cat discards 10♥; ann takes it and lays it off. Melding
    # 2♣ 2♦ 2♠ then leaves K♠, which she may discard.
    game = new_game(CLASSIC, ["7h 8h 9h 2c 2d 2s Ks", "", ""], upcard="Qd", stock="Jc 3d 10h")
    game.apply(DrawStock())  # ann: J♣
    game.apply(Meld(cards("7h 8h 9h")))
    game.apply(Discard(card("Jc")))
    pass_turn(game)  # bob: 3♦
    game.apply(DrawStock())  # cat: 10♥
    game.apply(Discard(card("10h")))
    game.apply(TakeDiscard())  # ann: 10♥
    game.apply(LayOff(cards("10h"), 1))
    assert game.why_not(Meld(cards("2c 2d 2s"))) is None
    game.apply(Meld(cards("2c 2d 2s")))
    game.apply(Discard(card("Ks")))
    assert game.rounds[0].reason is RoundEnd.WENT_OUT


def test_a_reading_that_does_not_fit_the_cards_is_refused() -> None:
    game = new_game(PARLETT, ["5h 6h JK", ""], upcard="Kc", stock="9c")
    game.apply(DrawStock())
    other = readings("9c 9d 9s", PARLETT)[0]
    refused(game, Meld(cards("5h 6h JK"), reading=other))


def test_legal_actions_are_all_allowed() -> None:
    game = out_game()
    for action in game.legal_actions("ann"):
        assert game.can(action), action
    assert game.legal_actions("bob") == []
    game.apply(TakeDiscard())
    offered = game.legal_actions("ann")
    assert offered
    for action in offered:
        assert game.can(action), action
    assert Discard(card("Kd")) not in offered


# --- the Rummy 500 discard pile ----------------------------------------------------------

# ann discards Q♣ and bob 9♠ on the upcard 5♦: cat then sees 5♦ Q♣ 9♠ (bottom first).
DEEP_HANDS = ["Qc 3d 7s", "9s", "5h 5c 2s 3s 4s Jh 8c"]


def deep_game(ruleset: Ruleset = FIVE) -> Game:
    game = new_game(ruleset, DEEP_HANDS, upcard="5d", stock="Kh Kd 2c")
    game.apply(DrawStock())
    game.apply(Discard(card("Qc")))
    game.apply(DrawStock())
    game.apply(Discard(card("9s")))
    assert game.current_player == "cat"
    assert game.state.discard == cards("5d Qc 9s")
    return game


def test_500_take_a_deeper_card_with_every_card_above_it() -> None:
    game = deep_game()
    game.apply(TakeDiscard(3))
    assert game.state.discard == []
    assert set(cards("5d Qc 9s")) <= set(game.state.hands[2])
    assert len(game.state.hands[2]) == 10
    assert game.view("cat").must_use == card("5d")


def test_500_the_lowest_card_taken_must_be_used_at_once() -> None:
    game = deep_game()
    game.apply(TakeDiscard(3))
    refused(game, Discard(card("9s")))  # not before 5♦ is used
    refused(game, Meld(cards("2s 3s 4s")))  # the next play must contain 5♦
    assert all(isinstance(a, Meld | LayOff) and card("5d") in a.cards for a in game.legal_actions())
    game.apply(Meld(cards("5c 5d 5h")))
    assert game.view("cat").must_use is None
    game.apply(Meld(cards("2s 3s 4s")))  # free again


@pytest.mark.parametrize("other", ["9s", "Qc"])
def test_500_the_other_cards_taken_may_be_discarded_the_same_turn(other: str) -> None:
    game = deep_game()
    game.apply(TakeDiscard(3))
    game.apply(Meld(cards("5c 5d 5h")))
    game.apply(Discard(card(other)))
    assert game.state.discard == [card(other)]


def test_500_a_deep_take_is_refused_when_the_lowest_card_cannot_be_used() -> None:
    # Q♣ with 9♠ and cat's 5♥ 5♣ 2♠ 3♠ 4♠ J♥ 8♣: no meld, no lay-off (no melds on the table)
    game = deep_game()
    refused(game, TakeDiscard(2))
    assert TakeDiscard(2) not in game.legal_actions()
    assert TakeDiscard(3) in game.legal_actions()


def test_500_cannot_take_more_cards_than_the_pile_holds() -> None:
    game = deep_game()
    refused(game, TakeDiscard(4))
    refused(game, TakeDiscard(0))


@pytest.mark.parametrize("ruleset", [CLASSIC, PARLETT], ids=["classic", "parlett"])
def test_only_500_takes_deeper_than_the_top_card(ruleset: Ruleset) -> None:
    game = deep_game(ruleset)
    refused(game, TakeDiscard(3))  # would be usable, but not in this preset
    refused(game, TakeDiscard(2))
    assert all(not (isinstance(a, TakeDiscard) and a.depth > 1) for a in game.legal_actions())


# ann melds 9-10-J♥ and discards Q♣ on the upcard 8♥; bob can use 8♥ only by a lay-off.
LAYOFF_DEEP_HANDS = ["9h 10h Jh Qc", "2c 5d 9s Kc 4s Ad 7c", ""]


def layoff_deep_game(ruleset: Ruleset) -> Game:
    game = new_game(ruleset, LAYOFF_DEEP_HANDS, upcard="8h", stock="3d 6d")
    game.apply(DrawStock())
    game.apply(Meld(cards("9h 10h Jh")))
    game.apply(Discard(card("Qc")))
    return game


def test_500_deep_take_usable_by_a_lay_off_on_the_table() -> None:
    game = layoff_deep_game(FIVE)
    game.apply(TakeDiscard(2))
    game.apply(LayOff(cards("8h"), 1))
    assert [p.rank for p in game.state.melds[0].cards] == [8, 9, 10, 11]
    assert game.state.melds[0].cards[0].placed_by == "bob"
    game.apply(Discard(card("Qc")))


def test_500_limit_layoffs_deep_take_refused_before_a_meld() -> None:
    # bob has not melded, so a lay-off is no play for him: 8♥ cannot be used.
    game = layoff_deep_game(preset("500", limit_layoffs=True))
    refused(game, TakeDiscard(2))


# --- joker swap (parlett) ----------------------------------------------------------------

SWAP_HANDS = ["5h 6h JK 8c 8d JK", "7h 8s 8h 4h 7d 10c Jc"]


def swap_game() -> Game:
    """ann melds 5♥ 6♥ JK=7♥ (meld 1) and 8♣ 8♦ JK#2 (meld 2); bob to play, drawn 9♦."""
    game = new_game(PARLETT, SWAP_HANDS, upcard="Kc", stock="9c 9d")
    seven = next(r for r in readings("5h 6h JK", PARLETT) if str(r) == "5♥ 6♥ JK=7♥")
    game.apply(DrawStock())
    game.apply(Meld(cards("5h 6h JK"), reading=seven))
    game.apply(Meld((card("8c"), card("8d"), Card.joker(1))))
    game.apply(Discard(card("9c")))
    game.apply(DrawStock())
    return game


def test_swap_the_natural_card_a_joker_stands_for_in_a_run() -> None:
    game = swap_game()
    game.apply(SwapJoker(1, card("7h")))
    assert Card.joker(0) in game.state.hands[1]
    assert card("7h") not in game.state.hands[1]
    assert [(p.card, p.rank, p.suit) for p in game.state.melds[0].cards] == [
        (card("5h"), 5, Suit.HEARTS),
        (card("6h"), 6, Suit.HEARTS),
        (card("7h"), 7, Suit.HEARTS),
    ]
    assert game.state.melds[0].cards[2].placed_by == "bob"
    # whether or not the player has melded before: bob had not
    assert not game.view(None).seats[1].has_melded
    # the joker may be used later
    game.apply(Meld((card("10c"), card("Jc"), Card.joker(0))))


@pytest.mark.parametrize("text", ["4h", "7d", "8h"])
def test_swap_in_a_run_needs_exactly_the_card_the_joker_stands_for(text: str) -> None:
    game = swap_game()
    refused(game, SwapJoker(1, card(text)))


@pytest.mark.parametrize("text", ["8s", "8h"])
def test_a_set_joker_may_be_replaced_by_any_missing_suit(text: str) -> None:
    game = swap_game()
    game.apply(SwapJoker(2, card(text)))
    assert Card.joker(1) in game.state.hands[1]
    placed = {(p.rank, p.suit) for p in game.state.melds[1].cards}
    assert placed == {(8, Suit.CLUBS), (8, Suit.DIAMONDS), (8, card(text).suit)}


def test_a_set_joker_is_not_replaced_by_another_rank() -> None:
    game = swap_game()
    refused(game, SwapJoker(2, card("7d")))
    refused(game, SwapJoker(2, card("7h")))


def test_swapping_back_the_joker_just_taken_as_the_only_card_is_refused() -> None:
    # ann takes the joker from the pile and melds K♥ K♠ JK, keeping only K♦. Swapping K♦
    # for that joker would leave her holding only the card she took, which she may not
    # discard: refused, and not offered. She can still end her turn by discarding K♦.
    rules = preset("parlett", must_discard_to_go_out=True)
    game = new_game(rules, ["Kh Ks Kd 3c 4c 5c 6c 7h 8h 9h", ""], upcard="JK", stock="2c")
    game.apply(TakeDiscard())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld(cards("7h 8h 9h")))
    game.apply(Meld((card("Kh"), card("Ks"), Card.joker(0))))
    assert game.state.hands[0] == [card("Kd")]
    message = refused(game, SwapJoker(3, card("Kd")))
    assert "holding only JK" in message
    assert not any(isinstance(a, SwapJoker) for a in game.legal_actions())
    game.apply(Discard(card("Kd")))
    assert game.current_player == "bob"


def test_swapping_back_the_joker_just_taken_is_allowed_with_another_card_left() -> None:
    rules = preset("parlett", must_discard_to_go_out=True)
    game = new_game(rules, ["Kh Ks Kd 9c 3c 4c 5c 6c 7h 8h", ""], upcard="JK", stock="2c")
    game.apply(TakeDiscard())
    game.apply(Meld(cards("3c 4c 5c 6c")))
    game.apply(Meld((card("Kh"), card("Ks"), Card.joker(0))))
    assert game.state.hands[0] == cards("Kd 9c 7h 8h")
    assert SwapJoker(2, card("Kd")) in game.legal_actions()
    game.apply(SwapJoker(2, card("Kd")))
    refused(game, Discard(Card.joker(0)))
    game.apply(Discard(card("9c")))


def test_swap_from_a_meld_without_a_joker_or_no_meld_is_refused() -> None:
    game = swap_game()
    game.apply(SwapJoker(1, card("7h")))
    refused(game, SwapJoker(1, card("4h")))
    refused(game, SwapJoker(7, card("8s")))


def test_a_joker_may_be_swapped_out_of_ones_own_meld() -> None:
    game = new_game(PARLETT, ["5h 6h JK 7h", ""], upcard="Kc", stock="9c")
    seven = next(r for r in readings("5h 6h JK", PARLETT) if str(r) == "5♥ 6♥ JK=7♥")
    game.apply(DrawStock())
    game.apply(Meld(cards("5h 6h JK"), reading=seven))
    game.apply(SwapJoker(1, card("7h")))
    assert Card.joker() in game.state.hands[0]


def test_a_set_joker_cannot_take_a_suit_already_in_the_set_two_decks() -> None:
    # parlett, four players, two decks: bob holds the second 8♣
    ruleset = preset("parlett", two_decks=True)
    game = new_game(ruleset, ["8c 8d JK", "8c 8h", "", ""], upcard="Kc", stock="9c 9d")
    game.apply(DrawStock())
    game.apply(Meld(cards("8c 8d JK")))
    game.apply(Discard(card("9c")))
    game.apply(DrawStock())
    refused(game, SwapJoker(1, Card(8, Suit.CLUBS, 1)))
    game.apply(SwapJoker(1, card("8h")))


def test_no_joker_swap_in_500_even_with_jokers() -> None:
    ruleset = preset("500", jokers=True)
    game = new_game(ruleset, ["5h 6h JK", "7h", ""], upcard="Kc", stock="9c 9d", seed=3)
    seven = next(r for r in readings("5h 6h JK", ruleset) if str(r) == "5♥ 6♥ JK=7♥")
    game.apply(DrawStock())
    game.apply(Meld(cards("5h 6h JK"), reading=seven))
    game.apply(Discard(card("9c")))
    game.apply(DrawStock())
    refused(game, SwapJoker(1, card("7h")))


# --- ending the round on an empty stock (classic, 500) ----------------------------------


@pytest.mark.parametrize("ruleset", [CLASSIC, FIVE], ids=["classic", "500"])
def test_end_round_only_on_an_empty_stock(ruleset: Ruleset) -> None:
    game = basic(ruleset)
    refused(game, EndRound())
    run_out_stock(game)
    assert game.state.stock == []
    refused(game, DrawStock())
    assert EndRound() in game.legal_actions()
    game.apply(EndRound())
    (result,) = game.rounds
    assert result.reason is RoundEnd.ENDED


@pytest.mark.parametrize("ruleset", [CLASSIC, FIVE], ids=["classic", "500"])
def test_on_an_empty_stock_the_discard_may_be_taken_instead(ruleset: Ruleset) -> None:
    game = basic(ruleset)
    run_out_stock(game)
    top = game.state.discard[-1]
    game.apply(TakeDiscard())
    assert top in game.state.hands[game.state.current]
    refused(game, EndRound())  # after drawing, too late


def test_parlett_never_ends_the_round_by_choice() -> None:
    game = basic(PARLETT)
    refused(game, EndRound())
    assert EndRound() not in game.legal_actions()


def test_an_illegal_action_raises_illegal_action() -> None:
    game = basic()
    with pytest.raises(IllegalAction):
        game.apply(Discard(card("Kd")))
