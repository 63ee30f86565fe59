"""What the buttons and menus of :mod:`cogs.ui.items` do: the lobby's, the hand's and the
moves' flows, gathered for the extension that hands them to the items."""

from __future__ import annotations

from cogs.flows.lobby import lobby_button
from cogs.flows.moves import hand_move, hand_pick, show_hand_button
from cogs.ui.items import Clicks

CLICKS = Clicks(lobby=lobby_button, show_hand=show_hand_button, move=hand_move, pick=hand_pick)
"""What the buttons and menus of ``cogs.ui.items`` do."""
