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


def note(messages: GameMessages, event: s.Committed) -> None:
    """Take ``event`` as the newest state of the game and mark what it changed."""
    messages.latest = event
    messages.names = {seat.player_id: seat.display_name for seat in event.seats}
    messages.users = {
        seat.player_id: seat.user_id for seat in event.seats if seat.user_id is not None
    }
    kind = event.kind
    if kind is s.EventKind.REMINDER or kind is s.EventKind.SEAT:
        _notice(messages, event)
    elif kind is s.EventKind.LOBBY:
        messages.dirty.add("lobby")
    elif kind is s.EventKind.STARTED:
        messages.dirty.update({"lobby", "table"})
        messages.dirty.update(f"hand:{p}" for p in messages.users)
        _turn_changed(messages, event)
    elif kind is s.EventKind.CANCELLED:
        messages.dirty.update({"lobby", "table"} if messages.table_message is None else {"table"})
        messages.done = True
    else:
        _action(messages, event)


def _action(messages: GameMessages, event: s.Committed) -> None:
    view = event.views.get(None)
    if event.action is not None and event.actor is not None:
        actor_view = event.views.get(event.actor)
        name = messages.names.get(event.actor, event.actor)
        said = present.move_text(name, event.action, actor_view, messages.locale)
        if event.timed:
            said = f"{said} {t('timer.played_for', messages.locale)}"
        messages.moves.append(said)
    messages.dirty.add("table")
    if event.actor is not None and event.actor in messages.users:
        messages.dirty.add(f"hand:{event.actor}")
    if event.rounds or event.status is not s.SessionStatus.ACTIVE:
        messages.dirty.update(f"hand:{p}" for p in messages.users)
        messages.announcements.append(event)
        if event.rounds:
            messages.moves.clear()
    if event.status is s.SessionStatus.FINISHED:
        messages.done = True
    elif view is not None:
        _turn_changed(messages, event)


def _notice(messages: GameMessages, event: s.Committed) -> None:
    """A turn timer's reminder, or a seat handed to a computer player or taken back."""
    player = event.actor
    if player is None:
        return
    user_id = messages.users.get(player)
    name = messages.names.get(player, player)
    if event.kind is s.EventKind.REMINDER:
        if user_id is not None and event.deadline is not None:
            messages.notices.append((player, "reminder", int(event.deadline.timestamp())))
        return
    seat = next((x for x in event.seats if x.player_id == player), None)
    held = seat is not None and seat.stand_in is not None
    messages.notices.append((name, "replaced" if held else "back", 0))


def _turn_changed(messages: GameMessages, event: s.Committed) -> None:
    view = event.views.get(None)
    if view is None or view.current is None or event.turn == messages.turn:
        return
    messages.turn = event.turn
    seat = next((x for x in event.seats if x.player_id == view.current), None)
    if seat is not None and seat.stand_in is not None:
        return  # a computer player plays this seat: its owner is away
    if view.current in messages.users:
        messages.dirty.add(f"hand:{view.current}")
        seen = messages.active.get(view.current)
        if seen is None or time.monotonic() - seen > ACTIVE_FOR:
            messages.notify = view.current
