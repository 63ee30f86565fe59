"""Small helpers for the rule-by-rule engine tests: rigged deals, refusal checks, views.

The helpers build situations from rules.md's description of the deal (the last seat deals
round 1, cards go out one at a time starting with seat 0, the next card is turned up, the
rest is the stock) and never from the engine's internals.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterator, Sequence
from functools import cache

import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    Ruleset,
    full_pack,
    parse_cards,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
HIGH_ACE = 14


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def _too_close(a: Card, b: Card) -> bool:
    """Whether a filler ``a`` could help ``b`` into a meld (same rank, or same suit within
    three places, counting the ace at both ends)."""
    if a.is_joker:
        return True
    if b.is_joker:  # fillers 4+ apart cannot be joined by the jokers of one pack
        return False
    if a.rank == b.rank:
        return True
    if a.suit != b.suit:
        return False
    ranks_a = {a.rank} | ({HIGH_ACE} if a.rank == 1 else set())
    ranks_b = {b.rank} | ({HIGH_ACE} if b.rank == 1 else set())
    return any(abs(x - y) <= 3 for x in ranks_a for y in ranks_b)


def rig(
    ruleset: Ruleset,
    hands: Sequence[str],
    upcard: str,
    stock: str = "",
) -> list[Card]:
    """The deck order that deals ``hands`` (seat order) in round 1, turns ``upcard`` up and
    leaves ``stock`` (top first) on top of the stock.

    A hand given shorter than the deal size is completed with filler cards that cannot
    meld with anything else in that hand (different ranks, same-suit cards 4+ apart).
    Twins in a two-deck game: a face named a second time is the second copy.
    """
    n = len(hands)
    size = ruleset.hand_size(n)
    pack = full_pack(ruleset.decks_for(n), ruleset.jokers_per_deck)
    free = list(pack)

    def take(c: Card) -> Card:
        pick = next((p for p in free if p.face == c.face and (c.copy == 0 or p == c)), None)
        assert pick is not None, f"the pack has no more {c}"
        free.remove(pick)
        return pick

    parsed = [[take(c) for c in parse_cards(h)] for h in hands]
    up = take(card(upcard))
    top = [take(c) for c in parse_cards(stock)]
    for hand in parsed:
        assert len(hand) <= size, f"a hand of {len(hand)} cards; the deal is {size}"
        while len(hand) < size:
            filler = next(
                (f for f in free if not f.is_joker and not any(_too_close(f, h) for h in hand)),
                None,
            )
            assert filler is not None, "no filler card fits this hand"
            free.remove(filler)
            hand.append(filler)
    order: list[Card] = []
    for k in range(size):  # round-robin, seat 0 first (the last seat deals round 1)
        for seat in range(n):
            order.append(parsed[seat][k])
    order.append(up)
    order.extend(top)
    return order


def new_game(
    ruleset: Ruleset,
    hands: Sequence[str],
    upcard: str,
    stock: str = "",
    seed: int = 1,
) -> Game:
    """A game whose first round is dealt as given; players are ann, bob, cat, ..."""
    deck = rig(ruleset, hands, upcard, stock)
    return Game.new(ruleset, list(NAMES[: len(hands)]), seed=seed, deck=deck)


def refused(
    game: Game, action: Action, player: str | None = None, error: type[Exception] = IllegalAction
) -> str:
    """Assert that ``action`` is refused (by apply, why_not and can) and changes nothing;
    return the refusal message."""
    before = game.to_json()
    assert game.why_not(action, player) is not None
    assert not game.can(action, player)
    with pytest.raises(error) as info:
        game.apply(action, player)
    assert game.to_json() == before
    message = str(info.value)
    assert message  # something to show the player
    return message


def pass_turn(game: Game) -> Card:
    """The current player draws from the stock and discards that very card."""
    game.apply(DrawStock())
    drawn = game.state.hands[game.state.current][-1]
    assert drawn in game.view(game.current_player).drawn
    game.apply(Discard(drawn))
    return drawn


def run_out_stock(game: Game) -> None:
    """Draw-and-discard the drawn card until the stock is empty (hands stay as dealt)."""
    round_no = game.round_no
    while game.state.stock:
        pass_turn(game)
        assert game.round_no == round_no


def cards_in(value: object) -> Iterator[Card]:
    """Every Card reachable from a view (dataclasses, tuples, lists, dicts)."""
    found: list[Card] = []
    _collect(value, found)
    return iter(found)


def _collect(value: object, found: list[Card]) -> None:
    """:func:`cards_in` into ``found``: one pass with no generator per level, since the
    property tests walk every view of every seat many times a game."""
    if isinstance(value, Card):
        found.append(value)
    elif isinstance(value, str | int | float | Ruleset) or value is None:
        return
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            _collect(item, found)
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect(k, found)
            _collect(v, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for name in _field_names(type(value)):
            _collect(getattr(value, name), found)


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass that may hold cards: all but those typed as numbers, text,
    flags or enums (or None)."""
    hints = typing.get_type_hints(kind)
    return tuple(f.name for f in dataclasses.fields(kind) if not _holds_no_cards(hints[f.name]))


def _holds_no_cards(hint: object) -> bool:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(_holds_no_cards(arg) for arg in typing.get_args(hint))
    plain = (int, str, bool, type(None))
    return hint in plain or (isinstance(hint, type) and issubclass(hint, enum.Enum))


# --- card values straight from the table in rules.md, for hand-derived expectations ------


def value_classic(c: Card, simple: bool = False) -> int:
    if c.rank >= 10:
        return 10
    return 5 if simple else c.rank


def value_parlett(c: Card, ace_high: bool = False) -> int:
    if c.is_joker:
        return 15
    if c.rank == 1:
        return 11 if ace_high else 1
    return 10 if c.rank >= 10 else c.rank
