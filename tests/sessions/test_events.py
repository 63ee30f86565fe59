"""What a commit tells its listeners is the table as committed: views, each player's legal
actions and the running turn's deadline, so a listener never reads the live session back."""

from __future__ import annotations

from bot.rummy import Discard, DrawStock, preset
from bot.sessions import Committed, EventKind, SessionManager
from tests.sessions.conftest import ANN, BOB, CHANNEL, GUILD
from tests.waiting import eventually


async def test_an_event_carries_each_players_legal_actions_and_the_new_turns_deadline(
    manager: SessionManager,
) -> None:
    heard: list[Committed] = []

    async def listener(event: Committed) -> None:
        heard.append(event)

    manager.add_listener(listener)
    session = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic"),
        seed=3,
        turn_timer=5,
    )
    lobby = await session.join(BOB, "Bob")
    assert lobby.legal == {}
    started = await session.start(ANN, moderator=False)
    first = session.view(None).current
    assert first is not None
    other = next(p for p in session.names if p != first)
    assert started.legal[first] == tuple(session.legal_actions(first))
    assert DrawStock() in started.legal[first]
    assert started.legal[other] == ()
    assert started.deadline is not None
    assert started.deadline == session.deadline
    drawn = await session.apply(first, DrawStock())
    assert drawn.legal[first] == tuple(session.legal_actions(first))
    assert DrawStock() not in drawn.legal[first]
    discard = next(a for a in drawn.legal[first] if isinstance(a, Discard))
    passed = await session.apply(first, discard)
    # The turn passed: the event names the new turn's deadline, not the one that ended.
    assert passed.deadline == session.deadline
    assert passed.deadline is not None
    assert drawn.deadline is not None
    assert passed.deadline > drawn.deadline
    assert passed.legal[first] == ()
    assert passed.legal[other] == tuple(session.legal_actions(other))
    await eventually(lambda: passed in heard)
    assert [e.kind for e in heard] == [
        EventKind.LOBBY,
        EventKind.STARTED,
        EventKind.ACTION,
        EventKind.ACTION,
    ]
    assert heard[-1] is passed
