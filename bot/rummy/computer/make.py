"""Making a player of a level, and letting it choose in a worker process.

Players are small picklable objects holding no random generator of their own (one is
passed in), so :func:`choose_in_process` can send one out and bring it back with what it
learnt."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rummy.actions import Action
from bot.rummy.computer.easy import EasyPlayer
from bot.rummy.computer.hard import HardPlayer
from bot.rummy.computer.levels import DEFAULT_BUDGET, ComputerPlayer, Level
from bot.rummy.computer.normal import NormalPlayer
from bot.rummy.views import GameView


def make_player(level: Level | str, budget: float = DEFAULT_BUDGET) -> ComputerPlayer:
    """A fresh computer player of ``level`` (``budget``: seconds per move, hard level)."""
    match Level(level):
        case Level.EASY:
            return EasyPlayer()
        case Level.NORMAL:
            return NormalPlayer()
        case Level.HARD:
            return HardPlayer(budget=budget)


def choose_in_process(
    player: ComputerPlayer | Level | str,
    view: GameView,
    legal: Sequence[Action],
    seed: int,
    budget: float = DEFAULT_BUDGET,
) -> tuple[Action, ComputerPlayer]:
    """Choose in a worker process (submit it to a ``ProcessPoolExecutor``): everything goes
    in and comes back by pickling, so the player, with what it learnt, is returned with the
    action for the caller to keep. A level instead of a player makes a fresh one."""
    chosen = player if not isinstance(player, str) else make_player(player, budget)
    action = chosen.choose(view, list(legal), random.Random(seed))
    return action, chosen
