"""A bot stand-in for the crash tests: acknowledges on stdout only what was committed.

    python -m tests.sessions.kill_helper DB_PATH step|free|lobby

``step`` plays one game and waits for a line on stdin after each acknowledgement, so the
test can kill it at an exact point; ``free`` plays on without waiting, so the kill lands
anywhere, also inside a commit. Started again on the same database it resumes the stored
game. ``lobby`` opens a lobby, seats people and a computer, acknowledges each step and then
waits to be killed before any deal.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.rummy import action_to_json, preset
from bot.rummy.players import random_action
from bot.sessions import Session, SessionManager

GUILD, CHANNEL = 1, 2
ANN, BOB, CAT = 11, 22, 33


async def dealt(manager: SessionManager) -> Session:
    lobby = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic", target=10_000),
        seed=1234,
    )
    await lobby.join(BOB, "Bob")
    await lobby.add_computer(ANN, "normal", moderator=False)
    await lobby.start(ANN, moderator=False)
    return lobby


async def play(manager: SessionManager, step: bool) -> None:
    session = manager.get(CHANNEL) or await dealt(manager)
    game = session.game
    assert game is not None
    rng = random.Random(len(game.log))
    print("ready", session.game_id, len(game.log), flush=True)
    while not session.closed:
        game = session.game
        assert game is not None
        action = random_action(game, rng)
        event = await session.apply(game.current_player or "", action, turn=session.turn)
        committed = session.game
        assert committed is not None
        applied = committed.log[-1]  # the action as the engine logged it (copies resolved)
        print("ack", event.seq, json.dumps(action_to_json(applied)), flush=True)
        if step:
            sys.stdin.readline()


async def lobby(manager: SessionManager) -> None:
    session = await manager.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        host_name="Ann",
        ruleset=preset("classic"),
        seed=99,
    )
    print("ready", session.game_id, 0, flush=True)
    steps = [
        session.join(BOB, "Bob"),
        session.add_computer(ANN, "hard", moderator=False),
        session.join(CAT, "Cat"),
        session.leave(ANN),
    ]
    for number, step in enumerate(steps, start=1):
        event = await step
        seats = [[s.player_id, s.display_name, s.level] for s in event.seats]
        print("ack", number, json.dumps({"host": event.host_id, "seats": seats}), flush=True)
    await asyncio.Event().wait()  # until killed


async def main(path: str, mode: str) -> None:
    manager = await SessionManager.open(path)
    try:
        await manager.load_active()
        if mode == "lobby":
            await lobby(manager)
        else:
            await play(manager, mode == "step")
    finally:
        await manager.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
