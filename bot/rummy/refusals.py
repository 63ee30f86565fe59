"""The engine's refusals in English: message key -> text, and the values their texts show.

A refusal is raised as a key and named parameters (``IllegalAction("refusal.card.not_held",
card=Face(card))``), so the Discord layer can say it in the person's language; the engine
itself cannot read the catalogs (they live with Discord's translator), so its English texts
are kept here. ``bot/i18n/catalogs/en.json`` holds the same keys with the same text, which
the i18n tests check.

Parameters stay the engine's values until a message is built, so that each language can
show them its own way: a card, a meld, a number, and the few wrappers below that say how a
value is meant (a card by its face, several cards, readings to choose from).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Protocol

_CARD_HINT = "write cards like 10h, Qs, A♠, 7 D or JK"
_READING_HINT = "say what a joker stands for like JK=7♥ (JK=7 in a set), a high ace like A♠(high)"

REFUSALS: Mapping[str, str] = {
    # Text people type: cards, moves, readings.
    "refusal.card.no_copy": "'{token}' names no copy of a card",
    "refusal.card.not_held": "You don't hold {card}.",
    "refusal.card.not_held_count": "You don't hold {count} × {card}.",
    "refusal.card.one_only": "name one card, not {count}",
    "refusal.card.too_long": "that is far too long for a list of cards",
    "refusal.card.unknown": f"I don't understand '{{token}}': {_CARD_HINT}",
    "refusal.move.empty": "say what to do: draw, take, end, meld, layoff, swap or discard",
    "refusal.move.meld_number": "expected the meld's number, got '{text}'",
    "refusal.move.take_count": "expected how many cards to take, got '{text}'",
    "refusal.move.unknown": "unknown move '{move}'",
    "refusal.move.unknown_action": "That move is not one I know: {action}",
    "refusal.reading.ace_only": f"only an ace can be high: {_READING_HINT}",
    "refusal.reading.choose_number": (
        "There are {count} ways to read those cards; choose 1 to {count}."
    ),
    "refusal.reading.joker_only": f"only a joker stands for another card: {_READING_HINT}",
    "refusal.reading.joker_unsaid": f"say what each joker stands for: {_READING_HINT}",
    "refusal.reading.no_match": ("Those cards cannot be read that way. Choose one of: {choices}"),
    "refusal.reading.number": "the reading is a number from the list autocomplete offers",
    "refusal.reading.stands_for": f"'{{token}}': {_READING_HINT}",
    "refusal.reading.unknown": "I don't understand '{token}'",
    # Whose turn, and which part of it.
    "refusal.game.not_player": "{player} is not playing in this game.",
    "refusal.game.over": "The game is over.",
    "refusal.turn.draw_first": "Draw a card first: from the stock or the discard pile.",
    "refusal.turn.drawn": "You have already drawn this turn.",
    "refusal.turn.not_playing": "You are not playing in this game.",
    "refusal.turn.not_yours": "It is not your turn.",
    # Drawing and ending the round.
    "refusal.end.not_this_game": "In this game the round does not end on an empty stock.",
    "refusal.end.stock_left": "You may end the round only when the stock is empty.",
    "refusal.stock.empty": "The stock is empty: end the round.",
    "refusal.stock.empty_take": "The stock is empty: take the discard or end the round.",
    "refusal.take.empty": "The discard pile is empty.",
    "refusal.take.none": "Take at least one card.",
    "refusal.take.too_deep": "The discard pile has only {count} cards.",
    "refusal.take.top_only": "Only the top card of the discard pile may be taken.",
    "refusal.take.unusable": (
        "You could not meld or lay off {card} at once, so you may not take the pile down to it."
    ),
    # Melds, lay-offs, swaps and discards.
    "refusal.discard.just_taken": (
        "You took {card} from the discard pile this turn; discard another card."
    ),
    "refusal.layoff.before_meld": "You may lay off only after you have melded this round.",
    "refusal.layoff.no_cards": "Name the cards to lay off.",
    "refusal.layoff.no_fit": "{cards} cannot be laid off on meld {meld}.",
    "refusal.layoff.one_per_turn": "You may lay off only one card per turn.",
    "refusal.meld.invalid": (
        "{cards} is no meld: a run is three or more cards of one suit in sequence, a set"
        " three or four cards of one rank in different suits."
    ),
    "refusal.meld.jokers": "A meld needs at least as many natural cards as jokers.",
    "refusal.meld.missing": "There is no meld #{meld} on the table.",
    "refusal.meld.too_short": "A meld needs at least three cards.",
    "refusal.must_use.first": "First meld or lay off {card}, which you took.",
    "refusal.must_use.next": "Your next play must use {card}, which you took.",
    "refusal.play.holding_only": (
        "That would leave you holding only {card}, which you took from the"
        " discard pile and may not discard this turn."
    ),
    "refusal.play.keep_discard": (
        "You must keep a card to discard: going out needs a final discard here."
    ),
    "refusal.swap.no_joker": "Meld #{meld} has no joker.",
    "refusal.swap.not_this_game": "Jokers cannot be swapped out of melds in this game.",
    "refusal.swap.one_per_turn": "You may lay off only one card per turn, and a swap counts.",
    "refusal.swap.wrong_card": "{card} is not the card a joker in meld #{meld} stands for.",
    # Rules and options.
    "refusal.rules.aces": "aces cannot be '{value}' in this preset",
    "refusal.rules.deck_used_up": "the deck has no more {card} for this game",
    "refusal.rules.decks": "the game is played with one or two decks, not '{value}'",
    "refusal.rules.invalid": "{problems}",
    "refusal.rules.jokers": "jokers are played two per deck or not at all, not '{value}'",
    "refusal.rules.no_option": "{preset} has no option '{option}'; its options are: {options}",
    "refusal.rules.players": "{preset} needs {least} to {most} players, and this table has {count}",
    "refusal.rules.scoring": "this preset scores {allowed}, not {scoring}",
    "refusal.rules.seat_twice": "every player may sit at the table only once",
    "refusal.rules.target": "the target score must be a whole number, not '{value}'",
    "refusal.rules.unknown_fields": "unknown ruleset fields: {fields}",
    "refusal.rules.unknown_preset": "unknown preset '{name}': choose {presets}",
    "refusal.rules.unknown_scoring": "unknown scoring '{value}'",
    "refusal.rules.yes_no": "option '{option}' takes yes or no, not '{value}'",
    "refusal.rules.not_a_preset": "unknown preset '{name}'",
    "refusal.rules.empty_range": "the player range is empty",
    "refusal.rules.jokers_per_deck": "jokers are played two per deck or not at all",
    "refusal.rules.target_low": "the target score must be above zero",
    "refusal.rules.target_high": "the target score must be at most {most}",
    "refusal.rules.hand_scoring": "hand scoring belongs to Rummy 500",
    "refusal.rules.deep_turn_over": "the extended discard pile cannot be turned over as a stock",
}


class _Faced(Protocol):
    @property
    def face_text(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Face:
    """A card named by what it shows, whichever physical copy it is: ``10♥`` for either
    twin of a two-deck game (a card itself shows its copy, ``10♥#2``)."""

    card: _Faced

    def __str__(self) -> str:
        return self.card.face_text


@dataclass(frozen=True, slots=True)
class Cards:
    """Several cards (or faces) as the table shows them, one after another."""

    cards: tuple[object, ...]

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class Choices:
    """The readings a person may choose from, shown one after another."""

    options: tuple[object, ...]

    def __str__(self) -> str:
        return "; ".join(map(str, self.options))


@cache
def fields(text: str) -> frozenset[str]:
    """The parameter names a text uses (``"{player} has {count}"`` -> ``{"player", "count"}``)."""
    names: set[str] = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            names.add(field.split(".", 1)[0].split("[", 1)[0])
    return frozenset(names)
