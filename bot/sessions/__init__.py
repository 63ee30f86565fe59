"""Live tables: one session per channel, from the lobby to the last action.

The Discord layer reads a session (seats, names, views, legal actions), calls its
operations (``apply``, ``join``, ``leave``, ``kick``, ``add_computer``, ``start``,
``cancel``), and hears about every commit through listeners. Every refusal meant for a
person is a :class:`~bot.rummy.errors.PlayerError`.
"""

from bot.services.standings import League
from bot.sessions.computers import Brains
from bot.sessions.errors import (
    ChannelBusy,
    ErasureUnfinished,
    LobbyError,
    NoFreeSeat,
    NoGameHere,
    NotAllowed,
    NotSeated,
    SeatHeld,
    SessionClosed,
    SessionError,
    StaleAction,
)
from bot.sessions.events import Committed, EventKind, Listener, SessionStatus
from bot.sessions.manager import SessionManager
from bot.sessions.names import NAME_LIMIT, clean_name
from bot.sessions.restore import restore_game
from bot.sessions.services import Services
from bot.sessions.session import Session
from bot.storage import ForgetReport
from bot.values.seats import Seat, SeatKind

__all__ = [
    "NAME_LIMIT",
    "Brains",
    "ChannelBusy",
    "Committed",
    "ErasureUnfinished",
    "EventKind",
    "ForgetReport",
    "League",
    "Listener",
    "LobbyError",
    "NoFreeSeat",
    "NoGameHere",
    "NotAllowed",
    "NotSeated",
    "Seat",
    "SeatHeld",
    "SeatKind",
    "Services",
    "Session",
    "SessionClosed",
    "SessionError",
    "SessionManager",
    "SessionStatus",
    "StaleAction",
    "clean_name",
    "restore_game",
]
