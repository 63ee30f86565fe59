"""``python -m bot`` as its own process: killed mid-round (SIGKILL) and started again, the
same game goes on with the same buttons; and the calls under Discord's global rate limit per
ordinary turn stay within budget."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.storage import open_store
from tests.discord.fake import Channel, FakeDiscord, Guild, Message, User
from tests.waiting import PATIENCE, eventually, eventually_async

ROOT = Path(__file__).resolve().parents[2]
HAND = "Your hand"


@contextlib.contextmanager
def running_bot(
    fake: FakeDiscord, env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=ROOT,
            env={**os.environ, **fake.env(), **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(PATIENCE)


def tables(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """The table messages of the game opened in ``channel``: in its thread, once it has one."""
    threads = fake.threads(channel)
    where = threads[-1] if threads else channel
    return [
        m for m in fake.messages(where) if any(a.filename == "table.png" for a in m.attachments)
    ]


def offers(message: Message, prefix: str) -> Callable[[], bool]:
    return lambda: any(c.startswith(prefix) for c in message.custom_ids())


def hand_dm(fake: FakeDiscord, user: User) -> Message | None:
    found = [m for m in fake.dms(user) if m.content.startswith(HAND)]
    return found[-1] if found else None


def with_button(
    fake: FakeDiscord, users: list[User], prefix: str
) -> tuple[User, Message, str] | None:
    for user in users:
        dm = hand_dm(fake, user)
        if dm is None:
            continue
        found = next((c for c in dm.custom_ids() if c.startswith(prefix)), None)
        if found is not None:
            return user, dm, found
    return None


async def answered(
    fake: FakeDiscord, user: User, channel: Channel, command: str, **options: object
) -> str:
    ix = await fake.slash(user, channel, command, options=options)
    await ix.response()
    await ix.wait_until(lambda i: any(m.content for m in i.messages))
    return ix.messages[-1].content


def bot_env(
    fake: FakeDiscord, tmp_path: Path, database: Path | str | None = None
) -> tuple[Guild, Channel, list[User], dict[str, str]]:
    """The bot's settings: its SQLite file in ``tmp_path``, or the PostgreSQL URL
    ``database`` (a text; the test's SQLite path, or None, means SQLite)."""
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    users = [fake.add_user("ann"), fake.add_user("bob")]
    env = {
        "DATABASE_PATH": str(tmp_path / "rummy.sqlite3"),
        "DEV_GUILD_ID": str(guild.id),
        "LOG_LEVEL": "WARNING",
    }
    if isinstance(database, str):
        env["DATABASE_URL"] = database
    return guild, channel, users, env


def turn_shown(fake: FakeDiscord, table: Message, edits: int, other: User) -> Callable[[], bool]:
    """Whether the turn is shown: the table edited since ``edits`` to say the discard, and
    the hand of ``other``, who plays next, offering a draw."""
    return lambda: (
        table.edits > edits
        and "discarded" in table.content
        and with_button(fake, [other], "rummy:do:draw:") is not None
    )


async def noted(database: str, message_id: int) -> bool:
    """Whether the bot has stored ``message_id`` as a message of a game going on (so that
    a bot started again edits it rather than posting anew)."""
    store = await open_store(database)
    try:
        async with store.unit() as repo:
            games = await repo.live_games()
            refs = await repo.game_messages([game.id for game in games])
    finally:
        await store.close()
    return any(ref.message_id == message_id for found in refs.values() for ref in found)


async def start_game(
    fake: FakeDiscord, guild: Guild, channel: Channel, users: list[User], **options: object
) -> None:
    """Waits for the process's commands first: like Discord's client, the fake only runs
    registered ones. ``options``: more of ``rummy new``'s."""
    await fake.wait_ready(30)
    await eventually(lambda: bool(fake.commands(guild)), 30)
    opened = await answered(fake, users[0], channel, "rummy new", variant="classic", **options)
    assert "Rummy table" in opened
    assert "seat" in await answered(fake, users[1], channel, "rummy join")
    assert "dealt" in await answered(fake, users[0], channel, "rummy start")


@pytest.mark.both_backends
@pytest.mark.fake(rate_limits=True)
async def test_killed_mid_round_the_game_goes_on_with_the_same_buttons(
    fake: FakeDiscord, tmp_path: Path, db_path: Path | str
) -> None:
    guild, channel, users, env = bot_env(fake, tmp_path, db_path)
    log = tmp_path / "bot.log"
    with running_bot(fake, env, log) as first:
        await start_game(fake, guild, channel, users)
        await eventually(lambda: with_button(fake, users, "rummy:do:draw:") is not None)
        found = with_button(fake, users, "rummy:do:draw:")
        assert found is not None
        user, dm, draw = found
        click = await fake.click(user, dm, draw)
        await click.response()
        await eventually(lambda: any(c.startswith("rummy:pick:discard:") for c in dm.custom_ids()))
        await eventually(lambda: bool(tables(fake, channel)))
        table = tables(fake, channel)[-1]
        database = env.get("DATABASE_URL", env["DATABASE_PATH"])
        await eventually_async(lambda: noted(database, table.id))
        first.send_signal(signal.SIGKILL)
        first.wait(PATIENCE)
    identified = fake.identify_count
    with running_bot(fake, env, log):
        await fake.wait_ready(30, sessions=identified + 1)
        await asyncio.sleep(0.5)
        menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
        component = dm.component(menu)
        assert component is not None
        edits = dm.edits
        pick = await fake.select(user, dm, menu, [component["options"][0]["value"]])
        await pick.response()
        await eventually(lambda: dm.edits > edits)
        assert "discard" not in " ".join(dm.custom_ids())
        # The table message from before the kill is the one edited; none is posted anew.
        await eventually(lambda: "discarded" in table.content)
        assert tables(fake, channel) == [table]
        other = users[1] if user is users[0] else users[0]
        await eventually(lambda: with_button(fake, [other], "rummy:do:draw:") is not None)
    assert "Traceback" not in log.read_text(errors="replace")


@pytest.mark.fake(rate_limits=True)
async def test_an_ordinary_turn_by_buttons_costs_at_most_two_rate_limited_calls(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild, channel, users, env = bot_env(fake, tmp_path)
    with running_bot(fake, env, tmp_path / "bot.log"):
        await start_game(fake, guild, channel, users)
        costs: list[int] = []
        for _ in range(4):
            await eventually(lambda: with_button(fake, users, "rummy:do:draw:") is not None)
            found = with_button(fake, users, "rummy:do:draw:")
            assert found is not None
            user, dm, draw = found
            other = users[1] if user is users[0] else users[0]
            await eventually(lambda: bool(tables(fake, channel)))
            table = tables(fake, channel)[-1]
            edits = table.edits
            since = time.monotonic()
            await (await fake.click(user, dm, draw)).response()
            await eventually(offers(dm, "rummy:pick:discard:"))
            menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
            component = dm.component(menu)
            assert component is not None
            await (await fake.select(user, dm, menu, [component["options"][0]["value"]])).response()
            await eventually(turn_shown(fake, table, edits, other))
            costs.append(len(fake.counted_requests(since)))
    # The first turns of each player open their DM conversation; after that, a turn is one
    # table edit, the next hand going as a follow-up of its owner's last click.
    assert max(costs[2:]) <= 2, costs
