"""A Rummy bot on the fake Discord, and the moves of a test player read from what Discord
shows them (DM text, autocomplete, components)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import EXTENSIONS
from bot.app import RummyBot
from bot.infrastructure.settings import WebSettings
from bot.rummy import Card, Phase, parse_cards
from bot.sessions import Brains, Committed, Session, SessionManager, SessionStatus
from cogs.display.game_messages import GameMessages
from cogs.display.notifier import Notifier
from cogs.display.parts import THREAD
from tests.discord.conftest import BotFactory
from tests.discord.fake import Channel, FakeDiscord, Guild, Message, Response, User
from tests.waiting import PATIENCE, eventually

HAND_LINE = re.compile(r"^Your hand \((\d+)\): (.*)$", re.M)


@dataclass
class Table:
    fake: FakeDiscord
    bot: RummyBot
    sessions: SessionManager
    guild: Guild
    channel: Channel
    players: list[User] = field(default_factory=list)
    events: list[Committed] = field(default_factory=list)
    threads: bool = True
    """Whether the server lets games play in threads (``threads_off`` turns them off)."""
    thread: Channel | None = None
    """The thread of the game ``rummy new`` opened last, if it has one."""

    async def record(self, event: Committed) -> None:
        self.events.append(event)

    @property
    def here(self) -> Channel:
        """Where the game is played: its thread (started from its lobby message), else the
        table's channel."""
        return self.thread or self.channel

    def session(self) -> Session:
        session = self.sessions.get(self.here.id)
        assert session is not None
        return session

    async def threads_off(self) -> None:
        """The server's owner turns threads off: games play in the channel, as they did."""
        said = await self.text(self.guild.owner, "rummy settings", threads="off")
        assert "without a thread" in said, said
        self.threads = False

    async def answer(self, user: User, command: str, /, **options: Any) -> Response:
        """Run a slash command where the game is played and return its answer once the bot
        has finished it; ``rummy new`` is run in the table's channel and, threads on, returns
        once the game's thread is there."""
        ix = await self.fake.slash(user, self._where(command), command, **options)
        response = await ix.response()
        if response.deferred:
            await ix.wait_until(lambda i: _settled(i))
        lobby = response.message
        if command == "rummy new" and lobby is not None and not lobby.ephemeral:
            self.thread = None
        if command == "rummy new" and self.threads and lobby is not None and not lobby.ephemeral:
            await eventually(lambda: lobby.thread is not None)
            self.thread = lobby.thread
            # The bot moves the game into its thread just after Discord made it.
            await eventually(lambda: self.sessions.get(lobby.id) is not None)
        return response

    async def text(self, user: User, command: str, /, **options: Any) -> str:
        """The text of the bot's final answer to a slash command used where the game is."""
        ix = await self.fake.slash(user, self._where(command), command, **options)
        await ix.response()
        await ix.wait_until(_settled)
        messages = ix.messages
        assert messages, "no answer"
        return messages[-1].content

    def _where(self, command: str) -> Channel:
        """A new table and the server's settings are the channel's business; the rest is
        typed where the game is, unless its thread is archived (it is over)."""
        here = self.here
        if command in ("rummy new", "rummy settings") or here.archived:
            return self.channel
        return here

    def table_message(self) -> Message | None:
        found = [
            m
            for m in self.fake.messages(self.here)
            if m.author.id == self.fake.bot_user.id
            and any(a.filename == "table.png" for a in m.attachments)
        ]
        return found[-1] if found else None

    def hand_dm(self, user: User) -> Message | None:
        dms = [m for m in self.fake.dms(user) if HAND_LINE.search(m.content)]
        return dms[-1] if dms else None


def _settled(ix: Any) -> bool:
    messages = ix.messages
    return (
        bool(messages)
        and not any(getattr(m, "loading", False) for m in messages)
        and any(m.content for m in messages)
    )


