"""What listeners hear after each commit: one frozen record of the table as committed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot.rummy import Action, GameView, RoundResult, Ruleset
from bot.storage.models import GameStatus
from bot.values.seats import Seat


class SessionStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    """Stopped without a result: a dealt game abandoned, or a lobby cancelled."""

    @classmethod
    def of(cls, status: GameStatus) -> SessionStatus:
        if status is GameStatus.CANCELLED:
            return cls.ABANDONED
        return cls(status.value)


class EventKind(StrEnum):
    LOBBY = "lobby"
    """Someone joined, left or was kicked, a computer was added, or the host changed."""
    STARTED = "started"
    """The deal happened (lobby to game)."""
    ACTION = "action"
    """A game action was committed (also the one that ended the game: status FINISHED)."""
    FINISHED = "finished"
    """Reserved for a game ended by other means than an action; actions use ACTION."""
    CANCELLED = "cancelled"
    """The lobby was cancelled or the game abandoned."""
    REMINDER = "reminder"
    """Half of the turn timer has passed (``actor``: whose turn it is); nothing changed."""
    SEAT = "seat"
    """A person's seat was handed to a computer player after missed turns (``actor``;
    ``Seat.stand_in`` set), or taken back by the person (``stand_in`` cleared); or, in a
    running game, its person left (the seat is a computer's now) or someone took over a
    computer's seat (a person's now, the engine's player id unchanged)."""


@dataclass(frozen=True, slots=True)
class Committed:
    """One committed change of a table, as it stood right after the commit.

    Everything here is frozen, so a listener that runs late (after later commits) still
    shows the table as it was at this commit, and nothing it does can change the game.
    """

    game_id: int
    guild_id: int
    channel_id: int
    kind: EventKind
    status: SessionStatus
    actor: str | None
    """Engine player id of who did it (``"123…"`` for a person, ``"cpu-1"``); None when
    nobody at the table did (a deletion request, a game ended elsewhere)."""
    action: Action | None
    seq: int
    """Length of the game's action log after this commit (0 before the deal)."""
    turn: int
    """``GameView.turn`` as of this commit (0 in the lobby)."""
    rounds: tuple[RoundResult, ...]
    """The rounds this action ended (usually none, at most one)."""
    seats: tuple[Seat, ...]
    views: Mapping[str | None, GameView]
    """Per player id, and None for spectators; empty in the lobby."""
    host_id: int | None
    ruleset: Ruleset
    turn_timer: int = 0
    """Minutes a person's turn may take at this table (0: no timer)."""
    open_seats: bool = False
    """People not seated may take over the computer players the host added."""
    timed: bool = False
    """The action was played by the turn timer for an absent person."""
    deadline: datetime | None = None
    """When the turn now running runs out (None: no timer runs)."""
    legal: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)
    """Per seated player id, what they may do after this commit (empty when nothing: not
    their turn, before the deal, after the end); what a hand message's menus offer."""
    lobby_channel_id: int | None = None
    """The text channel of the lobby message when the game lives in a thread started from
    it (``channel_id`` is the thread); None when it plays where its lobby is."""
    expired_after: int = 0
    """With CANCELLED: the lobby closed itself after these minutes without activity (0: a
    person or a deletion ended it)."""

    def view(self, player: str | None) -> GameView | None:
        """The table as ``player`` saw it at this commit (a spectator's view for anyone not
        seated); None in the lobby."""
        return self.views.get(player) or self.views.get(None)


Listener = Callable[[Committed], Awaitable[None]]
