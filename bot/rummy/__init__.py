"""The rules engine: pure Python, no I/O, no Discord, no Pillow.

>>> game = Game.new(preset("classic"), ["ann", "bob"], seed=7)
>>> game.current_player, len(game.hand("ann")), game.view("bob").stock_size
('ann', 13, 25)
"""

from bot.rummy.actions import (
    Action,
    Discard,
    DrawStock,
    EndRound,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
    action_from_json,
    action_to_json,
    parse_action,
    parse_group,
)
from bot.rummy.cards import Card, Suit, full_pack, parse_cards
from bot.rummy.errors import (
    CardParseError,
    IllegalAction,
    InvariantError,
    NotYourTurn,
    PlayerError,
    RulesError,
    RummyError,
    SnapshotError,
)
from bot.rummy.game import Game
from bot.rummy.melds import MeldKind, PlacedCard, Reading, Slot, TableMeld, layoff_readings
from bot.rummy.melds import readings as readings
from bot.rummy.rules import PRESETS, Ruleset, Scoring, StockOut, preset, preset_names
from bot.rummy.solver import Arrangement, Play, best_score, can_use_now, solve
from bot.rummy.state import GameState
from bot.rummy.views import GameView, Phase, RoundEnd, RoundResult, SeatView


def card_value(card: Card, ruleset: Ruleset) -> int:
    """The value of ``card`` left in a hand under ``ruleset``."""
    return ruleset.card_value(card)


__all__ = [
    "PRESETS",
    "Action",
    "Arrangement",
    "Card",
    "CardParseError",
    "Discard",
    "DrawStock",
    "EndRound",
    "Game",
    "GameState",
    "GameView",
    "IllegalAction",
    "InvariantError",
    "LayOff",
    "Meld",
    "MeldKind",
    "NotYourTurn",
    "Phase",
    "PlacedCard",
    "Play",
    "PlayerError",
    "Reading",
    "RoundEnd",
    "RoundResult",
    "RulesError",
    "Ruleset",
    "RummyError",
    "Scoring",
    "SeatView",
    "Slot",
    "SnapshotError",
    "StockOut",
    "Suit",
    "SwapJoker",
    "TableMeld",
    "TakeDiscard",
    "action_from_json",
    "action_to_json",
    "best_score",
    "can_use_now",
    "card_value",
    "full_pack",
    "layoff_readings",
    "parse_action",
    "parse_cards",
    "parse_group",
    "preset",
    "preset_names",
    "readings",
    "solve",
]
