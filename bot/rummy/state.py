"""Everything a game is, as one dataclass.

The game's behaviour lives in :class:`bot.rummy.game.Game`; what it remembers lives here,
in one place, so that saving, loading, copying and comparing games all walk the same list
of fields and none of them can forget one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from bot.rummy.actions import Action
from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld
from bot.rummy.rules import Ruleset
from bot.rummy.views import Phase, RoundResult

TOP: dict[str, Any] = {"top": True}
"""Field metadata: the field sits beside the ruleset in the saved form, not in "state"."""


def _json_name(name: str) -> dict[str, Any]:
    return {"json": name}


@dataclass(slots=True)
class GameState:
    """The complete state of a game: who plays by which rules, the cards wherever they
    lie, the facts of the current turn, finished rounds and the log of actions."""

    ruleset: Ruleset = field(metadata=TOP)
    players: tuple[str, ...] = field(metadata=TOP)
    seed: int = field(metadata=TOP)
    deck: tuple[Card, ...] | None = field(metadata=TOP)
    """The rigged top of the first round's deck, if any."""
    round_no: int = field(default=1, metadata=_json_name("round"))
    dealer: int = 0
    current: int = 0
    phase: Phase = Phase.DRAW
    turn: int = 0
    turns_completed: int = 0
    turnovers: int = 0
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    """The top card is the last one."""
    discard: list[Card] = field(default_factory=list)
    """The top card is the last one."""
    melds: list[TableMeld] = field(default_factory=list)
    next_meld_id: int = 1
    scores: list[int] = field(default_factory=list)
    has_melded: list[bool] = field(default_factory=list)
    no_discard: Card | None = None
    must_use: Card | None = None
    drawn: tuple[Card, ...] = ()
    layoff_cards: int = 0
    """Cards laid off (or swapped in) this turn, for the limit-lay-offs option."""
    rounds: list[RoundResult] = field(default_factory=list)
    winner_seats: tuple[int, ...] = field(default=(), metadata=_json_name("winners"))
    log: list[Action] = field(default_factory=list, metadata=TOP)

    def copy(self) -> GameState:
        """An independent copy. Cards, melds, results and actions are immutable, so only
        the lists that hold them (and the lists inside those) are copied."""
        values: dict[str, Any] = {f.name: _copied(getattr(self, f.name)) for f in fields(self)}
        return GameState(**values)


def _copied(value: object) -> object:
    if isinstance(value, list):
        return [list(v) if isinstance(v, list) else v for v in value]
    return value
