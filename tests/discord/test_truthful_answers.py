"""Answers that tell the truth, through the fake Discord with the real discord.py.

The lobby message exists whenever the lobby does: ``/rummy new`` answers before it stores
anything, and a lobby that could not be shown is called off, so the channel stays free.
Faults are injected where the environment would put them: the store (slow, or refusing the
lobby's creation) and Discord's answers to the bot's requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.rummy import Discard
from bot.sessions import SessionManager
from bot.storage import Database, open_store
from cogs.display.game_messages import GameMessages
from cogs.display.notifier import Notifier
from tests.discord.conftest import BotFactory
from tests.discord.fake import (
    ApiError,
    Channel,
    FakeDiscord,
    Interaction,
    Message,
    RequestRecord,
    User,
)
from tests.discord.helpers import Bots, Table, bots, deal, dm_exists, dm_has, start_bot
from tests.sessions.faults import FaultyStore
from tests.waiting import eventually

__all__ = ["bots"]


@contextlib.asynccontextmanager
async def faulty_bot(
    fake: FakeDiscord, bot_factory: BotFactory, path: Path
) -> AsyncIterator[tuple[RummyBot, SessionManager, FaultyStore, Channel, User]]:
    """A bot whose store can be slowed or made to refuse, on a server with threads."""
    inner = await open_store(path)
    assert isinstance(inner, Database)
    store = FaultyStore(inner)
    sessions = SessionManager(store)
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann")
    try:
        bot = await start_bot(fake, bot_factory, sessions, guild)
        try:
            yield bot, sessions, store, channel, ann
        finally:
            await bot.close()
    finally:
        await sessions.close()


def lobbies(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """The lobby messages in ``channel``: the bot's, with a Join button."""
    return [
        m
        for m in fake.messages(channel)
        if m.author.id == fake.bot_user.id and any(b.get("label") == "Join" for b in m.buttons())
    ]


async def open_lobby(
    fake: FakeDiscord,
    sessions: SessionManager,
    channel: Channel,
    user: User,
    held: asyncio.Event | None = None,
) -> None:
    """``/rummy new``, returning once its lobby is shown and moved into its thread; ``held``
    (the store's writes wait for it) is set once the command is answered."""
    ix = await fake.slash(user, channel, "rummy new", variant="classic")
    await ix.response()
    if held is not None:
        held.set()
    await eventually(lambda: len(lobbies(fake, channel)) == 1)
    lobby = lobbies(fake, channel)[0]
    await eventually(lambda: lobby.thread is not None)
    await eventually(lambda: sessions.get(lobby.id) is not None)
    assert len(sessions.sessions) == 1


async def test_a_slow_database_still_shows_the_lobby(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path
) -> None:
    """The store is still writing the lobby when Discord wants its answer: the answer comes
    first (the write waits until the test has seen it), the lobby is shown all the same,
    and it is the channel's one game."""
    async with faulty_bot(fake, bot_factory, tmp_path / "db") as (_, sessions, store, ch, ann):
        store.targets = frozenset({"create_game"})
        store.held = asyncio.Event()
        await open_lobby(fake, sessions, ch, ann, held=store.held)
        assert not [r for r in fake.requests if r.status == 404 and r.error_code == 10062]


