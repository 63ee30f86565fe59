"""What a commit changes on Discord: which parts of a game's messages are now out of date,
which notices are due, and whose turn began. Bookkeeping only; nothing here waits."""

from __future__ import annotations

import time

from bot import sessions as s
from bot.i18n import t
from cogs import present
from cogs.display.game_messages import GameMessages

ACTIVE_FOR = 30.0
"""Seconds after a player's last click or command during which their turn starts quietly
(their hand is edited in place); after that, a fresh DM (or a channel ping) tells them."""


def note(board: GameMessages, event: s.Committed) -> None:
    """Take ``event`` as the newest state of the game and mark what it changed."""
    board.latest = event
    board.names = {seat.player_id: seat.display_name for seat in event.seats}
    board.users = {seat.player_id: seat.user_id for seat in event.seats if seat.user_id is not None}
    kind = event.kind
    if kind is s.EventKind.REMINDER or kind is s.EventKind.SEAT:
        _notice(board, event)
    elif kind is s.EventKind.LOBBY:
        board.dirty.add("lobby")
    elif kind is s.EventKind.STARTED:
        board.dirty.update({"lobby", "table"})
        board.dirty.update(f"hand:{p}" for p in board.users)
        _turn_changed(board, event)
    elif kind is s.EventKind.CANCELLED:
        board.dirty.update({"lobby", "table"} if board.table_message is None else {"table"})
        board.done = True
    else:
        _action(board, event)


def _action(board: GameMessages, event: s.Committed) -> None:
    view = event.views.get(None)
    if event.action is not None and event.actor is not None:
        actor_view = event.views.get(event.actor)
        name = board.names.get(event.actor, event.actor)
        said = present.move_text(name, event.action, actor_view, board.locale)
        if event.timed:
            said = f"{said} {t('timer.played_for', board.locale)}"
        board.moves.append(said)
    board.dirty.add("table")
    if event.actor is not None and event.actor in board.users:
        board.dirty.add(f"hand:{event.actor}")
    if event.rounds or event.status is not s.SessionStatus.ACTIVE:
        board.dirty.update(f"hand:{p}" for p in board.users)
        board.announcements.append(event)
        if event.rounds:
            board.moves.clear()
    if event.status is s.SessionStatus.FINISHED:
        board.done = True
    elif view is not None:
        _turn_changed(board, event)


def _notice(board: GameMessages, event: s.Committed) -> None:
    """A turn timer's reminder, or a seat handed to a computer player or taken back."""
    player = event.actor
    if player is None:
        return
    user_id = board.users.get(player)
    name = board.names.get(player, player)
    if event.kind is s.EventKind.REMINDER:
        if user_id is not None and event.deadline is not None:
            board.notices.append((player, "reminder", int(event.deadline.timestamp())))
        return
    seat = next((x for x in event.seats if x.player_id == player), None)
    held = seat is not None and seat.stand_in is not None
    board.notices.append((name, "replaced" if held else "back", 0))


def _turn_changed(board: GameMessages, event: s.Committed) -> None:
    view = event.views.get(None)
    if view is None or view.current is None or event.turn == board.turn:
        return
    board.turn = event.turn
    seat = next((x for x in event.seats if x.player_id == view.current), None)
    if seat is not None and seat.stand_in is not None:
        return  # a computer player plays this seat: its owner is away
    if view.current in board.users:
        board.dirty.add(f"hand:{view.current}")
        seen = board.active.get(view.current)
        if seen is None or time.monotonic() - seen > ACTIVE_FOR:
            board.notify = view.current
