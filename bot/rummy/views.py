"""What one player may know of a game, as an immutable value.

Rendering, direct messages and computer players read these views and never the game's raw
state, so a hidden card cannot leak by accident: a view holds the viewer's own hand, the
table, the visible part of the discard pile, counts of everything else, and the results of
finished rounds (hands are shown when a round is scored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.rummy.cards import Card
from bot.rummy.melds import TableMeld
from bot.rummy.rules import Ruleset


class Phase(StrEnum):
    DRAW = "draw"
    PLAY = "play"
    GAME_OVER = "game_over"


class RoundEnd(StrEnum):
    WENT_OUT = "went_out"
    ENDED = "ended"
    """A player ended the round on an empty stock."""
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what it scored; every per-player tuple is in seat order."""

    round_no: int = field(metadata={"json": "round"})
    reason: RoundEnd
    ender: str | None
    """Who went out or ended the round; None for a blocked round."""
    hands: tuple[tuple[Card, ...], ...]
    hand_values: tuple[int, ...]
    placed_values: tuple[int, ...]
    """Value of the cards each player put on the table this round (used by hand scoring)."""
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    player: str
    seat: int
    hand_size: int
    score: int
    is_dealer: bool
    is_current: bool
    has_melded: bool


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as seen by ``viewer`` (None: a spectator, who sees no hand)."""

    viewer: str | None
    ruleset: Ruleset
    seats: tuple[SeatView, ...]
    phase: Phase
    current: str | None
    """Whose turn it is; None once the game is over."""
    dealer: str
    round_no: int
    turn: int
    """Turns started in the whole game; buttons carry it so a stale click is refused."""
    turn_in_round: int
    hand: tuple[Card, ...]
    drawn: tuple[Card, ...]
    """Cards the viewer took this turn (to mark them in the hand picture)."""
    must_use: Card | None
    """A card the viewer took from deep in the pile and must meld or lay off now."""
    no_discard: Card | None
    """The card the viewer took from the top of the pile, which may not be discarded."""
    melds: tuple[TableMeld, ...]
    discard: tuple[Card, ...]
    """Visible discard cards, bottom first: the whole pile in Rummy 500, else the top card."""
    discard_size: int
    stock_size: int
    target: int
    rounds: tuple[RoundResult, ...]
    winners: tuple[str, ...]

    @property
    def last_round(self) -> RoundResult | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def seat_of_viewer(self) -> SeatView | None:
        return next((s for s in self.seats if s.player == self.viewer), None)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER
