"""Which flow each button and menu of :mod:`cogs.ui` runs: the lobby's, the hand's, the
moves' and the seats'. The items cannot import their flows (the flows build rows of them), so
the play extension binds them here when it loads, through each class's typed ``flow``."""

from __future__ import annotations

from cogs.flows.lobby import lobby_button
from cogs.flows.moves import hand_move, hand_pick, show_hand_button
from cogs.flows.seat_flows import seat_button
from cogs.flows.web_links import web_button
from cogs.ui.items import HandButton, LobbyButton, MoveButton, MoveSelect, WebButton
from cogs.ui.seat_items import SeatButton


def bind_clicks() -> None:
    """A click is then two steps: the item's callback, and the flow bound here."""
    LobbyButton.flow = lobby_button
    HandButton.flow = show_hand_button
    MoveButton.flow = hand_move
    MoveSelect.flow = hand_pick
    SeatButton.flow = seat_button
    WebButton.flow = web_button
