"""Cards named by their place in the hand as its owner is shown it (``/discard card:3``).

The hand picture numbers its cards 1…N and the hand text lists them in the same order, so
a bare number typed into a card option means the card at that place. The order is the one
the picture draws (:func:`rendering.hand.sorted_hand`); whoever shows a person their hand in
another order passes the same ``sort_by`` here, so a number always means what they saw.
A number next to a suit (``7 d``) stays a card, as the engine reads it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.i18n import DEFAULT_LOCALE, catalog
from bot.rummy import Card, CardParseError
from bot.sessions import Session
from cogs.ui import typed
from rendering.hand import sorted_hand

_NUMBER = re.compile(r"[0-9]{1,3}")
_BARE_SUIT = re.compile(r"[cdhs♣♦♥♠♧♢♡♤](?:#[0-9]+)?", re.IGNORECASE)
_SEPARATORS = re.compile(r"([\s,;]+)")


class NoSuchPosition(CardParseError):
    """A number typed for a card that is past the end of the hand (or zero)."""

    templates = catalog(DEFAULT_LOCALE)


def shown_hand(hand: Sequence[Card], sort_by: str = "suit") -> list[Card]:
    """The hand in the order its owner sees it numbered, first card first."""
    return sorted_hand(hand, sort_by)


def numbered(hand: Sequence[Card], sort_by: str = "suit") -> str:
    """``1 3♣ · 2 7♦ · 3 JK``: each card with the number a command may use for it."""
    return " · ".join(
        f"{n} {card.face_text}" for n, card in enumerate(shown_hand(hand, sort_by), 1)
    )


def card_at(hand: Sequence[Card], position: int, sort_by: str = "suit") -> Card:
    """The card at ``position`` (1-based) of the shown hand, or :class:`NoSuchPosition`."""
    cards = shown_hand(hand, sort_by)
    if not 1 <= position <= len(cards):
        raise NoSuchPosition(
            "refusal.card.position", token=str(position), position=position, count=len(cards)
        )
    return cards[position - 1]


def by_position(text: str, hand: Sequence[Card], sort_by: str = "suit") -> str:
    """``text`` with each bare number replaced by the card at that place of the shown hand,
    by its face like a typed card (of twins, the engine takes the copy the move allows);
    everything else as typed. A number followed by a lone suit (``7 d``) is a rank."""
    parts = _SEPARATORS.split(text)
    tokens = [i for i, part in enumerate(parts) if part and not _SEPARATORS.fullmatch(part)]
    for k, i in enumerate(tokens):
        if not _NUMBER.fullmatch(parts[i]):
            continue
        following = parts[tokens[k + 1]] if k + 1 < len(tokens) else ""
        if _BARE_SUIT.fullmatch(following):
            continue
        card = card_at(hand, int(parts[i]), sort_by)
        parts[i] = Card(card.rank, card.suit).code
    return "".join(parts)


def as_typed(text: str, session: Session, player: str, sort_by: str = "suit") -> str:
    """What ``player`` typed into a card option, each bare number made the card at that
    place of the hand they are shown (in their ``sort_by`` order)."""
    text = typed.clean(text)
    if not any(_NUMBER.fullmatch(part) for part in _SEPARATORS.split(text)):
        return text
    return by_position(text, session.view(player).hand, sort_by)
