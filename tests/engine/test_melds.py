"""rules.md, "Melds": sets, runs, aces per preset, jokers and their readings."""

from __future__ import annotations

import pytest

from bot.rummy import MeldKind, Ruleset, Suit, preset, readings

CLASSIC = preset("classic")
PARLETT = preset("parlett")
PARLETT_HIGH = preset("parlett", ace_high=True)
FIVE = preset("500")
FIVE_LOW = preset("500", ace_always_low=True)
FIVE_JOKERS = preset("500", jokers=True)
ALL = [CLASSIC, PARLETT, PARLETT_HIGH, FIVE, FIVE_LOW]
IDS = ["classic", "parlett", "parlett-high", "500", "500-low"]


def kinds(text: str, ruleset: Ruleset) -> set[MeldKind]:
    return {r.kind for r in readings(text, ruleset)}


# --- sets and runs without jokers: the same in every preset ------------------------------

VALID_EVERYWHERE = [
    ("7h 7d 7s", MeldKind.SET),
    ("7h 7d 7s 7c", MeldKind.SET),
    ("Kc Kd Kh", MeldKind.SET),
    ("Ac Ad As", MeldKind.SET),
    ("4s 5s 6s", MeldKind.RUN),
    ("6s 4s 5s", MeldKind.RUN),  # order of naming does not matter
    ("2d 3d 4d 5d 6d 7d 8d", MeldKind.RUN),
    ("Ah 2h 3h", MeldKind.RUN),  # "A-2-3 is the lowest"
    ("Jc Qc Kc", MeldKind.RUN),  # "J-Q-K the highest" with aces low
    ("10c Jc Qc Kc", MeldKind.RUN),
]

INVALID_EVERYWHERE = [
    "7h 7d",  # fewer than three
    "4s 5s",
    "7h 7d 7s 7c 7c#2",  # five of a rank (not a valid pack, but still no meld)
    "7h 7d 8s",  # mixed ranks, mixed suits
    "4s 5s 6h",  # mixed suits
    "4s 5s 7s",  # gap
    "4s 6s 8s",
    "Kh Ah 2h",  # "a run never turns the corner"
    "Qh Kh Ah 2h",
    "Kh Ah 2h 3h",
    "4s 4s#2 5s",  # twins cannot both sit in one run
    "",
]


@pytest.mark.parametrize("ruleset", ALL, ids=IDS)
@pytest.mark.parametrize(("text", "kind"), VALID_EVERYWHERE)
def test_valid_melds(ruleset: Ruleset, text: str, kind: MeldKind) -> None:
    assert kinds(text, ruleset) == {kind}


@pytest.mark.parametrize("ruleset", ALL, ids=IDS)
@pytest.mark.parametrize("text", INVALID_EVERYWHERE)
def test_invalid_melds(ruleset: Ruleset, text: str) -> None:
    assert readings(text, ruleset) == []


@pytest.mark.parametrize(
    "text",
    ["7h 7h#2 7d", "7h 7d 7s 7h#2", "Qc Qc#2 Qs Qd"],
)
def test_a_set_needs_different_suits_also_with_two_decks(text: str) -> None:
    for ruleset in (PARLETT, FIVE):
        assert readings(text, ruleset) == []


def test_a_set_from_two_decks_with_different_suits_is_a_set() -> None:
    assert kinds("7h#2 7d 7s#2", FIVE) == {MeldKind.SET}


# --- aces per preset --------------------------------------------------------------------

ACE_TABLE = [
    # ruleset, A-2-3, Q-K-A, K-A-2
    (CLASSIC, True, False, False),
    (PARLETT, True, False, False),
    (PARLETT_HIGH, True, True, False),
    (FIVE, True, True, False),
    (FIVE_LOW, True, False, False),
]


@pytest.mark.parametrize(("ruleset", "low", "high", "corner"), ACE_TABLE, ids=IDS)
def test_aces_in_runs(ruleset: Ruleset, low: bool, high: bool, corner: bool) -> None:
    assert bool(readings("Ac 2c 3c", ruleset)) is low
    assert bool(readings("Qc Kc Ac", ruleset)) is high
    assert bool(readings("Jc Qc Kc Ac", ruleset)) is high
    assert bool(readings("Kc Ac 2c", ruleset)) is corner


def test_high_ace_stands_above_the_king() -> None:
    (reading,) = readings("Qd Kd Ad", FIVE)
    assert [s.rank for s in reading.slots] == [12, 13, 14]
    (reading,) = readings("Ad 2d 3d", FIVE)
    assert [s.rank for s in reading.slots] == [1, 2, 3]


