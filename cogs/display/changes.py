"""What a commit changes on Discord: which parts of a game's messages are now out of date,
which notices are due, and whose turn began. Bookkeeping only; nothing here waits.

The table is shown again once a turn is over, not after each of its moves: people watching
need one picture a turn, and every edit costs a call under Discord's global rate limit. A
hand is shown again when its owner's turn begins (a new message: the one notification of
the turn), after each of their moves, whatever path it took (tidied to one line once the
turn is over; within the turn, the next moves' controls, which a move from the hand's own
controls shows through its interaction, and another path's move only where that is free:
see ``Hands.show``) and when a round ends.
"""

from __future__ import annotations

from bot import sessions as s
from cogs.display.game_messages import GameMessages, TurnNote
from cogs.display.parts import LOBBY, TABLE, hand_of
from cogs.display.seat_changes import marked_names, seat_changed
from cogs.ui import present


def note(messages: GameMessages, event: s.Committed) -> None:
    """Take ``event`` as the newest state of the game and mark what it changed."""
    messages.latest = event
    before_users, before_names = messages.users, messages.names
    messages.names = marked_names(event.seats, messages.locale)
    messages.users = {
        seat.player_id: seat.user_id for seat in event.seats if seat.user_id is not None
    }
    kind = event.kind
    if kind is not s.EventKind.ACTION:
        messages.within_turn.clear()
    if kind is s.EventKind.SEAT and seat_changed(messages, event, before_users, before_names):
        messages.dirty.add(TABLE)
    elif kind is s.EventKind.REMINDER or kind is s.EventKind.SEAT:
        if kind is s.EventKind.SEAT:
            messages.dirty.add(TABLE)  # the marks of the seats a computer plays
        _notice(messages, event)
    elif kind is s.EventKind.LOBBY:
        messages.dirty.add(LOBBY)
    elif kind is s.EventKind.STARTED:
        messages.dirty.update({LOBBY, TABLE})
        messages.dirty.update(hand_of(p) for p in messages.users)
        _turn_changed(messages, event)
    elif kind is s.EventKind.CANCELLED:
        # The lobby message says it too, and the hands lose their controls (``Hands.show``).
        messages.dirty.update({LOBBY, TABLE})
        messages.dirty.update(
            hand_of(p) for p in {*messages.hand_messages, *messages.private_hands}
        )
        messages.done = True
    else:
        _action(messages, event)


def _action(messages: GameMessages, event: s.Committed) -> None:
    view = event.views.get(None)
    actor = event.actor
    live = event.status is s.SessionStatus.ACTIVE
    over = bool(event.rounds) or not live or view is None or view.current != actor
    if event.action is not None and actor is not None:
        messages.note_move(actor, (event.action, event.views.get(actor), event.timed))
        if over:
            messages.close_turn(actor)
            messages.within_turn.discard(actor)
        else:
            messages.within_turn.add(actor)
        if actor in messages.users:
            # Tidied once the turn is over; within it, the next moves' controls, whatever
            # path the move took (a move from the DM shows them itself: it claims its hand).
            messages.dirty.add(hand_of(actor))
    if over:
        messages.dirty.add(TABLE)
    players = tuple(seat.player_id for seat in sorted(event.seats, key=lambda x: x.seat))
    for result in event.rounds:
        messages.notes.append(TurnNote(result.ender or "", result=result, players=players))
    if event.rounds or not live:
        messages.dirty.update(hand_of(p) for p in messages.users)
        messages.news.update(messages.users)
        messages.announcements.append(event)
        messages.repost_table = live and bool(event.rounds)
    if event.status is s.SessionStatus.FINISHED:
        messages.done = True
        messages.ending.update(messages.users)  # the end reaches everyone: a new message
    elif over:
        _turn_changed(messages, event)
    else:
        messages.turn = (
            event.turn
        )  # a move within the turn (or the first one heard after a restart)


def _notice(messages: GameMessages, event: s.Committed) -> None:
    """A turn timer's reminder, or a seat handed to a computer player or taken back."""
    player = event.actor
    if player is None:
        return
    user_id = messages.users.get(player)
    name = present.name_of(player, messages.names)
    if event.kind is s.EventKind.REMINDER:
        if user_id is not None and event.deadline is not None:
            messages.notices.append((player, "reminder", int(event.deadline.timestamp())))
        return
    seat = next((x for x in event.seats if x.player_id == player), None)
    held = seat is not None and seat.stand_in is not None
    name = name if seat is None else seat.display_name  # (without the computer's mark)
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
        messages.dirty.add(hand_of(view.current))
        messages.notify = view.current
