"""The refusals a session gives a person, as message keys (their English texts are
:data:`~bot.sessions.refusals.SESSION_REFUSALS`).

They derive from the engine's :class:`~bot.rummy.errors.PlayerError`, so the Discord layer
has a single place that turns any person's mistake — a bad card, a move out of turn, a stale
button, a full table — into a short reply.
"""

from __future__ import annotations

from bot.rummy.errors import PlayerError
from bot.sessions.refusals import SESSION_REFUSALS


class SessionError(PlayerError):
    """A request about a table that cannot be served."""

    templates = SESSION_REFUSALS


class NoGameHere(SessionError):
    """No lobby or game lives in this channel."""


class ChannelBusy(SessionError):
    """A lobby or game already lives in this channel."""


class NotAllowed(SessionError):
    """Only the host or a moderator may do that."""


class NotSeated(SessionError):
    """The person is not at this table."""


class StaleAction(SessionError):
    """The button or menu was built for an earlier turn, or the game changed meanwhile."""


class SessionClosed(SessionError):
    """The game ended (finished, abandoned, cancelled or deleted) while the request waited."""


class LobbyError(SessionError):
    """A lobby operation that does not fit: a full table, joining twice, too few players,
    or a lobby operation once the cards are dealt."""


class NoFreeSeat(LobbyError):
    """Someone not seated asked to join a dealt game in which people hold every seat."""


class SeatHeld(SessionError):
    """A computer player holds the person's seat since they missed turns; the Take my seat
    back button (or ``/rummy join``) gives it back."""


class ErasureUnfinished(Exception):
    """A person's erasure ended their games in progress (``ended``), then the store refused
    the rest of it: their data is still stored, and asking again finishes it. Not the
    person's mistake, so no refusal: a failure whose answer must not say nothing changed."""

    def __init__(self, ended: tuple[int, ...]) -> None:
        super().__init__(f"games {ended} ended, the erasure itself not stored")
        self.ended = ended
