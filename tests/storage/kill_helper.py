"""A bot stand-in for the crash test: plays one game through a session and acknowledges
every action on stdout only after it was committed.

    python -m tests.storage.kill_helper DB_PATH step|free

``step`` waits for a line on stdin after each acknowledgement, so the test can kill it at
an exact point; ``free`` plays on without waiting, so the kill lands anywhere, also inside
a commit. Started again on the same database it resumes the stored game.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.rummy import action_to_json, preset
from bot.rummy.players import random_action
from bot.sessions import SessionManager
from bot.storage import NewSeat

GUILD, CHANNEL = 1, 2
PLAYERS = [NewSeat.human(11, "Ann"), NewSeat.human(22, "Bob"), NewSeat.computer("Cpu")]


async def main(path: str, step: bool) -> None:
    manager = await SessionManager.open(path)
    try:
        await manager.load_active()
        session = manager.get(CHANNEL) or await manager.start(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=11,
            ruleset=preset("classic", target=10_000),
            seats=PLAYERS,
            seed=1234,
        )
        rng = random.Random(len(session.game.log))
        print("ready", session.game_id, len(session.game.log), flush=True)
        while not session.closed:
            game = session.game
            action = random_action(game, rng)
            event = await session.apply(game.current_player, action)
            print("ack", event.seq, json.dumps(action_to_json(action)), flush=True)
            if step:
                sys.stdin.readline()
    finally:
        await manager.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] == "step"))
