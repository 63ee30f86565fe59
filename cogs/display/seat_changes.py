"""Seats that change hands during a game, as the display shows them: a stand-in taking a
person's seat after missed turns (their hand DM says a computer plays for them, with a Take
my seat back button, and reaches them as a new message; with DMs closed they are pinged),
the person taking it back, a person leaving (their last hand DM says so, without controls),
and someone taking over a computer's seat (their hand comes like any player's).

The table's names mark the seats a computer plays in a person's place, so the picture and
the table text show who is not playing their own cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot import sessions as s
from bot.i18n import t
from bot.values.seats import Seat, SeatKind
from cogs.display.game_messages import GameMessages
from cogs.display.parts import hand_of
from cogs.ui.present import as_text
from cogs.ui.seat_items import SeatButton


def played_by_computer(seat: Seat) -> bool:
    """A person's seat a computer plays: a stand-in's, or a seat its person left."""
    return seat.stand_in is not None or (seat.kind is SeatKind.COMPUTER and seat.assisted)


def marked_names(seats: Sequence[Seat], loc: str) -> dict[str, str]:
    """Player id to the name the table shows: marked when a computer plays a person's seat
    (the mark comes first, so a name the picture shortens keeps it)."""
    return {
        seat.player_id: t("seat.computer_name", loc, name=seat.display_name)
        if played_by_computer(seat)
        else seat.display_name
        for seat in seats
    }


def seat_changed(
    messages: GameMessages,
    event: s.Committed,
    before_users: Mapping[str, int],
    before_names: Mapping[str, str],
) -> bool:
    """Note a seat that changed hands (``event`` of kind SEAT; ``before_*``: the players'
    people and names before it). Returns False when it is a stand-in taking the seat or the
    person taking it back, which the turn timer's notices tell as before."""
    player = event.actor
    seat = next((x for x in event.seats if x.player_id == player), None)
    if player is None or seat is None:
        return True
    loc = messages.locale
    previous = before_users.get(player)
    view = event.views.get(None)
    current = view is not None and view.current == player and not view.is_over
    if seat.kind is SeatKind.COMPUTER:
        # Left: the person's last hand message says so, without controls.
        messages.notices.append((t("seat.left", loc, name=as_text(seat.display_name)), "said", 0))
        if previous is not None:
            messages.released[player] = (previous, messages.hand_messages.get(player))
            _forget_hand(messages, player)
            messages.dirty.add(hand_of(player))
        return True
    if seat.stand_in is not None:
        messages.held_news.add(player)  # their hand DM comes anew: a computer plays for them
        messages.collapsed.discard(player)
        messages.dirty.add(hand_of(player))
        return False
    if previous == seat.user_id:
        messages.collapsed.discard(player)  # back: the hand message is live again
        messages.dirty.add(hand_of(player))
        if current:
            messages.notify = player
        return False
    # Taken over: a new person's hand, sent like any player's.
    old = before_names.get(player, seat.display_name)
    text = t("seat.taken", loc, name=as_text(seat.display_name), seat=as_text(old))
    messages.notices.append((text, "said", 0))
    _forget_hand(messages, player)
    messages.dirty.add(hand_of(player))
    if current:
        messages.notify = player
    return True


def _forget_hand(messages: GameMessages, player: str) -> None:
    """The seat's hand message belonged to someone else: the next one is a new message."""
    messages.hand_messages.pop(player, None)
    messages.hooks.pop(player, None)
    for kept in (messages.collapsed, messages.dm_closed, messages.told_closed, messages.news):
        kept.discard(player)


def held_seat(event: s.Committed | None, player: str) -> bool:
    """Whether a stand-in plays ``player``'s seat at ``event``."""
    if event is None:
        return False
    seat = next((x for x in event.seats if x.player_id == player), None)
    return seat is not None and seat.stand_in is not None


def held_hand(game_id: int, loc: str) -> tuple[str, discord.ui.View]:
    """The hand DM while a stand-in plays the seat: what happens, and Take my seat back."""
    view = discord.ui.View(timeout=None)
    view.add_item(SeatButton("back", game_id, t("button.take_back", loc)))
    return t("seat.held", loc), view
