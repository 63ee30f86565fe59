"""rules.md, "Cards": the pack, physical identity of twins, and the text players type."""

from __future__ import annotations

import pytest

from bot.rummy import Card, CardParseError, PlayerError, Suit, full_pack, parse_cards

H = Suit.HEARTS

# --- ranks: "A 2…10 J Q K (also T for ten, 1 for ace)", case-insensitive -------------------

RANK_FORMS = [
    ("A", 1),
    ("a", 1),
    ("1", 1),
    *[(str(n), n) for n in range(2, 11)],
    ("T", 10),
    ("t", 10),
    ("J", 11),
    ("j", 11),
    ("Q", 12),
    ("q", 12),
    ("K", 13),
    ("k", 13),
]


@pytest.mark.parametrize(("rank_text", "rank"), RANK_FORMS)
def test_every_rank_form_parses(rank_text: str, rank: int) -> None:
    assert parse_cards(rank_text + "h") == [Card(rank, H)]


# --- suits: "c d h s or ♣ ♦ ♥ ♠ (also ♧ ♢ ♡ ♤)", case-insensitive ---------------------------

SUIT_FORMS = [
    ("c", Suit.CLUBS),
    ("C", Suit.CLUBS),
    ("♣", Suit.CLUBS),
    ("♧", Suit.CLUBS),
    ("d", Suit.DIAMONDS),
    ("D", Suit.DIAMONDS),
    ("♦", Suit.DIAMONDS),
    ("♢", Suit.DIAMONDS),
    ("h", Suit.HEARTS),
    ("H", Suit.HEARTS),
    ("♥", Suit.HEARTS),
    ("♡", Suit.HEARTS),
    ("s", Suit.SPADES),
    ("S", Suit.SPADES),
    ("♠", Suit.SPADES),
    ("♤", Suit.SPADES),
]


@pytest.mark.parametrize(("suit_text", "suit"), SUIT_FORMS)
def test_every_suit_form_parses(suit_text: str, suit: Suit) -> None:
    assert parse_cards("7" + suit_text) == [Card(7, suit)]


@pytest.mark.parametrize(("suit_text", "suit"), SUIT_FORMS)
def test_rank_and_suit_may_be_separated_by_a_space(suit_text: str, suit: Suit) -> None:
    # rules.md example: `7 D`
    assert parse_cards("Q " + suit_text) == [Card(12, suit)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h", Card(10, Suit.HEARTS)),
        ("Qs", Card(12, Suit.SPADES)),
        ("a♠", Card(1, Suit.SPADES)),
        ("7 D", Card(7, Suit.DIAMONDS)),
        ("10 h", Card(10, Suit.HEARTS)),
        ("1c", Card(1, Suit.CLUBS)),
        ("Td", Card(10, Suit.DIAMONDS)),
    ],
)
def test_examples_from_the_rules(text: str, expected: Card) -> None:
    assert parse_cards(text) == [expected]
    assert Card.parse(text) == expected


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "jK", "joker", "JOKER", "Joker", "*"])
def test_joker_forms(text: str) -> None:
    assert parse_cards(text) == [Card.joker(0)]
    assert Card.parse(text).is_joker


@pytest.mark.parametrize(
    "text",
    [
        "10h Qs a♠ 7 D JK",
        "10h,Qs,a♠,7 D,JK",
        "10h, Qs, a♠, 7 D, JK",
        "  10h   Qs ,a♠  7 D , JK  ",
        "10H QS A♠ 7 d joker",
        "th q♤ 1s 7♢ *",
    ],
)
def test_lists_are_separated_by_spaces_or_commas(text: str) -> None:
    assert parse_cards(text) == [
        Card(10, Suit.HEARTS),
        Card(12, Suit.SPADES),
        Card(1, Suit.SPADES),
        Card(7, Suit.DIAMONDS),
        Card.joker(),
    ]


# --- "Anything else is an error that says which token was not understood" -----------------


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("11h", "11h"),
        ("0h", "0h"),
        ("Qs Xs", "Xs"),
        ("10h, Zz, Kd", "Zz"),
        ("Kx", "Kx"),
        ("hello", "hello"),
        ("7h 8h 9", "9"),
        ("7 Qs", "7"),
        ("Qs 9p", "9p"),
        ("JKK", "JKK"),
        ("jokers", "jokers"),
        ("**", "**"),
        ("Qh Bh", "Bh"),
    ],
)
def test_unknown_token_is_named_in_the_error(text: str, bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    assert info.value.token == bad
    assert bad in str(info.value)
    assert isinstance(info.value, PlayerError)  # a person's mistake, shown to them
    assert isinstance(info.value, ValueError)


def test_card_parse_wants_exactly_one_card() -> None:
    with pytest.raises(CardParseError):
        Card.parse("10h Qs")
    with pytest.raises(CardParseError):
        Card.parse("")


# --- physical identity: "a twin is a different card" ------------------------------------


def test_twins_share_a_face_but_are_different_cards() -> None:
    first, second = Card(10, H, 0), Card(10, H, 1)
    assert first != second
    assert first.face == second.face
    assert len({first, second}) == 2


def test_card_text_forms() -> None:
    assert str(Card(10, H)) == "10♥"
    assert str(Card(10, H, 1)) == "10♥#2"
    assert str(Card(1, Suit.SPADES)) == "A♠"
    assert str(Card(13, Suit.CLUBS)) == "K♣"
    assert str(Card.joker()) == "JK"
    assert Card(10, H).code == "10h"
    assert Card(10, H, 1).code == "10h#2"


@pytest.mark.parametrize("c", full_pack(2, 2), ids=str)
def test_every_physical_card_text_parses_back_to_that_card(c: Card) -> None:
    assert Card.parse(str(c)) == c
    assert Card.parse(c.code) == c


@pytest.mark.parametrize(
    ("decks", "jokers", "size"),
    [(1, 0, 52), (1, 2, 54), (2, 0, 104), (2, 2, 108)],
)
def test_full_pack_holds_every_physical_card_once(decks: int, jokers: int, size: int) -> None:
    pack = full_pack(decks, jokers)
    assert len(pack) == len(set(pack)) == size
    faces = [c.face for c in pack if not c.is_joker]
    assert len(set(faces)) == 52  # 4 suits x 13 ranks
    assert all(faces.count(f) == decks for f in set(faces))
    assert sum(c.is_joker for c in pack) == decks * jokers
