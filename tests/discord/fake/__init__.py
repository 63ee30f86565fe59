"""A fake Discord for end-to-end tests with the real discord.py client.

The fake is an aiohttp server on 127.0.0.1 (a free port) that speaks enough of the REST API
v10 and of the gateway for `commands.Bot` to log in, sync its commands, receive guilds and
interactions, and answer them. It keeps everything the bot did, rejects what Discord
rejects (with Discord's status codes, error codes and JSON shapes) and enforces the global
rate limit, so a test sees the bugs real Discord would show.

Typical in-process use::

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Cards", locale="fr")
        table = guild.add_text_channel("table")
        alice = fake.add_user("alice")                 # member of every guild made so far
        with patch_discord(fake):
            bot = MyBot(...)                           # a commands.Bot, guild_ready_timeout small
            task = asyncio.create_task(bot.start(fake.token))
            await fake.wait_ready()
            ix = await fake.slash(alice, table, "rummy new", variant="classic", target=100)
            answer = await ix.response()               # Response: type, content, ephemeral, ...
            lobby = answer.message                     # a Message, kept up to date with edits
            click = await fake.click(alice, lobby, lobby.button("Join")["custom_id"])
            ...

For a bot run as a subprocess (`python -m bot`), pass `fake.env()` (DISCORD_TOKEN,
DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL) in its environment; the fake runs in the test's
event loop and is reached over its real port. A restarted bot (a new IDENTIFY with the same
token) gets READY and its guilds again; `fake.wait_ready(sessions=n)` waits for it.

Main API (see the classes for details):

- `FakeDiscord(*, token="fake-bot-token", rate_limits=True, global_limit=50,
  route_limits=None, interaction_deadline=15.0, attachment_size_limit=10 MiB,
  bot_name="Rummy", message_events=True, shards=1, max_concurrency=1)`; `async with`
  starts and stops it.
  `message_events`: the bot receives MESSAGE_CREATE / UPDATE / DELETE for its own
  non-ephemeral messages, as from Discord. `api_base`, `gateway_url`,
  `env()`, `bot_user`, `application_id`, `token`. `rate_limits`, `global_limit` and
  `interaction_deadline` (seconds, None for none; Discord's is 3, the fake's default is
  longer so that a loaded machine is not taken for a slow bot) may be changed at any time.
  `route_limits` maps a route ("PATCH /channels/{channel_id}/messages/{message_id}") to
  (requests, seconds) per channel; `DISCORD_ROUTE_LIMITS` approximates Discord's.
- World: `add_guild(name, *, locale="en-US", owner=None, shard=None) -> Guild` (`shard`: an
  id Discord routes to that shard; `fake.shard_of(guild)` tells a guild's shard, 0 for None);
  `Guild.add_text_channel(name)`, `Guild.add_thread(parent, name)`,
  `Guild.add_role(name, permissions)`, `Guild.add_member(user, roles)`,
  `Guild.set_member_roles(user, roles)`, `Guild.set_role_permissions(role, perms)` (the bot's
  role is `guild.bot_role`, @everyone is `guild.everyone`), `Guild.set_overwrite(channel,
  role_or_user, allow=, deny=)` (the bot is `fake.bot_user`), `Guild.permissions_in(user,
  channel)`; `add_user(name, *, dm_open=True, locale="en-US", guilds=None, roles=()) -> User`
  (`dm_open` may be flipped later); `user_named(name)`; `dm_channel(user) -> Channel`.
  Permissions are `int` or `discord.Permissions`. Changes made after the bot connected reach
  it as gateway events.
- Threads: the bot starts a public thread from a message (`POST /channels/{id}/messages/
  {id}/threads`; the thread shares the message's id, `Message.thread` points to it) and edits
  or archives it (`PATCH /channels/{id}`: name, archived, locked, auto-archive duration, as
  its creator or with Manage Threads). `fake.threads(parent)`, `Guild.set_thread_archived`,
  `Guild.delete_thread`, `Guild.max_active_threads` (the cap: 160006 beyond it). THREAD_CREATE,
  THREAD_UPDATE and THREAD_DELETE reach the bot; active threads come in GUILD_CREATE. Refused
  as on Discord: without Create Public Threads (403, 50013), from a thread or a DM (50024), a
  second thread from one message (160004), a bad name or duration (50035), changing anything
  in an archived thread, its messages included (50083); only Manage Threads unarchives a
  locked thread; sending a message unarchives a thread that is not locked;
  `slash` in an archived thread raises ValueError (Discord offers no commands there).
- The fake refuses channel messages the bot's permissions forbid (50001, 50013) and DMs to a
  user with closed DMs (403, 50007).
- Interactions (each waits for a connected bot and returns an `Interaction`):
  `slash(user, channel, "rummy new", **options)`, `click(user, message, custom_id)`,
  `forged_click(user, channel, custom_id)` (any id, unchecked, as a modified client),
  `redeliver(ix)` (the same INTERACTION_CREATE once more, as a replaying gateway),
  `select(user, message, custom_id, values)`, `autocomplete(user, channel, "meld",
  focused="cards", cards="7") -> list[choice dict]` (or `autocomplete_interaction`),
  `submit_modal(user, interaction_with_modal, {custom_id: text})`. Each takes `locale=`;
  USER / CHANNEL / ROLE options take `User` / `Channel` / `Role` objects and get `resolved`.
  They check what a Discord client would (registered command and options, choices, ranges,
  the button present and enabled on the message as it is now, who can see the message) and
  raise ValueError / PermissionError for a test's mistake.
- `Interaction`: `await ix.response(timeout)` -> `Response` (`type` 4/5/6/7/8/9, `data` as
  the bot sent it, `message`; `content`, `ephemeral`, `components`, `embeds`,
  `attachments` read the message's current state; `choices` for autocomplete),
  `await ix.followups(n)` (the first follow-up after a "thinking" defer fills the
  placeholder in, as on Discord, so it is `ix.original`), `ix.original` (the response
  message, current state), `ix.messages`, `ix.rejected` (the `ApiError`s the fake answered),
  `ix.latency` (dispatch to first accepted answer), `ix.created`, `ix.answered_at`,
  `ix.payload`, `ix.modal`, `await ix.wait_until(predicate)`.
- Messages: `messages(channel, *, ephemeral=False, deleted=False)` (oldest first),
  `dms(user)`, `message(id)`, `await wait_for(predicate, timeout) -> Message` (scans every
  message: for benchmarks prefer `add_listener(fn(event, message))`). `Message` has
  `content`, `embeds`, `components`, `attachments` (`Attachment.data` holds the bytes),
  `flags`, `ephemeral`, `loading`, `edits`, `versions`, `deleted`, `pings`/`pinged(user)`,
  `text` (content and embed text), `button(label)`, `buttons()`, `selects()`,
  `component(custom_id)`, `custom_ids()`, `attachment(filename)`.
- Commands: `commands(guild=None)`, `command(name, guild=None)` (as echoed, with ids,
  options, choices and localizations). Bad names or localizations fail the sync (50035).
- Requests: `requests` (`RequestRecord`: method, route template, path, at, done, status,
  counted, limited, interaction_id, error_code), `counted_requests(since)`, `unhandled`
  (routes the fake does not know) and `internal_errors` (faults of the fake, answered 400
  at once): the `fake` fixture fails a test that left either non-empty.
- Faults: `faults`, a list of callables a test fills: each gets every request's
  `RequestRecord` (method, route, path, interaction_id) and may return an `ApiError`
  (a 500, an expired interaction's 10062) that is answered instead of the route's own.
  `holds`, a list of callables likewise asked first: one may return an awaitable the
  request waits for before it is answered (an edit held until the event a test checks).
- Gateway: `wait_ready(timeout, *, sessions=None, shards=None)`, `connected` (every shard),
  `connected_shards`, `identify_count`, `resume_count`, `disconnect(code, *, shard=None)`
  (4000: the bot resumes).
- Shards: `GET /gateway/bot` answers `shards` (and `max_concurrency`); an IDENTIFY's
  `shard: [id, count]` is checked as Discord does (4010 invalid shard: malformed, an id
  outside the count, or a count other than the fake's, since the fake routes by one count;
  4011 sharding required: none or too few with more than one shard). A guild's GUILD_CREATE,
  events and interactions go only to its shard's connection, `(guild_id >> 22) % shards`;
  DM events and DM interactions to shard 0's.

Limits enforced, with Discord's codes: content over 2,000 characters, more than 10 embeds
(and the embed size limits), more than 5 action rows, a row with more than 5 buttons or a
select beside anything, more than 25 select options, custom ids over 100, button labels
over 80, select option labels, values and descriptions over 100, duplicate custom ids, an
empty message (50006), autocomplete choices over 25 or names over 100, modal titles over
45: 400 code 50035 with the nested `errors`. A second answer to an interaction: 40060; an
answer after the deadline: 10062; follow-ups before an answer: 10015. The global limit
counts every request but interaction callbacks and interaction webhooks; its 429 carries
`retry_after`, `global`, Retry-After, X-RateLimit-Global, X-RateLimit-Scope and Via.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import discord
import yarl

from .model import Attachment, Channel, Guild, Member, Message, Role, User
from .server import DISCORD_ROUTE_LIMITS, FakeDiscord, Interaction, RequestRecord, Response
from .validate import ApiError

__all__ = [
    "DISCORD_ROUTE_LIMITS",
    "ApiError",
    "Attachment",
    "Channel",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "RequestRecord",
    "Response",
    "Role",
    "User",
    "patch_discord",
]


@contextlib.contextmanager
def patch_discord(fake: FakeDiscord) -> Iterator[FakeDiscord]:
    """Point discord.py (this process) at `fake`; restores the previous URLs on exit.

    Both settings are class attributes shared by every client in the process, so only one
    fake can be in use at a time.
    """
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield fake
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
