"""A versioned JSON form of a game: the complete state plus the log, so a saved game loads
without replaying and can still be replayed to check it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from bot.rummy.actions import Action, action_from_json, action_to_json
from bot.rummy.cards import Card, Suit, full_pack
from bot.rummy.errors import RulesError
from bot.rummy.melds import MeldKind, PlacedCard, TableMeld
from bot.rummy.rules import Ruleset
from bot.rummy.views import Phase, RoundEnd, RoundResult

if TYPE_CHECKING:
    from bot.rummy.game import Game

FORMAT = "rummy-game"
VERSION = 1


@cache
def _cards_by_code() -> dict[str, Card]:
    return {c.code: c for c in full_pack(2, 2)}


def card_from_code(code: str) -> Card:
    card = _cards_by_code().get(code)
    return card if card is not None else Card.parse(code)


def _codes(cards: Any) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: list[str]) -> list[Card]:
    return [card_from_code(c) for c in codes]


_SUITS = {s.letter: s for s in Suit}


def _meld_to_dict(meld: TableMeld) -> dict[str, Any]:
    return {
        "id": meld.id,
        "owner": meld.owner,
        "kind": meld.kind.value,
        "cards": [
            [p.card.code, p.rank, None if p.suit is None else p.suit.letter, p.placed_by]
            for p in meld.cards
        ],
    }


def _meld_from_dict(data: dict[str, Any]) -> TableMeld:
    cards = tuple(
        PlacedCard(card_from_code(code), rank, None if suit is None else _SUITS[suit], by)
        for code, rank, suit, by in data["cards"]
    )
    return TableMeld(data["id"], data["owner"], MeldKind(data["kind"]), cards)


def _round_to_dict(r: RoundResult) -> dict[str, Any]:
    return {
        "round": r.round_no,
        "reason": r.reason.value,
        "ender": r.ender,
        "hands": [_codes(h) for h in r.hands],
        "hand_values": list(r.hand_values),
        "placed_values": list(r.placed_values),
        "points": list(r.points),
        "totals": list(r.totals),
    }


def _round_from_dict(d: dict[str, Any]) -> RoundResult:
    return RoundResult(
        round_no=d["round"],
        reason=RoundEnd(d["reason"]),
        ender=d["ender"],
        hands=tuple(tuple(_cards(h)) for h in d["hands"]),
        hand_values=tuple(d["hand_values"]),
        placed_values=tuple(d["placed_values"]),
        points=tuple(d["points"]),
        totals=tuple(d["totals"]),
    )


def game_to_dict(game: Game, *, include_log: bool = True) -> dict[str, Any]:
    def optional(card: Card | None) -> str | None:
        return None if card is None else card.code

    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.to_json(),
        "players": list(game.players),
        "seed": game.seed,
        "deck": None if game.deck is None else _codes(game.deck),
        "state": {
            "round": game.round_no,
            "dealer": game.dealer,
            "current": game.current,
            "phase": game.phase.value,
            "turn": game.turn,
            "turns_completed": game.turns_completed,
            "turnovers": game.turnovers,
            "hands": [_codes(h) for h in game.hands],
            "stock": _codes(game.stock),
            "discard": _codes(game.discard),
            "melds": [_meld_to_dict(m) for m in game.melds],
            "next_meld_id": game.next_meld_id,
            "scores": list(game.scores),
            "has_melded": list(game.has_melded),
            "no_discard": optional(game.no_discard),
            "must_use": optional(game.must_use),
            "drawn": _codes(game.drawn),
            "layoff_cards": game.layoff_cards,
            "rounds": [_round_to_dict(r) for r in game.rounds],
            "winners": list(game.winner_seats),
        },
        "log": list(game.log_json) if include_log else None,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def game_from_data(
    raw: str | bytes | dict[str, Any],
    log: Iterable[Action] | None = None,
    log_json: Sequence[dict[str, Any]] | None = None,
) -> Game:
    from bot.rummy.game import Game

    data: dict[str, Any] = raw if isinstance(raw, dict) else json.loads(raw)
    if data.get("format") != FORMAT:
        raise RulesError("this is not a saved rummy game")
    if data.get("version") != VERSION:
        raise RulesError(f"saved game version {data.get('version')} is not supported")
    ruleset = Ruleset.from_json(data["ruleset"])
    deck = None if data["deck"] is None else tuple(_cards(data["deck"]))
    game = Game(ruleset, data["players"], data["seed"], deck)
    s = data["state"]
    game.round_no = s["round"]
    game.dealer = s["dealer"]
    game.current = s["current"]
    game.phase = Phase(s["phase"])
    game.turn = s["turn"]
    game.turns_completed = s["turns_completed"]
    game.turnovers = s["turnovers"]
    game.hands = [_cards(h) for h in s["hands"]]
    game.stock = _cards(s["stock"])
    game.discard = _cards(s["discard"])
    game.melds = [_meld_from_dict(m) for m in s["melds"]]
    game.next_meld_id = s["next_meld_id"]
    game.scores = list(s["scores"])
    game.has_melded = list(s["has_melded"])
    game.no_discard = None if s["no_discard"] is None else card_from_code(s["no_discard"])
    game.must_use = None if s["must_use"] is None else card_from_code(s["must_use"])
    game.drawn = tuple(_cards(s["drawn"]))
    game.layoff_cards = s["layoff_cards"]
    game.rounds = [_round_from_dict(r) for r in s["rounds"]]
    game.winner_seats = tuple(s["winners"])
    if log is not None:
        game.log = list(log)
        game.log_json = [action_to_json(a) for a in game.log]
    else:
        if log_json is None:
            log_json = data["log"] or []
        game.log_json = list(log_json)
        game.log = [action_from_json(a) for a in game.log_json]
    return game
