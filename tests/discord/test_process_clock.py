"""``python -m bot`` on a machine whose clock is ten minutes off: the game a process with a
right clock stopped in the middle of a timed turn is taken up with the time the turn had
left, so the person plays it; the timer does not play it at once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_process import answered, bot_env, running_bot, tables, with_button
from tests.waiting import eventually


@pytest.mark.both_backends
async def test_a_process_whose_clock_is_ahead_leaves_the_turn_to_its_player(
    fake: FakeDiscord, tmp_path: Path, db_path: Path | str
) -> None:
    guild, channel, users, env = bot_env(
        fake, tmp_path, db_path if isinstance(db_path, str) else None
    )
    log = tmp_path / "bot.log"
    with running_bot(fake, env, log) as first:
        await fake.wait_ready(30)
        await eventually(lambda: bool(fake.commands(guild)), 30)
        opened = await answered(fake, users[0], channel, "rummy new", variant="classic", timer=5)
        assert "Turn timer: 5 min" in opened
        assert "seat" in await answered(fake, users[1], channel, "rummy join")
        assert "dealt" in await answered(fake, users[0], channel, "rummy start")
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
