"""The two kinds of error the engine raises.

A :class:`PlayerError` is a person's mistake (text that is not a card, a move the rules
refuse, acting out of turn); its message is written to be shown to that person as is.
An :class:`InvariantError` is a bug in the engine and must be logged loudly, never shown as
if the player had done something wrong.
"""

from __future__ import annotations


class RummyError(Exception):
    """Base of every error the engine raises on purpose."""


class PlayerError(RummyError):
    """A mistake a person made; ``str(error)`` is a short message for them."""


class CardParseError(PlayerError, ValueError):
    """Text that does not name a card; ``token`` is the part that was not understood."""

    def __init__(self, token: str, message: str) -> None:
        super().__init__(message)
        self.token = token


class RulesError(PlayerError, ValueError):
    """Options that cannot be played together, or a player count the rules don't allow."""


class IllegalAction(PlayerError):
    """A well-formed action that the rules refuse in the current state."""


class NotYourTurn(IllegalAction):
    """An action by someone whose turn it is not; ``current`` is whose turn it is, for the
    caller to name in its own words (the engine knows players only by id)."""

    def __init__(self, message: str, current: str | None = None) -> None:
        super().__init__(message)
        self.current = current


class SnapshotError(RummyError):
    """Saved game data that cannot be loaded: damaged, from another program, or from a
    version this one does not read. Neither a player's mistake nor a bug in the engine."""


class InvariantError(RummyError):
    """A broken engine invariant: a bug, not a player's mistake."""
