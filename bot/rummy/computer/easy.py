"""The *easy* level: greedy and memoryless, choosing in microseconds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.rummy.actions import Action, DrawStock, EndRound, LayOff, Meld, TakeDiscard
from bot.rummy.cards import Card
from bot.rummy.computer.hands import _discards, _fits, _highest, _loose, _value
from bot.rummy.computer.levels import Level
from bot.rummy.melds import readings
from bot.rummy.views import GameView, Phase


@dataclass
class EasyPlayer:
    """Melds what it can (the biggest meld first), lays off what it can, and discards its
    highest card without a partner; takes the discard only when it makes a meld at once
    (in Rummy 500 also a card at most three deep, which the rules let it take only then)."""

    level: Level = Level.EASY

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        ruleset = view.ruleset
        if view.phase is Phase.DRAW:
            top = view.discard[-1] if view.discard else None
            if TakeDiscard(1) in legal and top is not None and _melds_at_once(top, view):
                return TakeDiscard(1)
            deep = [a for a in legal if isinstance(a, TakeDiscard) and 1 < a.depth <= 3]
            if deep:  # Rummy 500: a short dig that melds at once
                return min(deep, key=lambda a: a.depth)
            for kind in (DrawStock, EndRound):
                for action in legal:
                    if isinstance(action, kind):
                        return action
            return legal[0]
        melds = [a for a in legal if isinstance(a, Meld)]
        if melds:
            return max(
                melds, key=lambda m: (len(m.cards), sum(_value(c, ruleset) for c in m.cards))
            )
        layoffs = [a for a in legal if isinstance(a, LayOff)]
        if layoffs:
            return max(layoffs, key=lambda a: len(a.cards))
        discards = _discards(legal)
        if discards:
            return _highest(discards, ruleset, _loose(view.hand, ruleset))
        return legal[0]


def _melds_at_once(card: Card, view: GameView) -> bool:
    ruleset = view.ruleset
    for meld in view.melds:
        if _fits(card, meld, ruleset):
            return True
    near = [c for c in view.hand if c.is_joker or c.rank == card.rank or c.suit == card.suit]
    return any(readings((card, a, b), ruleset) for a, b in combinations(near, 2))