async def display_calm(table: Table, calm_for: float = 0.3) -> None:
    """Until the bot is done with what happened: its listeners told of every commit, its
    display workers with nothing left to show or being shown, and then nothing sent for
    ``calm_for`` seconds (what answers interactions runs beside the workers)."""
    fake = table.fake
    for session in table.sessions.sessions.values():
        await asyncio.wait_for(session.told(), PATIENCE)
    notifier = table.bot.service(Notifier)

    def shown(messages: GameMessages) -> bool:
        return not (
            messages.dirty - {THREAD}
            or messages.announcements
            or messages.notices
            or messages.wake.is_set()
            or messages.showing_hands
            or (messages.channel_task is not None and not messages.channel_task.done())
        )

    def calm() -> bool:
        last = max((r.at for r in fake.requests), default=0.0)
        idle = all(shown(m) for m in notifier.games.values())
        return idle and time.monotonic() - last > calm_for

    await eventually(calm)


def hand_of(text: str) -> list[Card]:
    """The cards of a "Your hand (n): …" line."""
    match = HAND_LINE.search(text)
    assert match is not None, text
    cards = parse_cards(match[2]) if match[2] != "—" else []
    assert len(cards) == int(match[1])
    return cards


async def start_bot(
    fake: FakeDiscord,
    bot_factory: BotFactory,
    sessions: SessionManager,
    guild: Guild,
    web: WebSettings | None = None,
    **options: Any,
) -> RummyBot:
    """A Rummy bot with every extension on the fake, its commands synced to ``guild``;
    ``options``: more of :class:`RummyBot`'s (``members_intent``)."""
    bot = RummyBot(
        sessions,
        dev_guild_id=guild.id,
        guild_ready_timeout=0.05,
        extensions=EXTENSIONS,
        web=web,
        **options,
    )
    started: RummyBot = await bot_factory(bot)
    await asyncio.wait_for(started.wait_until_ready(), PATIENCE)
    return started


@dataclass
class Bots:
    """Starts bots on the fake with the test's own database file, and closes the bot, then
    the database, even when the test failed: a bot started after it on the same file must
    find everything written."""

    fake: FakeDiscord
    factory: BotFactory
    path: Path
    web: WebSettings | None = None
    """The web table the bots serve (None: off, as by default)."""

    @contextlib.asynccontextmanager
    async def table(
        self, *names: str, brains: Brains | None = None, locale: str = "en-US"
    ) -> AsyncIterator[Table]:
        """Each name is a new user and a player of the table, in order: the first hosts what
        ``deal`` opens. ``locale`` is the server's."""
        guild = self.fake.add_guild("Cards", locale=locale)
        channel = guild.add_text_channel("rummy")
        users = [self.fake.add_user(name) for name in names]
        async with self.seat(guild, channel, users, brains=brains) as table:
            yield table

    @contextlib.asynccontextmanager
    async def seat(
        self, guild: Guild, channel: Channel, users: list[User], *, brains: Brains | None = None
    ) -> AsyncIterator[Table]:
        """Like ``table``, in a server the test set up itself (closed DMs, more channels)."""
        async with self._serving(guild, brains) as (bot, sessions):
            yield Table(self.fake, bot, sessions, guild, channel, users)

    @contextlib.asynccontextmanager
    async def restart(self, table: Table) -> AsyncIterator[Table]:
        """The table as a new bot on the same database serves it; the table's game must be
        there for it to carry on."""
        async with self._serving(table.guild, restart=True) as (bot, sessions):
            yield replace(table, bot=bot, sessions=sessions)

    @contextlib.asynccontextmanager
    async def _serving(
        self, guild: Guild, brains: Brains | None = None, *, restart: bool = False
    ) -> AsyncIterator[tuple[RummyBot, SessionManager]]:
        sessions = await SessionManager.open(self.path, brains=brains)
        try:
            if restart:
                assert await sessions.load_active() == 1
            bot = await start_bot(self.fake, self.factory, sessions, guild, self.web)
            try:
                yield bot, sessions
            finally:
                await bot.close()
        finally:
            await sessions.close()


@pytest.fixture
def bots(fake: FakeDiscord, bot_factory: BotFactory, tmp_path: Path) -> Bots:
    return Bots(fake, bot_factory, tmp_path / "rummy.sqlite3")