async def test_a_refused_store_leaves_the_channel_free(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database refuses the lobby: the person hears it privately, no lobby is stored,
    and the next ``/rummy new`` opens one."""
    async with faulty_bot(fake, bot_factory, tmp_path / "db") as (_, sessions, store, ch, ann):
        store.targets = frozenset({"create_game"})
        store.refuse_times = 1
        with caplog.at_level(logging.ERROR, logger="cogs"):
            ix = await fake.slash(ann, ch, "rummy new", variant="classic")
            await ix.response()
            await ix.wait_until(lambda i: any(m.ephemeral and m.content for m in i.messages))
        said = [m for m in ix.messages if not m.deleted]
        assert [m.ephemeral for m in said] == [True], [m.content for m in said]
        assert "Something went wrong" in said[0].content
        assert not sessions.sessions
        assert not lobbies(fake, ch)
        caplog.clear()
        await open_lobby(fake, sessions, ch, ann)


async def test_an_expired_interaction_stores_no_lobby(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path
) -> None:
    """Discord refuses the answer (the interaction expired): nothing is stored."""
    async with faulty_bot(fake, bot_factory, tmp_path / "db") as (_, sessions, _s, ch, ann):

        def expired(record: RequestRecord) -> ApiError | None:
            if record.route.startswith("POST /interactions/"):
                return ApiError(404, 10062, "Unknown interaction")
            return None

        fake.faults.append(expired)
        ix = await fake.slash(ann, ch, "rummy new", variant="classic")
        await eventually(lambda: any(r.error_code == 10062 for r in fake.requests))
        fake.faults.clear()
        assert not sessions.sessions
        assert ix.original is None
        await open_lobby(fake, sessions, ch, ann)


async def test_a_lobby_that_could_not_be_shown_is_called_off(
    fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The lobby is stored but Discord refuses the message showing it: the lobby is called
    off, and the channel is free for the next ``/rummy new``."""
    async with faulty_bot(fake, bot_factory, tmp_path / "db") as (_, sessions, _s, ch, ann):

        def refused(record: RequestRecord) -> ApiError | None:
            if record.method == "POST" and record.route.startswith("POST /webhooks/"):
                return ApiError(404, 10015, "Unknown Webhook")
            return None

        fake.faults.append(refused)
        with caplog.at_level(logging.WARNING, logger="cogs"):
            ix = await fake.slash(ann, ch, "rummy new", variant="classic")
            await ix.response()
            await eventually(lambda: "called off" in caplog.text)
        fake.faults.clear()
        await eventually(lambda: not sessions.sessions)
        caplog.clear()
        await open_lobby(fake, sessions, ch, ann)


def refuse_once(fake: FakeDiscord, method: str, route: str) -> list[RequestRecord]:
    """Discord refuses the next ``method`` request on a route starting with ``route`` (as it
    would a message it cannot take); returns the refused requests."""
    refused: list[RequestRecord] = []

    def fault(record: RequestRecord) -> ApiError | None:
        if refused or record.method != method or not record.route.startswith(route):
            return None
        refused.append(record)
        return ApiError(400, 50035, "Invalid Form Body")

    fake.faults.append(fault)
    return refused


def said_made(ix: Interaction, text: str) -> bool:
    return any(text in m.content and m.ephemeral for m in ix.messages)


async def test_a_move_whose_answer_failed_is_said_to_be_made(
    bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """A slash-command move is committed, then Discord refuses its answer: the player hears
    that the move was made (not that nothing changed), and the bug is logged."""
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        view = session.view(None)
        user = next(u for u in table.players if str(u.id) == view.current)
        before = session.seq
        refused = refuse_once(table.fake, "POST", "POST /webhooks/")
        with caplog.at_level(logging.ERROR, logger="cogs"):
            ix = await table.fake.slash(user, table.here, "draw", source="stock")
            await ix.wait_until(lambda i: said_made(i, "Your move was made"))
        assert refused
        assert session.seq == before + 1
        assert "committed, then answering failed" in caplog.text
        assert not any("unchanged" in m.content for m in ix.messages)


async def test_a_hand_button_whose_answer_failed_is_said_to_be_made(
    bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """The draw button of a hand DM is committed, then Discord refuses the hand's edit."""
    async with bots.table("ann", "bob") as table:
        await deal(table)
        session = table.session()
        view = session.view(None)
        user = next(u for u in table.players if str(u.id) == view.current)
        await eventually(dm_has(table, user, "rummy:do:", f":{view.turn}"))
        dm = table.hand_dm(user)
        assert dm is not None
        draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
        before = session.seq
        refused = refuse_once(table.fake, "PATCH", "PATCH /webhooks/")
        with caplog.at_level(logging.ERROR, logger="cogs"):
            click = await table.fake.click(user, dm, draw)
            await click.wait_until(lambda i: said_made(i, "Your move was made"))
        assert refused
        assert session.seq == before + 1
        assert "committed, then answering failed" in caplog.text


async def test_a_lobby_button_whose_answer_failed_is_said_to_be_done(
    bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """Joining by the lobby's button is committed, then the lobby's edit is refused."""
    async with bots.table("ann", "bob") as table:
        ann, bob = table.players
        lobby = (await table.answer(ann, "rummy new", variant="classic")).message
        assert lobby is not None
        join = next(c for c in lobby.custom_ids() if "join" in c)
        refused = refuse_once(table.fake, "PATCH", "PATCH /webhooks/")
        with caplog.at_level(logging.ERROR, logger="cogs"):
            click = await table.fake.click(bob, lobby, join)
            await click.wait_until(lambda i: said_made(i, "Done, but I could not show it"))
        assert refused
        assert table.session().player_of(bob.id) is not None
        assert "committed, then answering failed" in caplog.text


def display_games(table: Table) -> list[GameMessages]:
    """The games the display is showing now."""
    return list(table.bot.service(Notifier).games.values())


async def test_a_failing_table_edit_does_not_hold_back_the_next_players_dm(
    bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord holds the bot's edit of the table message without answering, then answers 500
    to each edit (discord.py retries each for about 26 seconds): the next player's "your
    turn" DM comes while the edit waits, and the table is shown once Discord takes edits
    again. Each refused edit waits its own backoff."""
    async with bots.table("ann", "bob") as table:
        fake = table.fake
        await deal(table)
        session = table.session()
        shown = table.table_message()
        assert shown is not None
        view = session.view(None)
        users = {str(u.id): u for u in table.players}
        assert view.current is not None
        mover = users[view.current]
        # Everything of the deal is shown first: the outage starts on a quiet display.
        await eventually(dm_has(table, mover, "rummy:do:", f":{view.turn}"))
        for user in table.players:
            await eventually(dm_exists(table, user))
        await eventually(lambda: all(not m.dirty for m in display_games(table)))
        down = [True]
        released = asyncio.Event()

        def table_edit(record: RequestRecord) -> bool:
            return record.method == "PATCH" and record.path.endswith(f"/{shown.id}")

        def hold(record: RequestRecord) -> Awaitable[bool] | None:
            return released.wait() if table_edit(record) and not released.is_set() else None

        def outage(record: RequestRecord) -> ApiError | None:
            if down and table_edit(record):
                return ApiError(500, 0, "500: Internal Server Error")
            return None

        def held() -> list[RequestRecord]:
            return [r for r in fake.requests if table_edit(r) and not r.done]

        edits = shown.edits
        fake.holds.append(hold)
        fake.faults.append(outage)
        with caplog.at_level(logging.WARNING, logger="cogs"):
            assert "drew" in await table.text(mover, "draw", source="stock")
            discard = next(a for a in session.legal_actions(view.current) if isinstance(a, Discard))
            await table.text(mover, "discard", card=str(discard.card))
            after = session.view(None)
            assert after.current is not None
            assert after.current != view.current
            nxt = users[after.current]
            # While the table's edit waits for Discord: a DM queued behind it would never
            # come, and the wait below would fail.
            await eventually(lambda: bool(held()))
            await eventually(dm_has(table, nxt, "rummy:do:", f":{after.turn}"))
            assert held()
            released.set()
            await eventually(lambda: any(r.status == 500 for r in fake.requests if table_edit(r)))
            down.clear()
            await eventually(lambda: shown.edits > edits, 60)
        patches = [
            r for r in fake.requests if r.method == "PATCH" and r.path.endswith(f"/{shown.id}")
        ]
        assert len(patches) < 20, len(patches)