def test_thirteen_card_run_with_an_ace_reads_low_or_high_in_500() -> None:
    # 2..K of hearts plus the ace: A-2-...-K (ace low) or 2-...-K-A (ace high), never both.
    text = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
    ace_ranks = sorted(s.rank for r in readings(text, FIVE) for s in r.slots if s.card.rank == 1)
    assert ace_ranks == [1, 14]
    ace_ranks = [s.rank for r in readings(text, CLASSIC) for s in r.slots if s.card.rank == 1]
    assert ace_ranks == [1]


def test_a_run_may_not_hold_an_ace_at_both_ends() -> None:
    # two decks: A-2-...-K-A would need the ace low and high at once
    text = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah#2"
    assert readings(text, FIVE) == []


# --- jokers -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [PARLETT, FIVE_JOKERS], ids=["parlett", "500-jokers"])
@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("5h 6h JK", True),
        ("5h JK 7h", True),
        ("5h 5d JK", True),
        ("5h 5d JK JK#2", True),  # 2 natural, 2 jokers
        ("5h 6h JK JK#2", True),
        ("5h JK JK#2", False),  # more jokers than natural cards
        ("5h 5d 5s JK JK#2", False),  # five cards is no set
        ("5h 5d 5s 5c JK", False),
        ("JK JK#2 JK#3", False),
        ("5h 6d JK", False),  # no suit and no rank in common
        ("5h 8h JK", False),  # one joker cannot fill two places
        ("5h 8h JK JK#2", True),  # 5-6-7-8 with both jokers inside
        ("5h JK", False),
    ],
)
def test_joker_melds(ruleset: Ruleset, text: str, valid: bool) -> None:
    assert bool(readings(text, ruleset)) is valid


def test_the_engine_offers_every_reading_of_a_joker() -> None:
    # "5♥ 6♥ JK is 4-5-6 or 5-6-7"
    found = readings("5h 6h JK", PARLETT)
    assert {str(r) for r in found} == {"JK=4♥ 5♥ 6♥", "5♥ 6♥ JK=7♥"}
    for r in found:
        assert r.kind is MeldKind.RUN
        (joker,) = [s for s in r.slots if s.card.is_joker]
        assert joker.suit is Suit.HEARTS
        assert joker.rank in (4, 7)
        assert sorted(s.rank for s in r.slots) in ([4, 5, 6], [5, 6, 7])


def test_a_joker_inside_a_run_has_one_reading() -> None:
    (r,) = readings("5h JK 7h", PARLETT)
    assert str(r) == "5♥ JK=6♥ 7♥"


@pytest.mark.parametrize(
    ("ruleset", "text", "joker_ranks"),
    [
        (PARLETT, "Qh Kh JK", {11}),  # aces low: only J-Q-K
        (PARLETT_HIGH, "Qh Kh JK", {11, 14}),  # high-or-low: J-Q-K or Q-K-A
        (FIVE_JOKERS, "Qh Kh JK", {11, 14}),
        (PARLETT, "2h 3h JK", {1, 4}),  # A-2-3 or 2-3-4
        (PARLETT_HIGH, "Kh JK 2h", set()),  # never K-A-2
        (FIVE_JOKERS, "Kh JK 2h", set()),
    ],
)
def test_joker_readings_respect_the_ace_rules(
    ruleset: Ruleset, text: str, joker_ranks: set[int]
) -> None:
    found = readings(text, ruleset)
    assert {s.rank for r in found for s in r.slots if s.card.is_joker} == joker_ranks


def test_a_joker_in_a_set_stands_for_the_rank_and_no_suit() -> None:
    (r,) = readings("9c 9d JK", PARLETT)
    assert r.kind is MeldKind.SET
    (joker,) = [s for s in r.slots if s.card.is_joker]
    assert joker.rank == 9
    assert joker.suit is None
    naturals = {(s.rank, s.suit) for s in r.slots if not s.card.is_joker}
    assert naturals == {(9, Suit.CLUBS), (9, Suit.DIAMONDS)}


def test_every_slot_of_a_natural_card_is_that_card() -> None:
    for text in ("4s 5s 6s 7s", "8c 8h 8d"):
        for r in readings(text, PARLETT):
            for s in r.slots:
                assert (s.rank, s.suit) == s.card.face
