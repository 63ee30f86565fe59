"""One way to write a card in every language, the way the pictures draw it (``Q♠``): the
hand, the table, autocomplete and the help's examples all write it so, and it reads back;
the other spellings the help offers are read when typed, and a high ace is marked in the
reader's words and read back too."""

from __future__ import annotations

import re

import pytest

from bot.i18n import available_locales, t
from bot.rummy import Meld, preset
from bot.rummy.cards import Card, Suit, parse_cards
from bot.rummy.errors import IllegalAction
from bot.rummy.melds import readings
from bot.rummy.refusals import Choices
from cogs.ui import help, typed
from cogs.ui.present import card_text, reading_text
from cogs.ui.replies import error_text

LOCALES = sorted(available_locales())
_CARD = re.compile(r"(?<![\w=])(?:10|[2-9JQKA])[♣♦♥♠](?![\w])")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_is_written_as_the_picture_draws_it_and_reads_back(locale: str) -> None:
    for suit in Suit:
        for rank in range(1, 14):
            card = Card(rank, suit)
            assert card_text(card) == card.face_text
            assert parse_cards(card_text(card)) == [card]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_help_writes_cards_as_the_pictures_and_its_other_spellings_read(locale: str) -> None:
    text = "\n".join(help.help_messages(preset("parlett"), locale))
    shown = _CARD.findall(text)
    assert shown, text
    for token in shown:
        assert card_text(parse_cards(token)[0]) == token
    offered = t("help.cards", locale).rsplit(":", 1)[1]
    typed_forms = [
        re.sub(r"\s*\(.*\)$", "", part.strip(" .\u00a0"))  # a gloss such as (дама пик)
        for part in re.split(r",|\s(?:or|ou)\s", offered)
    ]
    assert len(typed_forms) >= 4, offered
    for form in typed_forms:
        assert len(parse_cards(form)) == 1, (locale, form)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_high_ace_is_marked_in_the_reader_s_words_and_read_back(locale: str) -> None:
    cards = tuple(parse_cards("Qs Ks As"))
    (high,) = [r for r in readings(cards, preset("500")) if "(high)" in reading_text(r)]
    shown = reading_text(high, locale)
    assert shown.endswith("A♠" + t("card.high", locale))
    if locale != "en":
        assert "(high)" not in shown
    action = typed.meld_action(shown)
    assert isinstance(action, Meld)
    assert str(action) == "meld Q♠ K♠ A♠(high)"
    assert typed.meld_action(shown.replace("A♠", "A♠ ")) == action


CARD_LETTERS = {*"JQKA", *"ВДКТ", "D", *"0123456789"}
"""Letters a card is written or typed with (Russian В Д К Т and the Czech dáma too)."""


@pytest.mark.parametrize("locale", LOCALES)
def test_a_badge_shrunk_to_its_letter_is_no_card_s_letter_nor_another_badge(locale: str) -> None:
    letters = [t(f"picture.mark.{mark}", locale)[0] for mark in ("new", "keep", "use")]
    assert len(set(letters)) == len(letters), letters
    assert not set(letters) & CARD_LETTERS, letters


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_offering_readings_marks_the_high_ace_in_the_reader_s_words(
    locale: str,
) -> None:
    ruleset = preset("500")
    options = readings(tuple(parse_cards("Qs Ks As")), ruleset)
    said = error_text(
        IllegalAction("refusal.reading.no_match", choices=Choices(tuple(options))), locale
    )
    assert "A♠" + t("card.high", locale) in said, said
    if locale != "en":
        assert "(high)" not in said, said
