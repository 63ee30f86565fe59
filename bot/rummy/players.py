"""A computer player that picks at random among the legal actions.

It exists to exercise the engine (property tests, benchmarks) and as the floor the
computer players of :mod:`bot.rummy.computer` are measured against. It prefers melding and
laying off to discarding, so rounds end by someone going out often enough to test scoring.
"""

from __future__ import annotations

import random

from bot.rummy.actions import Action, Discard, EndRound, LayOff, Meld, SwapJoker
from bot.rummy.game import Game


def random_action(game: Game, rng: random.Random, *, eagerness: float = 0.8) -> Action:
    """A random legal action for the player whose turn it is.

    With probability ``eagerness`` a meld, lay-off or swap is chosen when one exists;
    ending the round is chosen only when nothing else is possible or by a coin flip.
    """
    options = game.legal_actions()
    if not options:
        raise ValueError("no legal action: the game is over")
    plays = [a for a in options if isinstance(a, Meld | LayOff | SwapJoker)]
    if plays and rng.random() < eagerness:
        return rng.choice(plays)
    others = [a for a in options if not isinstance(a, Meld | LayOff | SwapJoker)]
    if not others:
        return rng.choice(options)
    enders = [a for a in others if isinstance(a, EndRound)]
    if enders and (len(others) == 1 or rng.random() < 0.5):
        return enders[0]
    rest = [a for a in others if not isinstance(a, EndRound)]
    discards = [a for a in rest if isinstance(a, Discard)]
    return rng.choice(discards or rest)


def play_random_game(game: Game, rng: random.Random, max_actions: int = 200_000) -> Game:
    """Play ``game`` to its end with random legal actions."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(random_action(game, rng))
    raise RuntimeError(f"game did not end within {max_actions} actions")