async def deal(table: Table, **options: Any) -> None:
    """A classic game with ``options``, all the players seated; returns only once the table
    is shown, so that a test's next move or restart finds the table message posted."""
    host, *others = table.players
    await table.answer(host, "rummy new", variant="classic", **options)
    for user in others:
        await table.text(user, "rummy join")
    await table.text(host, "rummy start")
    await eventually(lambda: table.table_message() is not None)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def cog_problems() -> Iterator[list[logging.LogRecord]]:
    """Warnings and errors our Discord layer logged: a test fails on any it did not expect."""
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in ("cogs", "bot.sessions")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    if handler.records:
        text = "\n".join(logging.Formatter().format(r) for r in handler.records)
        pytest.fail(f"the bot logged problems:\n{text}", pytrace=False)


def dm_shows(table: Table, user: User, hand: tuple[Card, ...]) -> Callable[[], bool]:
    """Whether the user's hand DM lists exactly ``hand`` (faces, any order)."""

    def check() -> bool:
        dm = table.hand_dm(user)
        return dm is not None and sorted(c.face for c in hand_of(dm.content)) == sorted(
            c.face for c in hand
        )

    return check


def dm_has(table: Table, user: User, prefix: str, suffix: str = "") -> Callable[[], bool]:
    """Whether the user's hand DM carries a component whose id starts/ends so."""

    def check() -> bool:
        dm = table.hand_dm(user)
        return dm is not None and any(
            c.startswith(prefix) and c.endswith(suffix) for c in dm.custom_ids()
        )

    return check


async def draw_from_dm(table: Table, user: User) -> None:
    """The Draw button of the user's hand DM, pressed, and the draw committed."""
    session = table.session()
    dm = table.hand_dm(user)
    assert dm is not None
    draw = next(c for c in dm.custom_ids() if c.startswith("rummy:do:draw:"))
    seq = session.seq
    await (await table.fake.click(user, dm, draw)).response()
    await eventually(lambda: session.seq > seq)


async def discard_from_dm(table: Table, user: User, turn: int) -> None:
    """The first card of the discard menu of the user's hand DM, once it offers it for
    ``turn``, chosen, and the discard committed."""
    session = table.session()
    await eventually(dm_has(table, user, "rummy:pick:discard:", f":{turn}"))
    dm = table.hand_dm(user)
    assert dm is not None
    menu = next(c for c in dm.custom_ids() if c.startswith("rummy:pick:discard:"))
    component = dm.component(menu)
    assert component is not None
    seq = session.seq
    await (await table.fake.select(user, dm, menu, [component["options"][0]["value"]])).response()
    await eventually(lambda: session.seq > seq)


def answered(fake: FakeDiscord, ix: Any) -> bool:
    """Whether the bot has edited the message a click was on (a move's full answer)."""
    return any(r.interaction_id == ix.id and r.method == "PATCH" and r.done for r in fake.requests)


def dm_exists(table: Table, user: User) -> Callable[[], bool]:
    return lambda: table.hand_dm(user) is not None


def on_turn(session: Session, turn: int) -> bool:
    """Whether the game is still on ``turn``. Turns are numbered across rounds, so a player
    who ends a round and starts the next one is not taken for a player still moving."""
    return session.status is SessionStatus.ACTIVE and session.view(None).turn == turn


