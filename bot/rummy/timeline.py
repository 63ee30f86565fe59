"""A game retold turn by turn, as the table showed it to everyone: what a replay is made of.

The game is replayed from its seed, its rigged deck (if any) and its log, and a spectator's
view is kept at each moment people saw: the deal, the end of every turn, each round's
scoring and the end of the game. Spectator views hold no hand, so a replay shows what the
channel saw and nothing more (the hands left at the end of each round are in its results,
as the round summaries showed them).

A round ends inside the action that ends it (the engine scores it and deals the next one at
once), so the table of that last turn is the one just before its last action: the player's
draw and melds are on it, and the round's result says how it ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rummy.actions import Discard
from bot.rummy.errors import InvariantError
from bot.rummy.game import Game
from bot.rummy.views import GameView, Phase, RoundResult


class MomentKind(StrEnum):
    DEAL = "deal"
    """A round's cards were just dealt."""
    TURN = "turn"
    """A player's turn is over (or a round is about to end in it)."""
    ROUND_OVER = "round_over"
    """A round was scored (``result``), and the game goes on."""
    GAME_OVER = "game_over"
    """The table when the game ended (the last round's melds are still on it)."""
    FINAL_SCORES = "final_scores"
    """The last round's scoring with the final totals (``result``)."""


@dataclass(frozen=True, slots=True)
class Moment:
    kind: MomentKind
    view: GameView
    """What a spectator saw then (no hand)."""
    result: RoundResult | None = None
    """The round just scored, for ``ROUND_OVER`` and ``FINAL_SCORES``."""


def timeline(game: Game) -> tuple[Moment, ...]:
    """Every moment of a finished ``game``, in order.

    Raises :class:`InvariantError` if ``game`` is not over, or if replaying its log does not
    give the same game back (a replay must never show another game than the one played).
    """
    if not game.is_over:
        raise InvariantError("only a finished game can be retold")
    again = Game.new(game.ruleset, game.players, seed=game.seed, deck=game.state.deck)
    moments = [Moment(MomentKind.DEAL, again.view(None))]
    for action in game.log:
        before = again.view(None)
        rounds = len(again.rounds)
        again.apply(action)
        if len(again.rounds) > rounds:
            result = again.rounds[-1]
            if again.is_over:
                view = again.view(None)
                moments.append(Moment(MomentKind.GAME_OVER, view))
                moments.append(Moment(MomentKind.FINAL_SCORES, view, result))
                break
            if before.phase is Phase.PLAY:  # the player did something before the end
                moments.append(Moment(MomentKind.TURN, before))
            after = again.view(None)
            moments.append(Moment(MomentKind.ROUND_OVER, after, result))
            moments.append(Moment(MomentKind.DEAL, after))
        elif isinstance(action, Discard):
            moments.append(Moment(MomentKind.TURN, again.view(None)))
    if again != game:
        raise InvariantError("replaying the log did not give the same game back")
    return tuple(moments)


def turns(moments: tuple[Moment, ...]) -> int:
    """How many turn moments there are (what a replay shows one frame each of)."""
    return sum(1 for m in moments if m.kind is MomentKind.TURN)
