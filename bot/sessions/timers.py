"""The pace of turn timers: how long a timer's minute lasts."""

from __future__ import annotations

from dataclasses import dataclass

MISSED_LIMIT = 3
"""Turns in a row the timer plays for a person before a computer player takes their seat."""
STAND_IN_LEVEL = "normal"
"""The level of the computer player that takes an absent person's seat."""


@dataclass
class Timing:
    """``minute``: seconds a timer minute lasts (60; tests shrink it to run timers in
    seconds without offering people anything shorter than a minute)."""

    minute: float = 60.0
