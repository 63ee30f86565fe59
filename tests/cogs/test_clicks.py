"""A click reaches its flow in two steps: the item's callback, then the flow the item's class
holds. No lookup stands between them, so each class's ``flow`` is the flow itself."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from cogs.flows.clicks import bind_clicks
from cogs.ui.items import (
    DYNAMIC_ITEMS,
    AgainButton,
    HandButton,
    LobbyButton,
    MoveButton,
    MoveSelect,
    WebButton,
    unbound,
)
from cogs.ui.seat_items import SeatButton


def test_every_button_and_menu_holds_the_flow_it_runs() -> None:
    bind_clicks()
    flows: dict[type[Any], Callable[..., Awaitable[None]]] = {
        LobbyButton: LobbyButton.flow,
        HandButton: HandButton.flow,
        MoveButton: MoveButton.flow,
        MoveSelect: MoveSelect.flow,
        SeatButton: SeatButton.flow,
        WebButton: WebButton.flow,
    }
    # Play again is bound by the rematch extension and clicked end to end in test_rematch.
    assert {*flows, AgainButton} == {*DYNAMIC_ITEMS, SeatButton}
    for item, flow in flows.items():
        assert flow is not unbound, item
        assert inspect.iscoroutinefunction(flow), item
        assert flow.__module__.startswith("cogs.flows."), (item, flow.__module__)
        assert "type(self).flow(" in inspect.getsource(item.callback), item
