"""What every computer player is: a level and a ``choose`` among the legal actions.

Kept apart from the levels themselves so that the makers and the sessions can speak of "a
computer player" without importing a level's planner."""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from bot.rummy.actions import Action
from bot.rummy.views import GameView


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class ComputerPlayer(Protocol):
    level: Level

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action: ...


DEFAULT_BUDGET = 0.8
"""Seconds a hard player may think per move, unless told otherwise: the search stops at
95% of it, and what is left covers the last card it was weighing and the verdict, so a
move stays within a second."""
