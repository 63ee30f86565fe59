"""Seeded positions where a hint may be asked: games of every preset played by a simple
seeded policy, the game taken every few actions.

The policy is random, but it keeps its jokers as people do (it throws one only when nothing
else may go) and lays down a meld only now and then, so hands hold jokers, melds and loose
cards at once: the positions where a hint can go wrong. It is defined here, not by a
computer player, so the same seeds give the same positions whatever the players become
(the hint benchmark compares before and after on them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from bot.rummy import Action, Discard, Game, LayOff, Meld, SwapJoker, preset

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"must_discard_to_go_out": True}),
    ("parlett", 2, {}),
    ("parlett", 3, {"ace_high": True}),
    ("parlett", 4, {"two_decks": True}),
    ("500", 2, {"jokers": True}),
    ("500", 3, {"jokers": True, "limit_layoffs": True}),
    ("500", 4, {}),
]
"""Every preset, two to four players, with jokers wherever a preset allows them."""


def keeper_action(game: Game, rng: random.Random, eagerness: float = 0.3) -> Action:
    """A random legal action that plays a meld or lay-off with chance ``eagerness`` and
    throws a joker only when no other card may go."""
    legal = game.legal_actions()
    plays = [a for a in legal if isinstance(a, Meld | LayOff | SwapJoker)]
    if plays and rng.random() < eagerness:
        return rng.choice(plays)
    discards = [a for a in legal if isinstance(a, Discard)]
    naturals = [a for a in discards if not a.card.is_joker]
    if naturals:
        return rng.choice(naturals)
    rest = [a for a in legal if not isinstance(a, Meld | LayOff | SwapJoker)]
    return rng.choice(rest or legal)


def positions(
    name: str, players: int, seed: int, options: dict[str, Any], *, every: int, most: int
) -> Iterator[Game]:
    """The game every ``every`` actions (at most ``most`` positions) of one seeded game;
    the game itself, changing between yields."""
    game = Game.new(preset(name, **options), [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    found = 0
    step = 0
    while not game.is_over and found < most:
        if step % every == 0:
            found += 1
            yield game
        game.apply(keeper_action(game, rng))
        step += 1
