"""Russian and Czech players type cards the way their decks and tables name them."""

from __future__ import annotations

import pytest

from bot.rummy import CardParseError
from bot.rummy.cards import Card, Suit, parse_cards


def faces(text: str) -> list[str]:
    return [str(c) for c in parse_cards(text)]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        # Russian deck letters: В валет, Д дама, К король, Т туз; suits п т б ч or symbols
        ("В♥ Д♠ К♦ Т♣", ["J♥", "Q♠", "K♦", "A♣"]),
        ("Вч Дп Кб Тт", ["J♥", "Q♠", "K♦", "A♣"]),
        ("10ч 7п", ["10♥", "7♠"]),
        ("пД", ["Q♠"]),
        ("Дп#2", ["Q♠#2"]),
        # Russian names, in the forms said at a table
        ("туз пик", ["A♠"]),
        ("дама червей", ["Q♥"]),
        ("король треф", ["K♣"]),
        ("валет бубен", ["J♦"]),
        ("король крестей", ["K♣"]),
        ("пиковый туз", ["A♠"]),
        ("пиковая дама", ["Q♠"]),
        ("червонный валет", ["J♥"]),
        ("ТУЗ ПИК, 10 пик", ["A♠", "10♠"]),
        # Czech: kluk/spodek, dáma (D), král (K), eso (A); suits in full
        ("eso srdce", ["A♥"]),
        ("srdcové eso", ["A♥"]),
        ("král křížů", ["K♣"]),
        ("Kluk kár", ["J♦"]),
        ("spodek piky", ["J♠"]),
        ("piková dáma", ["Q♠"]),
        ("dama karova", ["Q♦"]),
        ("Dh", ["Q♥"]),
        ("7 trefy", ["7♣"]),
    ],
)
def test_russian_and_czech_spellings(typed: str, expected: list[str]) -> None:
    assert faces(typed) == expected


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        # what English players type keeps its meaning
        ("T♠", ["10♠"]),  # Latin T is the ten, Cyrillic Т the ace
        ("Т♠", ["A♠"]),
        ("D7 d7 7 D", ["7♦", "7♦", "7♦"]),  # d is diamonds wherever it was before
        ("dd", ["Q♦"]),
        ("as Ks 10h", ["A♠", "K♠", "10♥"]),
    ],
)
def test_english_readings_are_unchanged(typed: str, expected: list[str]) -> None:
    assert faces(typed) == expected


@pytest.mark.parametrize("typed", ["пикпик", "kluk", "кк", "дама", "srdce", "eso eso", "Ж♠"])
def test_what_names_no_single_card_is_refused(typed: str) -> None:
    with pytest.raises(CardParseError):
        parse_cards(typed)


def test_every_card_s_russian_letters_read_back() -> None:
    letters = {1: "Т", 11: "В", 12: "Д", 13: "К"}
    suits = {Suit.CLUBS: "т", Suit.DIAMONDS: "б", Suit.HEARTS: "ч", Suit.SPADES: "п"}
    for suit in Suit:
        for rank in range(1, 14):
            typed = letters.get(rank, str(rank)) + suits[suit]
            assert parse_cards(typed) == [Card(rank, suit)], typed
            assert parse_cards(f"{typed[:-1]}{suit.symbol}") == [Card(rank, suit)], typed
