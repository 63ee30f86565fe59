"""``python -m bot`` on a machine whose clock is ten minutes off: the game a process with a
right clock stopped in the middle of a timed turn is taken up with the time the turn had
left, so the person plays it; the timer does not play it at once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_process import bot_env, running_bot, start_game, tables, with_button
from tests.waiting import eventually


@pytest.mark.both_backends
async def test_a_process_whose_clock_is_ahead_leaves_the_turn_to_its_player(
    fake: FakeDiscord, tmp_path: Path, db_path: Path | str
) -> None:
    guild, channel, users, env = bot_env(fake, tmp_path, db_path)
    log = tmp_path / "bot.log"
    with running_bot(fake, env, log) as first:
        await start_game(fake, guild, channel, users, timer=5)
        await eventually(lambda: with_button(fake, users, "rummy:do:draw:") is not None)
        first.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(first.wait, 30) == 0
    identified = fake.identify_count
    with running_bot(fake, {**env, "CLOCK_OFFSET_SECONDS": "600"}, log):
        await fake.wait_ready(30, sessions=identified + 1)
        found = with_button(fake, users, "rummy:do:draw:")
        assert found is not None
        user, dm, draw = found
        await (await fake.click(user, dm, draw)).response()
        await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
    shown = [v for m in tables(fake, channel) for v in (*m.versions, m.content)]
    assert not any("time ran out" in text for text in shown)
    assert "Traceback" not in log.read_text(errors="replace")
