"""The rank letters each language shows in autocomplete are ones the card parser reads back,
so a person can type what they were shown."""

from __future__ import annotations

import pytest

from bot.i18n import available_locales, t
from bot.rummy.cards import Card, Suit, parse_cards
from cogs.ui.present import card_text


@pytest.mark.parametrize("locale", sorted(available_locales()))
def test_every_card_shown_in_a_language_reads_back(locale: str) -> None:
    for suit in Suit:
        for rank in range(1, 14):
            card = Card(rank, suit)
            shown = card_text(card, locale)
            assert parse_cards(shown) == [card], (locale, shown)


def test_english_shows_the_faces_as_before() -> None:
    assert card_text(Card(12, Suit.SPADES), "en") == "Q♠" == card_text(Card(12, Suit.SPADES))
    assert card_text(Card(10, Suit.HEARTS), "fr") == "10♥"
    assert t("card.rank.q", "en") == "Q"
