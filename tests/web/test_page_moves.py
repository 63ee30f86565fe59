"""What a page may send: a move in the engine's JSON form and the turn it was made on;
anything else is refused before the session sees it."""

from __future__ import annotations

import json

import pytest

from bot.rummy import Card, DrawStock
from bot.rummy.actions import Discard, Meld
from bot.rummy.errors import RummyError
from web.server import read_move


def test_a_page_s_moves_read_as_the_engine_s_actions() -> None:
    assert read_move('{"t": "move", "turn": 3, "move": {"type": "draw"}}') == (DrawStock(), 3)
    discard = {"t": "move", "turn": 4, "move": {"type": "discard", "card": "10h"}}
    assert read_move(json.dumps(discard)) == (Discard(Card.parse("10h")), 4)


def test_a_page_cannot_choose_how_its_cards_are_read() -> None:
    move = {"type": "meld", "cards": ["5h", "6h", "jk"], "reading": 0}
    action, _ = read_move(json.dumps({"t": "move", "turn": 1, "move": move}))
    assert action == Meld([Card.parse("5h"), Card.parse("6h"), Card.joker()])
    assert isinstance(action, Meld)
    assert action.reading is None


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '"move"',
        '{"t": "move", "turn": true, "move": {"type": "draw"}}',
        '{"t": "move", "turn": 1, "move": ["draw"]}',
        '{"t": "chat", "turn": 1, "move": {"type": "draw"}}',
        '{"t": "move", "move": {"type": "draw"}}',
        '{"t": "move", "turn": 1, "move": {"type": "fly"}}',
        '{"t": "move", "turn": 1, "move": {"type": "discard", "card": "11h"}}',
        '{"t": "move", "turn": 1, "move": {"type": "layoff", "cards": "5h", "meld": 1}}',
    ],
)
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises((ValueError, KeyError, TypeError, RummyError)):
        read_move(text)
