"""The fake Discord: REST API v10 and gateway on one aiohttp server on 127.0.0.1.

One `FakeDiscord` plays Discord for one bot token. The REST side answers what discord.py
calls (login, command sync, interaction callbacks and webhooks, DMs, channel messages) and
rejects what Discord rejects; the gateway side does HELLO / IDENTIFY / READY / GUILD_CREATE,
heartbeats, RESUME, and carries the interactions a test makes (`slash`, `click`, `select`,
`autocomplete`). Everything the bot sends is kept (messages with their edits and file bytes,
registered commands, every request with its time), so tests read the outcome from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.message
import json
import logging
import mimetypes
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.waiting import PATIENCE

from .model import (
    JSON,
    Attachment,
    Channel,
    Guild,
    Message,
    Role,
    Snowflakes,
    User,
    iso_now,
)
from .ratelimit import Window
from .validate import (
    ApiError,
    check_choices,
    check_commands,
    check_message,
    check_modal,
    check_thread,
    is_empty,
)

log = logging.getLogger("tests.discord.fake")

ANSWER_DEADLINE = 15.0
"""Seconds after which an interaction's first answer is refused (10062). Discord's are 3; a
loaded machine running other work can take longer than that to answer for code that is
right, so the fake waits longer by default, and the tests about the deadline set their own
(``interaction_deadline``)."""
SEND_MESSAGES = 1 << 11
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35
MANAGE_THREADS = 1 << 34
MANAGE_CHANNELS = 1 << 4
ATTACH_FILES = 1 << 15
VIEW_CHANNEL = 1 << 10
EPHEMERAL = 64
LOADING = 128
KEPT_FLAGS = 4 | 4096 | (1 << 15)  # suppress embeds, suppress notifications, components v2
ALL_PERMISSIONS_STR = str((1 << 53) - 1)
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

Handler = Callable[..., Awaitable["Answer"]]

# Per-channel buckets as Discord's rate-limit headers show them for a bot (Discord documents
# no numbers, and they change): pass as `route_limits=` for a benchmark that wants them.
DISCORD_ROUTE_LIMITS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
}


@dataclass
class Answer:
    status: int = 200
    body: Any = None  # JSON-able, or None for 204


@dataclass
class RequestRecord:
    """One API request as the fake saw it.

    `counted` is True when the route counts against the global rate limit (everything but
    interaction callbacks and interaction webhooks); `limited` when it was answered 429.
    Times are `time.monotonic()` seconds.
    """

    method: str
    route: str
    path: str
    at: float
    counted: bool
    status: int = 0
    done: float = 0.0
    limited: bool = False
    interaction_id: int | None = None
    error_code: int | None = None


@dataclass
class Response:
    """An interaction callback the fake accepted (the interaction's first answer).

    `type` is Discord's callback type: 4 message, 5 deferred, 6 deferred update, 7 update
    message, 8 autocomplete result, 9 modal. `message` is the message the answer made or
    changed (None for 8 and 9); it keeps changing as the bot edits it.
    """

    type: int
    data: JSON
    at: float
    message: Message | None = None

    @property
    def content(self) -> str:
        if self.message is not None:
            return self.message.content
        return str(self.data.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        if self.message is not None:
            return self.message.ephemeral
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def components(self) -> list[JSON]:
        if self.message is not None:
            return self.message.components
        return list(self.data.get("components") or [])

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds if self.message is not None else []

    @property
    def attachments(self) -> list[Attachment]:
        return self.message.attachments if self.message is not None else []

    @property
    def choices(self) -> list[JSON]:
        return list(self.data.get("choices") or [])

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)


class Interaction:
    """An interaction the fake sent to the bot, and everything the bot answered to it."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        kind: int,
        user: User,
        channel: Channel,
        payload: JSON,
        message: Message | None = None,
    ) -> None:
        self.fake = fake
        self.id = id
        self.kind = kind
        self.token = f"tok-{id}-{secrets.token_hex(8)}"
        self.user = user
        self.channel = channel
        self.payload = payload
        self.message = message  # the message a component sits on
        self.created = time.monotonic()
        self.first: Response | None = None
        self.rejected: list[ApiError] = []
        self.original: Message | None = None
        self.followup_messages: list[Message] = []
        self.modal: JSON | None = None
        self._answered = asyncio.Event()

    @property
    def answered_at(self) -> float | None:
        return self.first.at if self.first is not None else None

    @property
    def latency(self) -> float | None:
        """Seconds from the interaction's dispatch to the bot's first accepted answer."""
        return None if self.first is None else self.first.at - self.created

    async def response(self, timeout: float = PATIENCE) -> Response:
        """The first accepted answer; fails with what the fake rejected, if anything."""
        try:
            await asyncio.wait_for(self._answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"no accepted answer to interaction {self.id} within {timeout} s"
                + (f"; rejected: {[str(e) for e in self.rejected]}" if self.rejected else "")
            ) from None
        assert self.first is not None
        return self.first

    async def followups(self, n: int = 1, timeout: float = PATIENCE) -> list[Message]:
        """The first `n` follow-up messages (waits until that many exist)."""
        deadline = time.monotonic() + timeout
        while len(self.followup_messages) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{len(self.followup_messages)} of {n} follow-ups to interaction {self.id}"
                    f" within {timeout} s"
                    + (f"; rejected: {[str(e) for e in self.rejected]}" if self.rejected else "")
                )
            await self.fake._wait_change(left)
        return self.followup_messages[:n]

    async def wait_until(
        self, predicate: Callable[[Interaction], bool], timeout: float = PATIENCE
    ) -> None:
        """Wait until `predicate(self)` holds (checked after every change the fake sees)."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"interaction {self.id}: condition not met in {timeout} s")
            await self.fake._wait_change(left)

    @property
    def messages(self) -> list[Message]:
        """The original response message (if any) then the follow-ups, current states."""
        out = [self.original] if self.original is not None else []
        out.extend(m for m in self.followup_messages if m is not self.original)
        return out

    def _touch(self) -> None:
        self.fake._changed.set()


@dataclass(eq=False)
class _Session:
    id: str
    ws: web.WebSocketResponse | None
    seq: int = 0
    ready: bool = False
    intents: int = 0
    shard: int = 0
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    queue: list[tuple[str | None, JSON | None]] = field(default_factory=list)


MessageListener = Callable[[str, Message], None]


def _form_parts(content_type: str, raw: bytes) -> list[tuple[str, str | None, bytes]]:
    """The parts of a buffered multipart/form-data body: name, file name and bytes.

    aiohttp's streaming reader is not used: when a read overshoots a part (a matter of how
    the body arrives in chunks) it calls its own deprecated ``unread_data`` and warns, which
    the tests turn into an error."""
    header = email.message.Message()
    header["Content-Type"] = content_type
    boundary = header.get_param("boundary")
    if not isinstance(boundary, str):
        raise ApiError(400, 50035, "Invalid Form Body")
    parts = []
    for chunk in (b"\r\n" + raw).split(b"\r\n--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, _, data = chunk.partition(b"\r\n\r\n")
        fields = email.message_from_bytes(head.strip() + b"\r\n\r\n")
        name = fields.get_param("name", header="content-disposition")
        filename = fields.get_filename()
        if isinstance(name, str):
            parts.append((name, filename, data))
    return parts


class FakeDiscord:
    """A fake Discord for one bot token; see the package docstring for the test-facing API."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        rate_limits: bool = True,
        global_limit: int = 50,
        route_limits: Mapping[str, tuple[int, float]] | None = None,
        interaction_deadline: float | None = ANSWER_DEADLINE,
        attachment_size_limit: int = 10 * 1024 * 1024,
        bot_name: str = "Rummy",
        host: str = "127.0.0.1",
        port: int = 0,
        heartbeat_interval: float = 41.25,
        message_events: bool = True,
        shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        if shards < 1:
            raise ValueError(f"shards must be at least 1, not {shards}")
        self.token = token
        self.shards = shards
        """The shard count the fake asks for (``GET /gateway/bot``) and routes by."""
        self.max_concurrency = max_concurrency
        """How many shards may identify at once (``session_start_limit.max_concurrency``)."""
        self.message_events = message_events
        self.clients_check_ranges = True
        """Discord's clients refuse an option value outside its range or length; False
        sends what a modified client or a probe could, to test the bot's own checks."""
        self.rate_limits = rate_limits
        self.route_limits = dict(route_limits or {})
        self.interaction_deadline = interaction_deadline
        self.attachment_size_limit = attachment_size_limit
        self.heartbeat_interval = heartbeat_interval
        self.host = host
        self.port = port
        self.ids = Snowflakes()
        self.bot_user = User(id=self.ids.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(id=self.ids.next(), name="owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self._dm_channels: dict[int, Channel] = {}
        self._messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.requests: list[RequestRecord] = []
        self.unhandled: list[str] = []
        self.internal_errors: list[str] = []
        self.faults: list[Callable[[RequestRecord], ApiError | None]] = []
        """Faults a test injects: each is asked about every request (after the rate limits)
        and the first error one returns is Discord's answer instead of the route's."""
        self.holds: list[Callable[[RequestRecord], Awaitable[object] | None]] = []
        """Holds a test injects: each is asked about every request (before the faults) and
        may return an awaitable that the request waits for, as an answer Discord is slow to
        give: a test makes one request wait for the event it checks, with no clock."""
        self.interactions: list[Interaction] = []
        self._by_token: dict[str, Interaction] = {}
        self._by_id: dict[int, Interaction] = {}
        self.identify_count = 0
        self.resume_count = 0
        self._sessions: dict[str, _Session] = {}
        self._live: dict[int, _Session] = {}
        """Shard id to the session Discord sends that shard's events to."""
        self._live_changed = asyncio.Event()
        self._global = Window(global_limit, 1.0)
        self._buckets: dict[tuple[str, str], Window] = {}
        self._listeners: list[MessageListener] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._background: set[asyncio.Task[None]] = set()
        self._routes = _build_routes(self)

    @property
    def global_limit(self) -> int:
        """Requests per second allowed under the global limit (may be changed any time)."""
        return self._global.limit

    @global_limit.setter
    def global_limit(self, value: int) -> None:
        self._global.limit = value

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api)
        app.router.add_get("/attachments/{id}/{filename}", self._cdn)
        app.router.add_get("/", self._gateway)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` (or DISCORD_API_BASE_URL) must be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What `DiscordWebSocket.DEFAULT_GATEWAY` (or DISCORD_GATEWAY_URL) must be."""
        return f"ws://{self.host}:{self.port}/"

    def env(self) -> dict[str, str]:
        """Environment for a `python -m bot` subprocess talking to this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE_URL": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ---------------------------------------------------------------- world building

    def add_guild(
        self,
        name: str = "guild",
        *,
        locale: str = "en-US",
        owner: User | None = None,
        shard: int | None = None,
    ) -> Guild:
        """A server the bot is in; ``shard``: one whose id Discord routes to that shard."""
        guild_id = self.ids.next()
        if shard is not None:
            if not 0 <= shard < self.shards:
                raise ValueError(f"shard {shard} is outside 0..{self.shards - 1}")
            # An earlier creation time with the same (unique) low bits: still a unique id.
            stamp = guild_id >> 22
            stamp -= (stamp - shard) % self.shards
            guild_id = (stamp << 22) | (guild_id & 0x3FFFFF)
        guild = Guild(self, guild_id, name, locale, owner or self.owner)
        self.guilds[guild.id] = guild
        self._dispatch_nowait("GUILD_CREATE", guild.to_json, guild_id=guild.id)
        return guild

    def shard_of(self, guild: Guild | None) -> int:
        """The shard a server's events and interactions go to; DMs (None) go to shard 0."""
        return 0 if guild is None else (guild.id >> 22) % self.shards

    def remove_guild(self, guild: Guild) -> None:
        """The bot is removed from ``guild`` (kicked, or the server deleted): GUILD_DELETE,
        and the guild and its channels are unknown from then on."""
        self._dispatch_nowait("GUILD_DELETE", lambda: {"id": str(guild.id)}, guild_id=guild.id)
        self.guilds.pop(guild.id, None)
        for channel_id in guild.channels:
            self.channels.pop(channel_id, None)

    def readd_guild(self, guild: Guild) -> None:
        """The bot is added back to a server it was removed from: GUILD_CREATE again,
        without ``unavailable`` (as Discord sends a join, which discord.py tells from a
        server coming back after an outage)."""
        self.guilds[guild.id] = guild
        for channel in guild.channels.values():
            self._register_channel(channel)

        def joined() -> JSON:
            data = guild.to_json()
            data.pop("unavailable", None)
            return data

        self._dispatch_nowait("GUILD_CREATE", joined, guild_id=guild.id)

    def add_user(
        self,
        name: str,
        *,
        dm_open: bool = True,
        locale: str = "en-US",
        guilds: Iterable[Guild] | None = None,
        roles: Iterable[Role] = (),
    ) -> User:
        """A person; a member of `guilds` (default: every guild that exists now).

        `roles` are given in every guild they belong to (roles are per guild, so pass
        them only with a single guild).
        """
        user = User(id=self.ids.next(), name=name, dm_open=dm_open, locale=locale)
        self.users[user.id] = user
        role_list = list(roles)
        for guild in self.guilds.values() if guilds is None else guilds:
            guild.add_member(user, [r for r in role_list if r.id in guild.roles])
        return user

    def user_named(self, name: str) -> User:
        """The user added under `name` (names are not unique on Discord; keep them so here)."""
        found = [u for u in self.users.values() if u.name == name]
        if len(found) != 1:
            raise LookupError(f"{len(found)} users named {name!r}")
        return found[0]

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (made on first use, as Discord does)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.ids.next(), name=f"dm-{user.name}", recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def _register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel

    def _forget_channel(self, channel: Channel) -> None:
        self.channels.pop(channel.id, None)
        for msg in self._channel_messages.pop(channel.id, []):
            msg.deleted = True
        for msg in self._messages.values():
            if msg.thread is channel:
                msg.thread = None
        self._changed.set()

    def threads(self, parent: Channel) -> list[Channel]:
        """The threads started in ``parent`` (archived ones included), oldest first."""
        return sorted((c for c in self.channels.values() if c.parent is parent), key=lambda c: c.id)

    def _guild_event(self, guild: Guild, event: str, data: JSON, *, intent: int = 0) -> None:
        """Tell a connected bot about a change; `intent`: the intent the event needs."""
        if guild.id in self.guilds:
            payload = dict(data)
            payload.setdefault("guild_id", str(guild.id))
            self._dispatch_nowait(event, lambda: payload, intent=intent, guild_id=guild.id)

    # ---------------------------------------------------------------- reading the results

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        """The registered commands (as echoed to the bot, with ids), global or of a guild."""
        if guild is None:
            return list(self.global_commands)
        return list(self.guild_commands.get(guild.id, []))

    def command(self, name: str, guild: Guild | None = None) -> JSON:
        """A registered command by name: the guild's first, then the global one."""
        pools = ([self.guild_commands.get(guild.id, [])] if guild else []) + [self.global_commands]
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        raise LookupError(f"no registered command {name!r}")

    def messages(
        self, channel: Channel, *, ephemeral: bool = False, deleted: bool = False
    ) -> list[Message]:
        """Messages in `channel`, oldest first, edits applied; ephemeral ones on request."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if (ephemeral or not m.ephemeral) and (deleted or not m.deleted)
        ]

    def dms(self, user: User, *, deleted: bool = False) -> list[Message]:
        channel = self._dm_channels.get(user.id)
        return [] if channel is None else self.messages(channel, deleted=deleted)

    def message(self, message_id: int) -> Message:
        return self._messages[message_id]

    def add_listener(self, listener: MessageListener) -> None:
        """`listener(event, message)` on every "create", "edit" and "delete", synchronously."""
        self._listeners.append(listener)

    async def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = PATIENCE
    ) -> Message:
        """The first message (current state, deleted ones excluded) for which predicate holds.

        Messages that already satisfy it count, so there is no race with the bot.
        """
        deadline = time.monotonic() + timeout
        while True:
            for msg in self._messages.values():
                if not msg.deleted and predicate(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no message matched within {timeout} s")
            await self._wait_change(left)

    async def _wait_change(self, timeout: float) -> None:
        """Sleep until anything changes (a message, an answer) or `timeout` passes.

        Callers check their condition, then call this without awaiting in between, so no
        change is missed.
        """
        self._changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    def counted_requests(self, since: float = 0.0) -> list[RequestRecord]:
        """Requests that count against the global limit, made at or after `since`."""
        return [r for r in self.requests if r.counted and r.at >= since]

    # ---------------------------------------------------------------- gateway

    @property
    def connected(self) -> bool:
        """Whether every shard has a bot connected and given its guilds."""
        return len(self.connected_shards) == self.shards

    @property
    def connected_shards(self) -> frozenset[int]:
        """The shards a bot is connected on, with its guilds given."""
        return frozenset(shard for shard, s in self._live.items() if s.ready)

    async def wait_ready(
        self,
        timeout: float = PATIENCE,
        *,
        sessions: int | None = None,
        shards: Iterable[int] | None = None,
    ) -> None:
        """Wait until the bot has identified and received its guilds on every shard.

        `sessions=n` also waits until at least n IDENTIFYs happened in total (after a
        restart, pass the count before the restart plus the shards it runs); `shards`: wait
        for these shards only (a process that runs some of them).
        """
        wanted = frozenset(range(self.shards) if shards is None else shards)
        deadline = time.monotonic() + timeout
        while not (
            wanted <= self.connected_shards
            and (sessions is None or self.identify_count >= sessions)
        ):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the bot did not connect within {timeout} s")
            self._live_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._live_changed.wait(), left)

    async def disconnect(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's gateway connection of ``shard`` (None: of every shard); 4000: it
        may resume; 4004: it must not."""
        for shard_id, session in list(self._live.items()):
            if shard in (None, shard_id) and session.ws is not None:
                await session.ws.close(code=code)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        try:
            await ws.send_str(
                json.dumps(
                    {"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
                )
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                data = frame.get("d")
                if op == 1:
                    # A real gateway answers after a network round trip; an instant ACK can
                    # beat discord.py's own note of when it sent the beat, which it then
                    # reports as a heartbeat tens of seconds late.
                    await asyncio.sleep(0.05)
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    if data.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard = self._shard_identified(data.get("shard"))
                    if isinstance(shard, tuple):
                        await ws.close(code=shard[0], message=shard[1].encode())
                        break
                    session = await self._identify(ws, int(data.get("intents") or 0), shard)
                elif op == 6:
                    session = await self._resume(ws, data)
                elif op == 8:
                    await self._send_members(ws, session, data)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                session.ready = False
                if self._live.get(session.shard) is session:
                    del self._live[session.shard]
                    self._live_changed.set()
        return ws

    def _shard_identified(self, given: Any) -> int | tuple[int, str] | None:
        """The shard an IDENTIFY asks for (None: it gave none, which one shard allows), or
        the close code and reason Discord answers: 4010 for a malformed shard, an id outside
        the count or a count other than the fake's (Discord accepts more shards than it
        asks for; the fake routes by one count), 4011 for too few shards."""
        if given is None:
            return None if self.shards == 1 else (4011, "Sharding required.")
        if not isinstance(given, list) or len(given) != 2 or not all(type(n) is int for n in given):
            return (4010, "Invalid shard.")
        shard_id, count = given
        if count < self.shards and count >= 1 and 0 <= shard_id < count:
            return (4011, "Sharding required.")
        if count != self.shards or not 0 <= shard_id < count:
            return (4010, "Invalid shard.")
        return int(shard_id)

    def _on_shard(self, guild_id: int, shard: int) -> bool:
        return (guild_id >> 22) % self.shards == shard

    async def _identify(
        self, ws: web.WebSocketResponse, intents: int, shard: int | None
    ) -> _Session:
        self.identify_count += 1
        shard_id = shard or 0
        session = _Session(id=secrets.token_hex(16), ws=ws, intents=intents, shard=shard_id)
        self._sessions[session.id] = session
        guilds = [g for g in list(self.guilds.values()) if self._on_shard(g.id, shard_id)]
        ready: JSON = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        if shard is not None:
            ready["shard"] = [shard, self.shards]
        await self._send(session, "READY", ready)
        for guild in guilds:
            if guild.id in self.guilds:
                await self._send(session, "GUILD_CREATE", guild.to_json())
        session.ready = True
        self._live[shard_id] = session
        self._live_changed.set()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> _Session | None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.token:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        self.resume_count += 1
        session.ws = ws
        await self._send(session, "RESUMED", {})
        session.ready = True
        self._live[session.shard] = session
        self._live_changed.set()
        return session

    async def _send_members(
        self, ws: web.WebSocketResponse, session: _Session | None, data: JSON
    ) -> None:
        if session is None:
            return
        guild_ids = data.get("guild_id")
        for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.guilds.get(int(str(gid)))
            if guild is None or not self._on_shard(guild.id, session.shard):
                continue
            chunk = {
                "guild_id": str(guild.id),
                "members": [m.to_json() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
                "presences": [],
                "not_found": [],
            }
            await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, session: _Session, event: str | None, data: JSON | None = None) -> None:
        """Send queued events, then this one (None: only the queue), in order."""
        async with session.send_lock:
            ws = session.ws
            if ws is None or ws.closed:
                session.queue.clear()
                raise ConnectionError("the bot's gateway connection is closed")
            pending = [*session.queue, *([(event, data)] if event is not None else [])]
            session.queue.clear()
            for name, payload in pending:
                session.seq += 1
                await ws.send_str(json.dumps({"op": 0, "t": name, "s": session.seq, "d": payload}))

    def _dispatch_nowait(
        self,
        event: str,
        make: Callable[[], JSON],
        *,
        intent: int = 0,
        guild_id: int | None = None,
    ) -> None:
        """Queue an event at once (so it precedes any later interaction) and flush it soon,
        on the shard of ``guild_id`` (None: a DM's, shard 0)."""
        session = self._live.get(0 if guild_id is None else (guild_id >> 22) % self.shards)
        if session is None or not session.ready:
            return
        if intent and not session.intents & intent:
            return
        session.queue.append((event, make()))

        async def flush() -> None:
            with contextlib.suppress(ConnectionError):
                await self._send(session, None)

        task = asyncio.get_running_loop().create_task(flush())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _live_session(self, timeout: float, shard: int = 0) -> _Session:
        await self.wait_ready(timeout, shards=[shard])
        return self._live[shard]

    # ---------------------------------------------------------------- interactions

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        check_permissions: bool = True,
        **values: Any,
    ) -> Interaction:
        """The user runs `/command` (space-separated path, e.g. "rummy new") in `channel`.

        Options by keyword (or `options=` when an option name clashes with these
        parameters); a USER option takes a `User`, a CHANNEL option a `Channel`, a ROLE
        option a `Role`. Values are checked against the registered command as Discord's
        client would (unknown or missing options, choices, ranges raise ValueError). With
        `check_permissions`, a command with `default_member_permissions` the user lacks
        raises PermissionError, since Discord would not offer it.
        """
        given = {**values, **(options or {})}
        if channel.is_thread and channel.archived:
            raise ValueError(f"#{channel.name} is archived: Discord offers no commands there")
        data = self._command_data(user, channel, command, given, check_permissions, None)
        return await self._dispatch_interaction(2, user, channel, data, locale=locale)

    def _command_data(
        self,
        user: User,
        channel: Channel,
        command: str,
        given: Mapping[str, Any],
        check_permissions: bool,
        focused: str | None,
    ) -> JSON:
        """The `data` of a command or autocomplete interaction, checked as a client would."""
        cmd, path_opts, defs = self._resolve_command(channel, command)
        self._check_command_access(cmd, user, channel, check_permissions)
        resolved: JSON = {}
        built = self._build_options(defs, given, resolved, channel, focused=focused)
        data: JSON = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": _nest(path_opts, built),
        }
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        focused: str,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        timeout: float = PATIENCE,
        **values: Any,
    ) -> list[JSON]:
        """The user types in option `focused` of `/command`; returns the offered choices.

        The focused option's value is the typed text (a string, as Discord sends it);
        other options filled in so far are given by keyword like in `slash`.
        """
        ix = await self.autocomplete_interaction(
            user, channel, command, focused=focused, options=options, locale=locale, **values
        )
        response = await ix.response(timeout)
        if response.type != 8:
            raise AssertionError(f"autocomplete answered with type {response.type}")
        return response.choices

    async def autocomplete_interaction(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        focused: str,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        **values: Any,
    ) -> Interaction:
        """Like `autocomplete` but returns the `Interaction` (for latency or rejections)."""
        given = {**values, **(options or {})}
        data = self._command_data(user, channel, command, given, False, focused)
        return await self._dispatch_interaction(4, user, channel, data, locale=locale)

    async def click(
        self, user: User, message: Message, custom_id: str, *, locale: str | None = None
    ) -> Interaction:
        """The user presses the button `custom_id` on `message` (as it is now)."""
        component = self._component_for(user, message, custom_id, 2)
        if component.get("style") == 5:
            raise ValueError("a link button opens a URL; it sends no interaction")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch_interaction(
            3, user, message.channel, data, message=message, locale=locale
        )

    async def forged_click(self, user: User, channel: Channel, custom_id: str) -> Interaction:
        """A press of a button `custom_id` that no message of the bot carries, in `channel`
        (a DM channel too): what a modified client could send, on a made-up message of the
        bot showing that one button (stored like the bot's, so the bot can answer on it).
        Discord refuses these, so the fake checks nothing but membership; the bot must not
        trust a custom id either."""
        button = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
        made_up = Message(
            id=self.ids.next(),
            channel=channel,
            author=self.bot_user,
            components=[{"type": 1, "components": [button]}],
        )
        self._store(made_up)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch_interaction(3, user, channel, data, message=made_up)

    async def redeliver(self, ix: Interaction, timeout: float = PATIENCE) -> None:
        """Send `ix`'s INTERACTION_CREATE to the bot again, unchanged (same id and token), as a
        gateway replaying events after a reconnect may: the bot must act on it once. A
        second answer is refused (40060), as on Discord. It goes where the first went: its
        server's shard, or shard 0 for a DM."""
        session = await self._live_session(timeout, self.shard_of(ix.channel.guild))
        await self._send(session, "INTERACTION_CREATE", ix.payload)

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: Iterable[str],
        *,
        locale: str | None = None,
    ) -> Interaction:
        """The user picks `values` in the string select `custom_id` on `message`."""
        component = self._component_for(user, message, custom_id, 3)
        chosen = list(values)
        offered = {o["value"] for o in component.get("options", [])}
        if not set(chosen) <= offered:
            raise ValueError(f"values {sorted(set(chosen) - offered)} are not offered")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(chosen) <= high:
            raise ValueError(f"{len(chosen)} values; the select takes {low} to {high}")
        data = {"custom_id": custom_id, "component_type": 3, "values": chosen}
        return await self._dispatch_interaction(
            3, user, message.channel, data, message=message, locale=locale
        )

    async def submit_modal(
        self, user: User, modal_of: Interaction, values: Mapping[str, str | list[str]]
    ) -> Interaction:
        """The user submits the modal the bot opened on `modal_of`.

        `values` maps a text input's custom id to its text (or a select's to its values);
        inputs left out are sent empty. The submitted rows and labels mirror the modal's.
        """
        if modal_of.modal is None:
            raise ValueError("the bot did not answer that interaction with a modal")
        unknown = set(values) - {
            str(c.get("custom_id")) for c in _walk(modal_of.modal.get("components", []))
        }
        if unknown:
            raise ValueError(f"the modal has no inputs {sorted(unknown)}")

        def answer(item: JSON) -> JSON:
            cid = item.get("custom_id")
            if item.get("type") == 3:
                chosen = values.get(str(cid), [])
                return {"type": 3, "custom_id": cid, "values": list(chosen)}
            return {"type": item.get("type"), "custom_id": cid, "value": values.get(str(cid), "")}

        submitted: list[JSON] = []
        for top in modal_of.modal.get("components", []):
            if top.get("type") == 1:
                inner = [answer(c) for c in top.get("components", [])]
                submitted.append({"type": 1, "components": inner})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                submitted.append({"type": 18, "component": answer(top["component"])})
        data = {"custom_id": modal_of.modal["custom_id"], "components": submitted}
        return await self._dispatch_interaction(
            5, user, modal_of.channel, data, message=modal_of.message
        )

    def _component_for(self, user: User, message: Message, custom_id: str, kind: int) -> JSON:
        current = self._messages.get(message.id)
        if current is None or current.deleted:
            raise ValueError(f"message {message.id} does not exist (deleted?)")
        component = current.component(custom_id)
        if component is None:
            raise ValueError(
                f"no component {custom_id!r} on message {message.id}; has {current.custom_ids()}"
            )
        if component.get("type") != kind:
            raise ValueError(f"component {custom_id!r} is of type {component.get('type')}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        if current.channel.recipient is not None and current.channel.recipient is not user:
            raise ValueError("only the DM's recipient sees that message")
        if current.ephemeral:
            owner = self._by_id.get(current.interaction_id or 0)
            if owner is not None and owner.user is not user:
                raise ValueError("only the interaction's user sees that ephemeral message")
        return component

    def _resolve_command(
        self, channel: Channel, command: str
    ) -> tuple[JSON, list[JSON], list[JSON]]:
        names = command.split()
        if not names:
            raise ValueError("empty command")
        guild = channel.guild
        cmd = None
        pools = ([self.guild_commands.get(guild.id, [])] if guild else []) + [self.global_commands]
        for pool in pools:
            for c in pool:
                if c["name"] == names[0] and c.get("type", 1) == 1:
                    cmd = c
                    break
            if cmd:
                break
        if cmd is None:
            raise ValueError(f"no registered command /{names[0]} visible in {channel.name}")
        path: list[JSON] = []
        defs: list[JSON] = cmd.get("options") or []
        for name in names[1:]:
            sub = next((o for o in defs if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: no subcommand {name!r}")
            path.append({"type": sub["type"], "name": name})
            defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{command} is a group; name a subcommand")
        return cmd, path, defs

    def _check_command_access(
        self, cmd: JSON, user: User, channel: Channel, check_permissions: bool
    ) -> None:
        contexts = cmd.get("contexts")
        if channel.is_dm and contexts is not None and 1 not in contexts:
            raise ValueError(f"/{cmd['name']} is not available in DMs")
        if channel.is_dm and contexts is None and cmd.get("dm_permission") is False:
            raise ValueError(f"/{cmd['name']} is not available in DMs")
        needed = cmd.get("default_member_permissions")
        if check_permissions and needed is not None and channel.guild is not None:
            have = channel.guild.permissions_in(user, channel)
            if int(needed) & ~have:
                raise PermissionError(f"{user.name} lacks the permissions /{cmd['name']} needs")

    def _build_options(
        self,
        defs: list[JSON],
        given: Mapping[str, Any],
        resolved: JSON,
        channel: Channel,
        *,
        focused: str | None,
    ) -> list[JSON]:
        by_name = {d["name"]: d for d in defs}
        unknown = set(given) - set(by_name)
        if focused is not None and focused not in by_name:
            unknown.add(focused)
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}; known: {sorted(by_name)}")
        out: list[JSON] = []
        for d in defs:
            name = d["name"]
            if name == focused:
                if not d.get("autocomplete"):
                    raise ValueError(f"option {name!r} has no autocomplete")
                out.append(
                    {
                        "name": name,
                        "type": d["type"],
                        "value": str(given.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if name not in given:
                if d.get("required") and focused is None:
                    raise ValueError(f"required option {name!r} missing")
                continue
            value = self._option_value(d, given[name], resolved, channel)
            out.append({"name": name, "type": d["type"], "value": value})
        return out

    def _option_value(self, d: JSON, value: Any, resolved: JSON, channel: Channel) -> Any:
        kind = d["type"]
        name = d["name"]
        if kind == 3:
            if not isinstance(value, str):
                raise ValueError(f"option {name!r} takes a string")
            checked = self.clients_check_ranges
            if checked and "min_length" in d and len(value) < d["min_length"]:
                raise ValueError(f"option {name!r} shorter than {d['min_length']}")
            if checked and len(value) > d.get("max_length", 6000):
                raise ValueError(f"option {name!r} longer than {d.get('max_length', 6000)}")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name!r} takes an integer")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"option {name!r} takes a number")
            value = float(value)
        elif kind == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} takes a boolean")
        elif kind in (6, 9) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.to_json()
            guild = channel.guild
            member = guild.members.get(value.id) if guild else None
            if guild is not None and member is not None:
                m = member.to_json(guild.permissions_in(value, channel))
                del m["user"]
                resolved.setdefault("members", {})[str(value.id)] = m
            return str(value.id)
        elif kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
            return str(value.id)
        elif kind == 7 and isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.to_json(),
                "permissions": ALL_PERMISSIONS_STR,
            }
            return str(value.id)
        else:
            raise ValueError(f"option {name!r} of type {kind}: cannot send {value!r}")
        if kind in (4, 10) and self.clients_check_ranges:
            if "min_value" in d and value < d["min_value"]:
                raise ValueError(f"option {name!r} below {d['min_value']}")
            if "max_value" in d and value > d["max_value"]:
                raise ValueError(f"option {name!r} above {d['max_value']}")
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices")
        return value

    async def _dispatch_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: JSON,
        *,
        message: Message | None = None,
        locale: str | None = None,
        timeout: float = PATIENCE,
    ) -> Interaction:
        session = await self._live_session(timeout, self.shard_of(channel.guild))
        ix_id = self.ids.next()
        payload: JSON = {
            "id": str(ix_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        guild = channel.guild
        if guild is not None:
            if user.id not in guild.members:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            perms = guild.permissions_in(user, channel)
            if not perms & VIEW_CHANNEL:
                raise PermissionError(f"{user.name} cannot see #{channel.name}")
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=guild.members[user.id].to_json(perms),
                app_permissions=str(guild.permissions_in(self.bot_user, channel)),
                channel={**channel.to_json(), "permissions": str(perms)},
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.to_json(),
                channel=channel.to_json(),
                app_permissions=ALL_PERMISSIONS_STR,
                authorizing_integration_owners={"0": str(user.id)},
                context=1,
            )
        if message is not None:
            payload["message"] = message.to_json()
        ix = Interaction(
            self, id=ix_id, kind=kind, user=user, channel=channel, payload=payload, message=message
        )
        payload["token"] = ix.token
        self.interactions.append(ix)
        self._by_token[ix.token] = ix
        self._by_id[ix.id] = ix
        ix.created = time.monotonic()
        await self._send(session, "INTERACTION_CREATE", payload)
        return ix

    # ---------------------------------------------------------------- REST plumbing

    async def _api(self, request: web.Request) -> web.StreamResponse:
        now = time.monotonic()
        path = "/" + request.match_info["tail"]
        method = request.method
        found = self._routes.match(method, path)
        if found is None:
            self.unhandled.append(f"{method} {path}")
            log.warning("fake Discord: unhandled %s %s", method, path)
            self.requests.append(RequestRecord(method, "?", path, now, True, 404, time.monotonic()))
            return _json(404, {"message": "404: Not Found", "code": 0})
        route, handler, params = found
        counted = not route.startswith(("POST /interactions/", "GET /webhooks/", "POST /webhooks/"))
        counted = counted and not route.startswith(("PATCH /webhooks/", "DELETE /webhooks/"))
        record = RequestRecord(method, route, path, now, counted)
        if "interaction_id" in params and params["interaction_id"].isdigit():
            record.interaction_id = int(params["interaction_id"])
        elif "token" in params and params["token"] in self._by_token:
            record.interaction_id = self._by_token[params["token"]].id
        self.requests.append(record)
        headers: dict[str, str] = {}
        if counted and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._finish(record, 401, {"message": "401: Unauthorized", "code": 0}, headers)
        bucket_key = (route, _major(params))
        limit = self.route_limits.get(route)
        bucket = self._buckets.get(bucket_key)
        if bucket is None:
            per_limit, per = limit if limit else (self.global_limit, 1.0)
            bucket = self._buckets[bucket_key] = Window(per_limit, per)
        if self.rate_limits and counted:
            wait = self._global.retry_after(now)
            if wait > 0:
                record.limited = True
                return self._finish(
                    record,
                    429,
                    {
                        "message": "You are being rate limited.",
                        "retry_after": round(wait, 3),
                        "global": True,
                    },
                    {
                        "Retry-After": str(max(1, round(wait + 0.5))),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                        "Via": "1.1 google",
                    },
                )
            if limit is not None:
                wait = bucket.retry_after(now)
                if wait > 0:
                    record.limited = True
                    return self._finish(
                        record,
                        429,
                        {
                            "message": "You are being rate limited.",
                            "retry_after": round(wait, 3),
                            "global": False,
                        },
                        {
                            **self._bucket_headers(route, bucket, now),
                            "Retry-After": str(max(1, round(wait + 0.5))),
                            "X-RateLimit-Scope": "user",
                            "Via": "1.1 google",
                        },
                    )
            self._global.hit(now)
        bucket.hit(now)
        headers.update(self._bucket_headers(route, bucket, now))
        for hold in tuple(self.holds):
            waiting = hold(record)
            if waiting is not None:
                await waiting
        for fault in tuple(self.faults):
            injected = fault(record)
            if injected is not None:
                record.error_code = injected.code
                return self._finish(record, injected.status, injected.body(), headers)
        try:
            answer = await handler(request, **params)
        except ApiError as error:
            record.error_code = error.code
            return self._finish(record, error.status, error.body(), headers)
        except Exception as error:
            # A fault of the fake itself: answer at once (a 500 would make discord.py retry
            # for seconds) and keep it for the `fake` fixture to report.
            log.exception("fake Discord failed on %s %s", method, path)
            self.internal_errors.append(f"{method} {path}: {error!r}")
            body = {"message": f"fake Discord failed: {error!r}", "code": 0}
            return self._finish(record, 400, body, headers)
        return self._finish(record, answer.status, answer.body, headers)

    def _bucket_headers(self, route: str, bucket: Window, now: float) -> dict[str, str]:
        """The bucket's state; with rate limits off, a bucket discord.py never waits on."""
        reset_after = bucket.reset_after(now)
        limit, remaining = bucket.limit, bucket.remaining(now)
        if not self.rate_limits:
            limit, remaining = 1_000_000, 999_999
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"{abs(hash(route)):x}",
        }

    def _finish(
        self, record: RequestRecord, status: int, body: Any, headers: dict[str, str]
    ) -> web.Response:
        record.status = status
        record.done = time.monotonic()
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        return _json(status, body, headers)

    async def _cdn(self, request: web.Request) -> web.Response:
        for msg in self._messages.values():
            for a in msg.attachments:
                if str(a.id) == request.match_info["id"]:
                    return web.Response(
                        body=a.data, content_type=a.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, Attachment]]:
        """A JSON body, or multipart `payload_json` plus `files[n]` (bytes kept)."""
        files: dict[int, Attachment] = {}
        raw = await request.read()
        if request.content_type.startswith("multipart/"):
            payload: JSON = {}
            for name, filename, data in _form_parts(request.headers["Content-Type"], raw):
                if name == "payload_json":
                    payload = _loads(data)
                    continue
                m = re.fullmatch(r"files\[(\d+)\]", name)
                if m is None:
                    continue
                filename = filename or f"file{m.group(1)}"
                if len(data) > self.attachment_size_limit:
                    raise ApiError(413, 40005, "Request entity too large")
                ctype = mimetypes.guess_type(filename)[0]
                files[int(m.group(1))] = Attachment(
                    id=self.ids.next(), filename=filename, data=data, content_type=ctype
                )
            return payload, files
        if not raw:
            return {}, files
        body = _loads(raw)
        return (body if isinstance(body, dict) else {"_": body}), files

    # ---------------------------------------------------------------- messages

    def _message_event(self, event: str, msg: Message) -> None:
        """MESSAGE_CREATE / UPDATE / DELETE, as Discord sends them for the bot's own messages."""
        guild = msg.channel.guild
        intent = GUILD_MESSAGES_INTENT if guild is not None else DIRECT_MESSAGES_INTENT
        where = None if guild is None else guild.id
        if event == "delete":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if guild is not None:
                data["guild_id"] = str(guild.id)
            self._dispatch_nowait("MESSAGE_DELETE", lambda: data, intent=intent, guild_id=where)
            return

        def make() -> JSON:
            data = msg.to_json()
            if guild is not None:
                member = guild.members[self.bot_user.id].to_json()
                del member["user"]
                data["member"] = member
            return data

        name = "MESSAGE_CREATE" if event == "create" else "MESSAGE_UPDATE"
        self._dispatch_nowait(name, make, intent=intent, guild_id=where)

    def _store(self, msg: Message) -> None:
        self._messages[msg.id] = msg
        self._channel_messages.setdefault(msg.channel.id, []).append(msg)
        self._notify("create", msg)

    def _notify(self, event: str, msg: Message) -> None:
        for listener in self._listeners:
            listener(event, msg)
        if self.message_events and not msg.ephemeral:
            self._message_event(event, msg)
        self._changed.set()
        ix = self._by_id.get(msg.interaction_id or 0)
        if ix is not None:
            ix._touch()

    def _attachments(
        self, body: JSON, files: dict[int, Attachment], existing: list[Attachment], *, edit: bool
    ) -> list[Attachment]:
        listed = body.get("attachments")
        if listed is None:
            new = [files[i] for i in sorted(files)]
            return [*existing, *new] if edit else new
        out: list[Attachment] = []
        by_id = {str(a.id): a for a in existing}
        for entry in listed:
            key = str(entry.get("id"))
            if key in by_id:
                out.append(by_id[key])
            elif key.isdigit() and int(key) in files:
                att = files[int(key)]
                if entry.get("filename"):
                    att.filename = entry["filename"]
                att.description = entry.get("description")
                out.append(att)
            else:
                raise ApiError.form(
                    [(("attachments",), "ATTACHMENT_NOT_FOUND", f"Unknown attachment {key}")]
                )
        for att in out:
            att.url = f"{self.base_url}/attachments/{att.id}/{att.filename}"
        return out

    def _new_message(
        self,
        channel: Channel,
        body: JSON,
        files: dict[int, Attachment],
        *,
        interaction: Interaction | None = None,
        flags_allowed: int = KEPT_FLAGS,
        extra_flags: int = 0,
    ) -> Message:
        problems = check_message(body)
        if problems:
            raise ApiError.form(problems)
        attachments = self._attachments(body, files, [], edit=False)
        if is_empty(body, len(files), len(attachments)) and not extra_flags & LOADING:
            raise ApiError(400, 50006, "Cannot send an empty message")
        msg = Message(
            id=self.ids.next(),
            channel=channel,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=attachments,
            flags=(int(body.get("flags") or 0) & flags_allowed) | extra_flags,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
        )
        msg.pings = self._pings(body, msg)
        return msg

    def _pings(self, body: JSON, msg: Message) -> list[int]:
        """Who a new message notifies: mentioned users that `allowed_mentions` lets through.

        Ephemeral messages and edits notify nobody, as on Discord.
        """
        if msg.ephemeral:
            return []
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", body.get("content") or "")]
        allowed = body.get("allowed_mentions")
        if allowed is not None:
            parse = allowed.get("parse") or []
            listed = {int(u) for u in allowed.get("users") or []}
            ids = [i for i in ids if "users" in parse or i in listed]
        out: list[int] = []
        for i in ids:
            if i in self.users and i not in out:
                out.append(i)
        return out

    def _edit_message(self, msg: Message, body: JSON, files: dict[int, Attachment]) -> None:
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if not msg.ephemeral:
            _check_active(msg.channel)
        merged_flags = int(body.get("flags") or 0) | (msg.flags & KEPT_FLAGS)
        problems = check_message({**body, "flags": merged_flags})
        if problems:
            raise ApiError.form(problems)
        attachments = self._attachments(body, files, msg.attachments, edit=True)
        after = {
            "content": body.get("content", msg.content),
            "embeds": body.get("embeds", msg.embeds),
            "components": body.get("components", msg.components),
        }
        if is_empty(after, 0, len(attachments)):
            raise ApiError(400, 50006, "Cannot send an empty message")
        msg.versions.append(msg.content)
        msg.content = after["content"] or ""
        msg.embeds = list(after["embeds"] or [])
        msg.components = list(after["components"] or [])
        msg.attachments = attachments
        if "flags" in body and body["flags"] is not None:
            msg.flags = (msg.flags & ~4) | (int(body["flags"]) & 4)
        if msg.loading:
            msg.flags &= ~LOADING
        else:
            msg.edits += 1
            msg.edited = time.monotonic()
        self._notify("edit", msg)

    def _delete_message(self, msg: Message) -> None:
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        msg.deleted = True
        self._notify("delete", msg)

    def _channel(self, channel_id: str) -> Channel:
        channel = self.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, channel: Channel, message_id: str) -> Message:
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _check_send(self, channel: Channel, files: int) -> None:
        if channel.recipient is not None:
            if not channel.recipient.dm_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        guild = channel.guild
        assert guild is not None
        perms = guild.permissions_in(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not perms & needed or (files and not perms & ATTACH_FILES):
            raise ApiError(403, 50013, "Missing Permissions")

    async def _rest_post_message(self, request: web.Request, channel_id: str) -> Answer:
        channel = self._channel(channel_id)
        body, files = await self._read_body(request)
        self._check_send(channel, len(files))
        if channel.archived and channel.locked:
            raise ApiError(400, 50083, "Operation cannot be performed on an archived thread")
        msg = self._new_message(channel, body, files, flags_allowed=4 | 4096 | (1 << 15))
        if channel.archived:
            # Sending a message unarchives a thread that is not locked, as on Discord.
            assert channel.guild is not None
            channel.guild.set_thread_archived(channel, False)
        self._store(msg)
        return Answer(200, msg.to_json())

    async def _rest_get_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> Answer:
        msg = self._channel_message(self._channel(channel_id), message_id)
        return Answer(200, msg.to_json())

    async def _rest_patch_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> Answer:
        channel = self._channel(channel_id)
        msg = self._channel_message(channel, message_id)
        body, files = await self._read_body(request)
        _check_active(channel)  # an archived thread's messages stay as they are
        if files and channel.guild is not None:
            self._check_send(channel, len(files))
        self._edit_message(msg, body, files)
        return Answer(200, msg.to_json())

    async def _rest_delete_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> Answer:
        channel = self._channel(channel_id)
        msg = self._channel_message(channel, message_id)
        if channel.locked and channel.archived:
            _check_active(channel)
        self._delete_message(msg)
        return Answer(204)

    async def _rest_history(self, request: web.Request, channel_id: str) -> Answer:
        """Newest first, like Discord; `before`, `after` and `limit` (1..100) honoured."""
        channel = self._channel(channel_id)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        found = self.messages(channel)
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])]
            found = found[:limit]
        found = found[-limit:]
        return Answer(200, [m.to_json() for m in reversed(found)])

    async def _rest_get_channel(self, request: web.Request, channel_id: str) -> Answer:
        return Answer(200, self._channel(channel_id).to_json())

    async def _rest_typing(self, request: web.Request, channel_id: str) -> Answer:
        self._channel(channel_id)
        return Answer(204)

    async def _rest_open_dm(self, request: web.Request) -> Answer:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id") or 0))
        if user is None or user.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return Answer(200, self.dm_channel(user).to_json())

    # ---------------------------------------------------------------- threads

    async def _rest_start_thread(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> Answer:
        """Start Thread from Message: a public thread sharing the message's id."""
        channel = self._channel(channel_id)
        body, _ = await self._read_body(request)
        guild = channel.guild
        if guild is None or channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        msg = self._channel_message(channel, message_id)
        perms = guild.permissions_in(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not perms & CREATE_PUBLIC_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        problems = check_thread(body, creating=True)
        if problems:
            raise ApiError.form(problems)
        if msg.thread is not None or msg.id in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        if len(guild.active_threads()) >= guild.max_active_threads:
            raise ApiError(400, 160006, "Maximum number of active threads reached")
        thread = guild._start_thread(
            msg.id,
            channel,
            str(body["name"]),
            self.bot_user,
            int(body.get("auto_archive_duration") or 1440),
        )
        thread.rate_limit_per_user = int(body.get("rate_limit_per_user") or 0)
        msg.thread = thread
        self._notify("edit", msg)
        return Answer(201, thread.to_json())

    async def _rest_patch_channel(self, request: web.Request, channel_id: str) -> Answer:
        """Modify Channel: a thread's name, archived, locked and auto-archive duration (as its
        creator or with Manage Threads), or a text channel's name (Manage Channels)."""
        channel = self._channel(channel_id)
        body, _ = await self._read_body(request)
        guild = channel.guild
        if guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        perms = guild.permissions_in(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not channel.is_thread:
            if not perms & MANAGE_CHANNELS:
                raise ApiError(403, 50013, "Missing Permissions")
            if "name" in body:
                channel.name = str(body["name"])
            self._guild_event(guild, "CHANNEL_UPDATE", channel.to_json())
            return Answer(200, channel.to_json())
        problems = check_thread(body, creating=False)
        if problems:
            raise ApiError.form(problems)
        if not perms & MANAGE_THREADS:
            reopening = set(body) == {"archived"} and body["archived"] is False
            creator = channel.owner is self.bot_user
            if "locked" in body or "rate_limit_per_user" in body:
                raise ApiError(403, 50013, "Missing Permissions")
            if not creator and not (reopening and not channel.locked):
                raise ApiError(403, 50013, "Missing Permissions")
            if reopening and channel.locked:
                # Only Manage Threads unarchives a locked thread, its creator included.
                raise ApiError(403, 50013, "Missing Permissions")
        if channel.archived and body.get("archived") is not False:
            raise ApiError(400, 50083, "Operation cannot be performed on an archived thread")
        if "name" in body:
            channel.name = str(body["name"])
        if "auto_archive_duration" in body:
            channel.auto_archive_duration = int(body["auto_archive_duration"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "rate_limit_per_user" in body:
            channel.rate_limit_per_user = int(body["rate_limit_per_user"] or 0)
        if "archived" in body and bool(body["archived"]) != channel.archived:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = iso_now()
        self._guild_event(guild, "THREAD_UPDATE", channel.to_json())
        self._changed.set()
        return Answer(200, channel.to_json())

    # ---------------------------------------------------------------- users, app, guilds

    async def _rest_get_me(self, request: web.Request) -> Answer:
        return Answer(
            200, {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}
        )

    async def _rest_get_application(self, request: web.Request) -> Answer:
        return Answer(
            200,
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.to_json(),
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "team": None,
                "bot": self.bot_user.to_json(),
            },
        )

    async def _rest_get_user(self, request: web.Request, user_id: str) -> Answer:
        user = self.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return Answer(200, user.to_json())

    def _guild(self, guild_id: str) -> Guild:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _rest_get_guild(self, request: web.Request, guild_id: str) -> Answer:
        data = self._guild(guild_id).to_json()
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key, None)
        return Answer(200, data)

    async def _rest_get_member(self, request: web.Request, guild_id: str, user_id: str) -> Answer:
        guild = self._guild(guild_id)
        member = guild.members.get(int(user_id)) if user_id.isdigit() else None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return Answer(200, member.to_json())

    async def _rest_get_guild_channels(self, request: web.Request, guild_id: str) -> Answer:
        guild = self._guild(guild_id)
        return Answer(200, [c.to_json() for c in guild.text_channels()])

    async def _rest_get_gateway(self, request: web.Request) -> Answer:
        return Answer(
            200,
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": self.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            },
        )

    # ---------------------------------------------------------------- commands

    def _check_app(self, application_id: str) -> None:
        if application_id != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def _echo_command(self, cmd: JSON, guild_id: int | None, old: list[JSON]) -> JSON:
        previous = next(
            (c for c in old if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)),
            None,
        )
        out = {
            **cmd,
            "id": previous["id"] if previous else str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "type": cmd.get("type", 1),
            "default_member_permissions": cmd.get("default_member_permissions"),
            "nsfw": cmd.get("nsfw", False),
        }
        if cmd.get("type", 1) == 1:
            out.setdefault("description", "")
        else:
            out["description"] = ""
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    async def _rest_put_commands(self, request: web.Request, application_id: str) -> Answer:
        self._check_app(application_id)
        body = _loads(await request.read() or b"[]")
        problems = check_commands(body)
        if problems:
            raise ApiError.form(problems)
        self.global_commands = [self._echo_command(c, None, self.global_commands) for c in body]
        return Answer(200, self.global_commands)

    async def _rest_get_commands(self, request: web.Request, application_id: str) -> Answer:
        self._check_app(application_id)
        return Answer(200, self.global_commands)

    async def _rest_put_guild_commands(
        self, request: web.Request, application_id: str, guild_id: str
    ) -> Answer:
        self._check_app(application_id)
        guild = self._guild(guild_id)
        body = _loads(await request.read() or b"[]")
        problems = check_commands(body)
        if problems:
            raise ApiError.form(problems)
        old = self.guild_commands.get(guild.id, [])
        self.guild_commands[guild.id] = [self._echo_command(c, guild.id, old) for c in body]
        return Answer(200, self.guild_commands[guild.id])

    async def _rest_get_guild_commands(
        self, request: web.Request, application_id: str, guild_id: str
    ) -> Answer:
        self._check_app(application_id)
        return Answer(200, self.guild_commands.get(self._guild(guild_id).id, []))

    def _command_pool(self, application_id: str, guild_id: str | None) -> list[JSON]:
        self._check_app(application_id)
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(self._guild(guild_id).id, [])

    async def _rest_post_command(
        self, request: web.Request, application_id: str, guild_id: str | None = None
    ) -> Answer:
        pool = self._command_pool(application_id, guild_id)
        body = _loads(await request.read() or b"{}")
        problems = check_commands([body])
        if problems:
            raise ApiError.form(problems)
        gid = int(guild_id) if guild_id is not None else None
        echoed = self._echo_command(body, gid, pool)
        for i, cmd in enumerate(pool):
            if cmd["id"] == echoed["id"]:
                pool[i] = echoed
                return Answer(200, echoed)
        pool.append(echoed)
        return Answer(201, echoed)

    async def _rest_get_command(
        self,
        request: web.Request,
        application_id: str,
        command_id: str,
        guild_id: str | None = None,
    ) -> Answer:
        pool = self._command_pool(application_id, guild_id)
        for cmd in pool:
            if cmd["id"] == command_id:
                return Answer(200, cmd)
        raise ApiError(404, 10063, "Unknown application command")

    async def _rest_delete_command(
        self,
        request: web.Request,
        application_id: str,
        command_id: str,
        guild_id: str | None = None,
    ) -> Answer:
        pool = self._command_pool(application_id, guild_id)
        for i, cmd in enumerate(pool):
            if cmd["id"] == command_id:
                del pool[i]
                return Answer(204)
        raise ApiError(404, 10063, "Unknown application command")

    # ---------------------------------------------------------------- interaction answers

    def _interaction(self, interaction_id: str, token: str) -> Interaction:
        ix = self._by_token.get(token)
        if ix is None or str(ix.id) != interaction_id:
            raise ApiError(404, 10062, "Unknown interaction")
        return ix

    async def _rest_callback(self, request: web.Request, interaction_id: str, token: str) -> Answer:
        ix = self._interaction(interaction_id, token)
        now = time.monotonic()
        try:
            body, files = await self._read_body(request)
            if ix.first is not None:
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            if (
                self.interaction_deadline is not None
                and now - ix.created > self.interaction_deadline
            ):
                raise ApiError(404, 10062, "Unknown interaction")
            kind = body.get("type")
            data = body.get("data") or {}
            allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,), 5: (4, 5, 6, 7)}[ix.kind]
            if kind not in allowed:
                raise ApiError.form(
                    [
                        (
                            ("type",),
                            "INTERACTION_RESPONSE_TYPE_INVALID",
                            f"Invalid response type {kind}",
                        )
                    ]
                )
            message: Message | None = None
            if kind == 4:
                message = self._new_message(
                    ix.channel, data, files, interaction=ix, flags_allowed=KEPT_FLAGS | EPHEMERAL
                )
                self._store(message)
            elif kind == 5:
                message = self._new_message(
                    ix.channel,
                    {},
                    {},
                    interaction=ix,
                    flags_allowed=EPHEMERAL,
                    extra_flags=LOADING | (int(data.get("flags") or 0) & EPHEMERAL),
                )
                self._store(message)
            elif kind in (6, 7):
                message = self._current(ix.message)
                if message is None:
                    raise ApiError(404, 10008, "Unknown Message")
                if kind == 7:
                    self._edit_message(message, data, files)
            elif kind == 8:
                problems = check_choices(data.get("choices"))
                if problems:
                    raise ApiError.form(problems)
            elif kind == 9:
                problems = check_modal(data)
                if problems:
                    raise ApiError.form(problems)
                ix.modal = data
        except ApiError as error:
            ix.rejected.append(error)
            ix._touch()
            raise
        ix.original = message
        ix.first = Response(type=kind, data=data, at=now, message=message)
        ix._answered.set()
        ix._touch()
        out: JSON = {
            "interaction": {
                "id": str(ix.id),
                "type": ix.kind,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            out["interaction"]["response_message_id"] = str(message.id)
            if kind in (4, 5, 7):
                out["resource"] = {"type": kind, "message": message.to_json()}
        elif kind == 8:
            out["resource"] = {"type": kind}
        if request.query.get("with_response") in ("1", "true", "True"):
            return Answer(200, out)
        return Answer(204)

    def _current(self, msg: Message | None) -> Message | None:
        if msg is None:
            return None
        current = self._messages.get(msg.id)
        return None if current is None or current.deleted else current

    def _webhook_interaction(self, application_id: str, token: str) -> Interaction:
        ix = self._by_token.get(token)
        if ix is None or application_id != str(self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() - ix.created > 15 * 60:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return ix

    async def _rest_followup(self, request: web.Request, application_id: str, token: str) -> Answer:
        ix = self._webhook_interaction(application_id, token)
        body, files = await self._read_body(request)
        try:
            if ix.first is None:
                raise ApiError(404, 10015, "Unknown Webhook")
            original = ix.original
            if (
                original is not None
                and original.loading
                and not original.deleted
                and ix.first.type == 5
                and not ix.followup_messages
            ):
                # The first follow-up after a "thinking" defer fills in the placeholder.
                self._edit_message(original, body, files)
                original.pings = self._pings(body, original)
                msg = original
            else:
                msg = self._new_message(
                    ix.channel, body, files, interaction=ix, flags_allowed=KEPT_FLAGS | EPHEMERAL
                )
                self._store(msg)
        except ApiError as error:
            ix.rejected.append(error)
            ix._touch()
            raise
        ix.followup_messages.append(msg)
        ix._touch()
        if request.query.get("wait") in ("1", "true", "True"):
            return Answer(200, msg.to_json())
        return Answer(204)

    def _webhook_message(self, ix: Interaction, message_id: str) -> Message:
        if ix.first is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if message_id == "@original":
            msg = ix.original
        else:
            msg = next((m for m in ix.messages if str(m.id) == message_id), None)
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _rest_get_webhook_message(
        self, request: web.Request, application_id: str, token: str, message_id: str
    ) -> Answer:
        ix = self._webhook_interaction(application_id, token)
        return Answer(200, self._webhook_message(ix, message_id).to_json())

    async def _rest_patch_webhook_message(
        self, request: web.Request, application_id: str, token: str, message_id: str
    ) -> Answer:
        ix = self._webhook_interaction(application_id, token)
        body, files = await self._read_body(request)
        try:
            msg = self._webhook_message(ix, message_id)
            self._edit_message(msg, body, files)
        except ApiError as error:
            ix.rejected.append(error)
            ix._touch()
            raise
        ix._touch()
        return Answer(200, msg.to_json())

    async def _rest_delete_webhook_message(
        self, request: web.Request, application_id: str, token: str, message_id: str
    ) -> Answer:
        ix = self._webhook_interaction(application_id, token)
        msg = self._webhook_message(ix, message_id)
        self._delete_message(msg)
        ix._touch()
        return Answer(204)


def _loads(raw: str | bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


def _nest(path: list[JSON], leaf: list[JSON]) -> list[JSON]:
    options = leaf
    for step in reversed(path):
        options = [{**step, "options": options}]
    return options


def _walk(items: list[JSON]) -> Iterable[JSON]:
    for item in items:
        yield item
        yield from _walk(item.get("components") or [])
        if isinstance(item.get("component"), dict):
            yield item["component"]


def _check_active(channel: Channel) -> None:
    """Messages of an archived thread cannot be changed (Discord: 50083)."""
    if channel.archived:
        raise ApiError(400, 50083, "Operation cannot be performed on an archived thread")


def _major(params: Mapping[str, str]) -> str:
    for key in ("channel_id", "guild_id", "token"):
        if key in params:
            return f"{key}={params[key]}"
    return ""


def _json(status: int, body: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    response = web.Response(status=status, body=json.dumps(body).encode(), headers=headers)
    response.headers["Content-Type"] = "application/json"
    return response


class _Routes:
    """Route templates like Discord's ("POST /channels/{channel_id}/messages") to handlers."""

    def __init__(self) -> None:
        self._table: list[tuple[str, re.Pattern[str], str, Handler]] = []

    def add(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self._table.append((method, re.compile(f"^{pattern}$"), f"{method} {template}", handler))

    def match(self, method: str, path: str) -> tuple[str, Handler, dict[str, str]] | None:
        for m, pattern, name, handler in self._table:
            if m != method:
                continue
            found = pattern.match(path)
            if found:
                return name, handler, found.groupdict()
        return None


def _build_routes(fake: FakeDiscord) -> _Routes:
    r = _Routes()
    r.add("GET", "/users/@me", fake._rest_get_me)
    r.add("GET", "/oauth2/applications/@me", fake._rest_get_application)
    r.add("GET", "/applications/@me", fake._rest_get_application)
    r.add("GET", "/gateway", fake._rest_get_gateway)
    r.add("GET", "/gateway/bot", fake._rest_get_gateway)
    r.add("POST", "/users/@me/channels", fake._rest_open_dm)
    r.add("GET", "/users/{user_id}", fake._rest_get_user)
    r.add("GET", "/guilds/{guild_id}", fake._rest_get_guild)
    r.add("GET", "/guilds/{guild_id}/channels", fake._rest_get_guild_channels)
    r.add("GET", "/guilds/{guild_id}/members/{user_id}", fake._rest_get_member)
    r.add("GET", "/channels/{channel_id}", fake._rest_get_channel)
    r.add("PATCH", "/channels/{channel_id}", fake._rest_patch_channel)
    r.add("POST", "/channels/{channel_id}/messages/{message_id}/threads", fake._rest_start_thread)
    r.add("POST", "/channels/{channel_id}/typing", fake._rest_typing)
    r.add("POST", "/channels/{channel_id}/messages", fake._rest_post_message)
    r.add("GET", "/channels/{channel_id}/messages/{message_id}", fake._rest_get_message)
    r.add("PATCH", "/channels/{channel_id}/messages/{message_id}", fake._rest_patch_message)
    r.add("DELETE", "/channels/{channel_id}/messages/{message_id}", fake._rest_delete_message)
    r.add("PUT", "/applications/{application_id}/commands", fake._rest_put_commands)
    r.add("GET", "/applications/{application_id}/commands", fake._rest_get_commands)
    r.add(
        "PUT",
        "/applications/{application_id}/guilds/{guild_id}/commands",
        fake._rest_put_guild_commands,
    )
    r.add(
        "GET",
        "/applications/{application_id}/guilds/{guild_id}/commands",
        fake._rest_get_guild_commands,
    )
    r.add("GET", "/channels/{channel_id}/messages", fake._rest_history)
    r.add("POST", "/applications/{application_id}/commands", fake._rest_post_command)
    r.add("GET", "/applications/{application_id}/commands/{command_id}", fake._rest_get_command)
    r.add(
        "DELETE", "/applications/{application_id}/commands/{command_id}", fake._rest_delete_command
    )
    guild_commands = "/applications/{application_id}/guilds/{guild_id}/commands"
    r.add("POST", guild_commands, fake._rest_post_command)
    r.add("GET", guild_commands + "/{command_id}", fake._rest_get_command)
    r.add("DELETE", guild_commands + "/{command_id}", fake._rest_delete_command)
    r.add("POST", "/interactions/{interaction_id}/{token}/callback", fake._rest_callback)
    r.add("POST", "/webhooks/{application_id}/{token}", fake._rest_followup)
    r.add(
        "GET",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        fake._rest_get_webhook_message,
    )
    r.add(
        "PATCH",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        fake._rest_patch_webhook_message,
    )
    r.add(
        "DELETE",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        fake._rest_delete_webhook_message,
    )
    return r
