"""What a seat another player takes over needs: the safe move and catching up.

A turn timer plays :func:`safe_action` for someone absent, and a computer player made in the
middle of a game (after a restart, or to stand in for that person) first learns the round
so far with :func:`catch_up`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rummy.actions import Action, DrawStock, EndRound, TakeDiscard
from bot.rummy.computer.hands import _discards, _highest
from bot.rummy.computer.levels import ComputerPlayer
from bot.rummy.game import Game
from bot.rummy.solver import solve
from bot.rummy.views import GameView


def safe_action(view: GameView, legal: Sequence[Action]) -> Action:
    """The move a turn timer plays for an absent player: draw from the stock (else take the
    discard, else end the round), then discard the highest card that is in no meld of the
    hand's best arrangement. Called once per action, like a player."""
    if not legal:
        raise ValueError("no legal action")
    for kind in (DrawStock, TakeDiscard, EndRound):
        for action in legal:
            if type(action) is kind and (kind is not TakeDiscard or action == TakeDiscard(1)):
                return action
    discards = _discards(legal)
    if discards:
        left = solve(view.hand, view.ruleset, view.melds).left
        return _highest(discards, view.ruleset, left)
    return legal[0]


def catch_up(player: ComputerPlayer, game: Game, seat: str) -> None:
    """Teach ``player``, made in the middle of ``game`` (after a restart, or to stand in
    for someone absent), what it would have learnt had it held ``seat`` since the round
    began: the round is replayed from the log and the player shown the same views in the
    same order as a seated player (each of its own moves as a choice among that move
    alone, so it remembers its discards too)."""
    observe_view = getattr(player, "observe", None)
    if observe_view is None:
        return  # it learns nothing between moves
    watched = Game.new(game.ruleset, game.players, seed=game.seed, deck=game.state.deck)
    rng = random.Random(0)
    for action in game.log:
        watching = watched.round_no == game.round_no
        if watching and watched.current_player == seat:
            player.choose(watched.view(seat), [action], rng)
        watched.apply(action)
        if watching and watched.current_player != seat:
            observe_view(watched.view(seat))