async def play_to_end(table: Table, max_moves: int = 300) -> int:
    """Play the channel's game to its end by slash commands, each player taking the first
    meld autocomplete offers, then the first discard it offers; returns the moves made."""
    fake, channel, session = table.fake, table.here, table.session()
    moves = 0
    while session.status is SessionStatus.ACTIVE and moves < max_moves:
        view = session.view(None)
        assert view.current is not None
        users = {session.player_of(u.id): u for u in table.players}
        user = users.get(view.current)
        if user is None:  # a computer's turn (a seat left, or not taken over)
            await eventually(lambda: not on_turn(session, view.turn))  # noqa: B023
            continue
        await eventually(dm_shows(table, user, session.view(view.current).hand))
        # A person who took their seat back from a stand-in that had already drawn goes on
        # from there: only a turn that starts at the draw is drawn for.
        if view.phase is Phase.DRAW:
            if not view.stock_size:
                assert "ended the round" in await table.text(user, "endround")
                moves += 1
                continue
            said = await table.text(user, "draw", source="stock")
            assert "drew" in said, said
            moves += 1
        while on_turn(session, view.turn):
            choices = await fake.autocomplete(user, channel, "meld", focused="cards", cards="")
            if not choices:
                break
            said = await table.text(user, "meld", cards=choices[0]["value"])
            assert "melded" in said, said
            moves += 1
        if not on_turn(session, view.turn):
            continue
        choices = await fake.autocomplete(user, channel, "discard", focused="card", card="")
        assert choices
        said = await table.text(user, "discard", card=choices[0]["value"])
        assert "discarded" in said, said
        moves += 1
    thread = table.thread
    if thread is not None and session.status is SessionStatus.FINISHED:
        # Everything of the game is shown once its thread is archived; what follows (the
        # league, another table) is typed in the channel.
        await eventually(lambda: thread.archived)
    return moves


@dataclass
class Strategy:
    """What the test players prefer; counts what they did."""

    deep_takes: int = 0
    swaps: int = 0
    layoffs: int = 0
    melds: int = 0
    typed_faces: int = 0


async def play_turn(table: Table, user: User, strategy: Strategy) -> None:
    """One whole turn of ``user`` by slash commands, choosing from autocomplete: a deep take
    when one is offered (Rummy 500), else the stock; then every swap, meld and lay-off
    offered; then the first discard offered."""
    fake, channel, session = table.fake, table.here, table.session()
    me = str(user.id)
    view = session.view(None)
    if not view.stock_size and not view.discard_size:
        await table.text(user, "endround")
        return
    depths = await fake.autocomplete(
        user, channel, "draw", focused="depth", source="discard", depth=""
    )
    deep = [c["value"] for c in depths if int(c["value"]) > 1]
    if deep:
        said = await table.text(user, "draw", source="discard", depth=deep[-1])
        assert "took" in said, said
        strategy.deep_takes += 1
    elif view.stock_size:
        said = await table.text(user, "draw", source="stock")
        assert "drew" in said, said
    else:
        assert "ended the round" in await table.text(user, "endround")
        return

    def my_turn() -> bool:
        return on_turn(session, view.turn)

    for _ in range(30):
        if not my_turn():
            return
        swaps = await fake.autocomplete(user, channel, "swap", focused="card", card="")
        if swaps:
            meld = int(swaps[0]["name"].rsplit("#", 1)[1])
            said = await table.text(user, "swap", meld=meld, card=swaps[0]["value"])
            assert "swapped" in said, said
            strategy.swaps += 1
            continue
        melds = await fake.autocomplete(user, channel, "meld", focused="cards", cards="")
        if melds:
            said = await table.text(user, "meld", cards=melds[0]["value"])
            assert "melded" in said, said
            strategy.melds += 1
            continue
        layoffs = await fake.autocomplete(user, channel, "layoff", focused="cards", cards="")
        if layoffs:
            cards = layoffs[0]["value"]
            targets = await fake.autocomplete(
                user, channel, "layoff", focused="meld", cards=cards, meld=""
            )
            assert targets, layoffs
            said = await table.text(user, "layoff", cards=cards, meld=targets[0]["value"])
            assert "laid off" in said, said
            strategy.layoffs += 1
            continue
        break
    if not my_turn():
        return
    choices = await fake.autocomplete(user, channel, "discard", focused="card", card="")
    assert choices, session.view(me)
    hand = session.view(me).hand
    # Prefer a card held only as its second copy, named by its face alone: the engine picks
    # the copy the move allows.
    twins = [c["value"] for c in choices if Card.parse(c["value"].split("#")[0]) not in hand]
    value = (twins or [choices[0]["value"]])[0].split("#", 1)[0]
    if twins:
        strategy.typed_faces += 1
    said = await table.text(user, "discard", card=value)
    assert "discarded" in said, said
