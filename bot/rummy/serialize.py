"""A versioned JSON form of a game: the complete state plus the log, so a saved game loads
without replaying and can still be replayed to check it.

The form is derived from the fields of :class:`GameState` and their types, so a field added
to the state is saved and loaded without touching this module; a field missing from an
older save takes its default. Loading checks every type and then the cards themselves
(each card of the packs in exactly one place), and any damage raises
:class:`SnapshotError`: a damaged save must never pass for a game, nor fail as a bug.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any

from bot.rummy import cards
from bot.rummy.actions import Action, action_from_json, action_to_json
from bot.rummy.cards import Card, Suit, full_pack
from bot.rummy.errors import RummyError, SnapshotError
from bot.rummy.melds import PlacedCard, is_valid_meld
from bot.rummy.state import GameState

FORMAT = "rummy-game"
VERSION = 1
SUPPORTED_VERSIONS = frozenset({1})

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]
"""Turns JSON data into a value; the string is where the data sits, for the error."""


# --- values of one type --------------------------------------------------------------------


def card_from_code(code: str) -> Card:
    try:
        return cards.card_from_code(code)
    except RummyError as error:
        raise SnapshotError(f"no such card: {str(error)[:80]}") from None


def _expect(data: Any, kind: type | tuple[type, ...], path: str, what: str) -> None:
    if not isinstance(data, kind) or (isinstance(data, bool) and kind is int):
        raise SnapshotError(f"{path}: expected {what}, found {type(data).__name__}")


def _plain(kind: type, what: str) -> tuple[Encoder, Decoder]:
    def decode(data: Any, path: str) -> Any:
        _expect(data, kind, path, what)
        return data

    return (lambda value: value), decode


def _card_codec() -> tuple[Encoder, Decoder]:
    known = cards.cards_by_code()

    def decode(data: Any, path: str) -> Card:
        card = known.get(data) if isinstance(data, str) else None
        if card is not None:
            return card
        _expect(data, str, path, "a card code")
        try:
            return card_from_code(data)
        except SnapshotError as error:
            raise SnapshotError(f"{path}: {error}") from None

    return (lambda card: card.code), decode


_SUIT_BY_LETTER = {s.letter: s for s in Suit}


def _suit_from_letter(data: Any, path: str) -> Suit | None:
    if data is None:
        return None
    suit = _SUIT_BY_LETTER.get(data) if isinstance(data, str) else None
    if suit is None:
        raise SnapshotError(f"{path}: no such suit: {str(data)[:20]!r}")
    return suit


def _placed_codec() -> tuple[Encoder, Decoder]:
    """A placed card is saved as ``[code, rank, suit letter or null, placed by]``."""

    def encode(p: PlacedCard) -> list[Any]:
        return [p.card.code, p.rank, None if p.suit is None else p.suit.letter, p.placed_by]

    _, card = _card_codec()
    _, rank = _plain(int, "a rank")
    _, name = _plain(str, "a player")

    def decode(data: Any, path: str) -> PlacedCard:
        _expect(data, list, path, "a placed card")
        if len(data) != 4:
            raise SnapshotError(f"{path}: a placed card has four parts")
        code, at, suit, by = data
        return PlacedCard(
            card(code, path), rank(at, path), _suit_from_letter(suit, path), name(by, path)
        )

    return encode, decode


def _action_codec() -> tuple[Encoder, Decoder]:
    def decode(data: Any, path: str) -> Action:
        try:
            return action_from_json(data)
        except SnapshotError as error:
            raise SnapshotError(f"{path}: {error}") from None

    return action_to_json, decode


def _enum_codec(enum: type[Enum]) -> tuple[Encoder, Decoder]:
    def decode(data: Any, path: str) -> Enum:
        try:
            return enum(data)
        except (ValueError, TypeError):
            raise SnapshotError(f"{path}: not a {enum.__name__}: {str(data)[:20]!r}") from None

    return (lambda value: value.value), decode


def _optional_codec(inner: Any) -> tuple[Encoder, Decoder]:
    enc, dec = codec(inner)
    return (
        lambda value: None if value is None else enc(value),
        lambda data, path: None if data is None else dec(data, path),
    )


def _sequence_codec(inner: Any, make: Callable[[list[Any]], Any]) -> tuple[Encoder, Decoder]:
    enc, dec = codec(inner)

    def decode(data: Any, path: str) -> Any:
        _expect(data, list, path, "a list")
        return make([dec(item, f"{path}[{i}]") for i, item in enumerate(data)])

    return (lambda value: [enc(item) for item in value]), decode


def _dataclass_codec(cls: type) -> tuple[Encoder, Decoder]:
    """A dict of the fields (renamed by a field's ``json`` metadata); a field missing from
    the data takes its default, and the constructor's own checks still run."""
    hints = typing.get_type_hints(cls)
    parts = [
        (f.name, f.metadata.get("json", f.name), *codec(hints[f.name]), _has_default(f))
        for f in fields(cls)
        if f.init
    ]
    keys = {key for _, key, _, _, _ in parts}

    def encode(value: Any) -> dict[str, Any]:
        return {key: enc(getattr(value, name)) for name, key, enc, _, _ in parts}

    def decode(data: Any, path: str) -> Any:
        _expect(data, dict, path, "an object")
        unknown = set(data) - keys
        if unknown:
            raise SnapshotError(f"{path}: unknown fields {sorted(unknown)[:5]}"[:200])
        values = {}
        for name, key, _, dec, optional in parts:
            if key in data:
                values[name] = dec(data[key], f"{path}.{key}")
            elif not optional:
                raise SnapshotError(f"{path}: {key} is missing")
        try:
            return cls(**values)
        except (RummyError, ValueError, TypeError) as error:
            raise SnapshotError(f"{path}: {str(error)[:200]}") from None

    return encode, decode


def _has_default(f: Any) -> bool:
    return bool(f.default is not MISSING or f.default_factory is not MISSING)


@cache
def codec(tp: Any) -> tuple[Encoder, Decoder]:
    """The encoder and decoder of values of type ``tp``, built once per type."""
    if tp is bool:
        return _plain(bool, "true or false")
    if tp is int:
        return _plain(int, "a whole number")
    if tp is str:
        return _plain(str, "text")
    if tp is Card:
        return _card_codec()
    if tp is PlacedCard:
        return _placed_codec()
    if tp == Action:
        return _action_codec()
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1 and len(args) == 2:
            return _optional_codec(kinds[0])
    elif origin is list and len(args) == 1:
        return _sequence_codec(args[0], list)
    elif origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence_codec(args[0], tuple)
    elif isinstance(tp, type) and issubclass(tp, Enum):
        return _enum_codec(tp)
    elif isinstance(tp, type) and is_dataclass(tp):
        return _dataclass_codec(tp)
    raise TypeError(f"no JSON form for {tp!r}")


# --- the game --------------------------------------------------------------------------------


@cache
def _state_parts() -> list[tuple[str, str, bool, Encoder, Decoder, bool]]:
    """(field, key, at the top level, encoder, decoder, has a default) per state field."""
    hints = typing.get_type_hints(GameState)
    return [
        (
            f.name,
            f.metadata.get("json", f.name),
            bool(f.metadata.get("top")),
            *codec(hints[f.name]),
            _has_default(f),
        )
        for f in fields(GameState)
    ]


def state_to_dict(
    state: GameState, *, include_log: bool = True, log_json: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The saved form; ``log_json`` is the log already encoded (what the game keeps)."""
    top: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    inner: dict[str, Any] = {}
    for name, key, at_top, enc, _, _ in _state_parts():
        if name == "log":
            if not include_log:
                value = None
            elif log_json is not None:
                value = list(log_json)
            else:
                value = enc(state.log)
        else:
            value = enc(getattr(state, name))
        if not at_top:
            top.setdefault("state", inner)
        (top if at_top else inner)[key] = value
    return top


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def state_from_data(
    raw: str | bytes | dict[str, Any],
    log: Iterable[Action] | None = None,
    log_json: Sequence[dict[str, Any]] | None = None,
) -> tuple[GameState, list[dict[str, Any]]]:
    """The state saved in ``raw`` and its log in JSON form. A save without its log takes
    the log from ``log`` or ``log_json``. Raises :class:`SnapshotError` for damaged data."""
    try:
        return _state_from_data(raw, log, log_json)
    except SnapshotError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
        # Everything above checks types as it goes; this is the net under those checks.
        raise SnapshotError(f"the saved game is damaged: {type(e).__name__}") from None


def _state_from_data(
    raw: str | bytes | dict[str, Any],
    log: Iterable[Action] | None,
    log_json: Sequence[dict[str, Any]] | None,
) -> tuple[GameState, list[dict[str, Any]]]:
    data = raw if isinstance(raw, dict) else _loads(raw)
    if data.get("format") != FORMAT:
        raise SnapshotError("this is not a saved rummy game")
    version = data.get("version")
    if isinstance(version, bool) or version not in SUPPORTED_VERSIONS:
        raise SnapshotError(f"saved game version {str(version)[:20]} is not supported")
    inner = data.get("state")
    if not isinstance(inner, dict):
        raise SnapshotError("the saved game has no state")
    values: dict[str, Any] = {}
    stored_log: list[dict[str, Any]] = []
    for name, key, at_top, enc, dec, optional in _state_parts():
        source = data if at_top else inner
        if name == "log":
            values[name], stored_log = _log(source.get(key), log, log_json, enc, dec)
        elif key in source:
            values[name] = dec(source[key], key if at_top else f"state.{key}")
        elif not optional:
            raise SnapshotError(f"the saved game has no {key}")
    state = GameState(**values)
    check_state(state)
    return state, stored_log


def _loads(raw: str | bytes) -> dict[str, Any]:
    if not isinstance(raw, str | bytes):
        raise SnapshotError(f"a saved game is text, not {type(raw).__name__}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise SnapshotError("the saved game is not valid JSON") from None
    _expect(data, dict, "the saved game", "an object")
    return typing.cast(dict[str, Any], data)


def _log(
    stored: Any,
    log: Iterable[Action] | None,
    log_json: Sequence[dict[str, Any]] | None,
    enc: Encoder,
    dec: Decoder,
) -> tuple[list[Action], list[dict[str, Any]]]:
    if log is not None:
        actions = list(log)
        return actions, enc(actions)
    encoded = list(log_json) if log_json is not None else stored if stored is not None else []
    actions = dec(encoded, "log")
    return actions, encoded


def check_state(state: GameState) -> None:
    """Checks that hold in every state a game can reach, for data that comes from outside:
    one entry per seat, seats in range, and every card of the packs in exactly one place."""
    n = len(state.players)
    try:
        state.ruleset.check_players(n)
        pack = full_pack(state.ruleset.decks_for(n), state.ruleset.jokers_per_deck)
    except RummyError as error:
        raise SnapshotError(str(error)) from None
    if len(set(state.players)) != n:
        raise SnapshotError("a player sits at the table twice")
    for name in ("hands", "scores", "has_melded"):
        if len(getattr(state, name)) != n:
            raise SnapshotError(f"state.{name} does not have one entry per seat")
    seats = [state.current, state.dealer, *state.winner_seats]
    if any(not 0 <= seat < n for seat in seats):
        raise SnapshotError("a seat number is out of range")
    if state.round_no < 1 or min(state.turn, state.turns_completed, state.turnovers) < 0:
        raise SnapshotError("a counter is out of range")
    places = [*state.stock, *state.discard]
    for hand in state.hands:
        places += hand
    ids = [meld.id for meld in state.melds]
    if len(set(ids)) != len(ids) or any(not 0 < i < state.next_meld_id for i in ids):
        raise SnapshotError("meld numbers are out of order")
    for meld in state.melds:
        if not is_valid_meld(meld, state.ruleset):
            raise SnapshotError(f"meld #{meld.id} is no meld")
        places += [p.card for p in meld.cards]
    if len(places) != len(pack) or set(places) != set(pack):
        raise SnapshotError("the cards of the saved game are not exactly one set of packs")
    must_use = state.must_use
    if must_use is not None and must_use not in state.hands[state.current]:
        raise SnapshotError(f"{must_use} must be played but is not in the hand")
    if state.deck is not None and not set(state.deck) <= set(pack):
        raise SnapshotError("the rigged deck holds cards of no pack of this game")
