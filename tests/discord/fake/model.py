"""The fake's world: users, guilds, channels, roles, messages and their Discord JSON forms.

Everything here is plain data owned by one `FakeDiscord`. The JSON shapes follow what the
real API sends, trimmed to the fields discord.py 2.7 reads, so the client builds its real
objects (Member, TextChannel, Thread, Message, Attachment) from them.
"""

from __future__ import annotations

import datetime
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# What a fresh guild's @everyone role allows, as on a newly created server.
EVERYONE_DEFAULT = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    mention_everyone=False,
    change_nickname=True,
    connect=True,
    speak=True,
).value

# What the bot's own managed role allows unless a test says otherwise: what Rummy needs.
BOT_DEFAULT = discord.Permissions(
    view_channel=True,
    send_messages=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_external_emojis=True,
).value

MEMBERS_INTENT = discord.Intents(members=True).value
MODERATION_INTENT = discord.Intents(moderation=True).value
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
HAS_THREAD = 1 << 5
"""Message flag: a thread was started from this message."""


class Snowflakes:
    """Ids that look like Discord's, so discord.py's `created_at` gives sensible times."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A person (or the bot itself) known to the fake."""

    id: int
    name: str
    bot: bool = False
    dm_open: bool = True
    locale: str = "en-US"
    global_name: str | None = None

    def to_json(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    """A guild role; `permissions` may be changed by a test (see `Guild.set_role_permissions`)."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_json(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Overwrite:
    target_id: int
    is_member: bool
    allow: int = 0
    deny: int = 0

    def to_json(self) -> JSON:
        return {
            "id": str(self.target_id),
            "type": 1 if self.is_member else 0,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A text channel, a thread (`parent` set) or a DM channel (`recipient` set)."""

    id: int
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    position: int = 0
    owner: User | None = None
    """A thread's creator (None: the guild's owner, for threads a test made)."""
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=lambda: iso_now())
    rate_limit_per_user: int = 0

    @property
    def is_dm(self) -> bool:
        return self.recipient is not None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    @property
    def type(self) -> int:
        if self.is_dm:
            return 1
        if self.is_thread:
            return 11
        return 0

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_json(self) -> JSON:
        if self.recipient is not None:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.to_json()],
            }
        assert self.guild is not None
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "flags": 0,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": self.rate_limit_per_user,
        }
        if self.parent is not None:
            owner = self.owner if self.owner is not None else self.guild.owner
            data.update(
                parent_id=str(self.parent.id),
                owner_id=str(owner.id),
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.archive_timestamp,
                },
            )
        else:
            data.update(
                topic=None,
                parent_id=None,
                permission_overwrites=[o.to_json() for o in self.overwrites.values()],
            )
        return data


@dataclass(eq=False)
class Member:
    user: User
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def to_json(self, permissions: int | None = None) -> JSON:
        data: JSON = {
            "user": self.user.to_json(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


class Guild:
    """A server: roles, channels, threads and members, including the bot with its own role.

    Changes made after the bot is connected are sent to it as gateway events
    (CHANNEL_CREATE, THREAD_CREATE, GUILD_ROLE_UPDATE, CHANNEL_UPDATE, GUILD_MEMBER_UPDATE),
    so permission checks in the bot see them.
    """

    def __init__(self, fake: FakeDiscord, id: int, name: str, locale: str, owner: User) -> None:
        self._fake = fake
        self.id = id
        self.name = name
        self.locale = locale
        self.owner = owner
        self.everyone = Role(id=id, name="@everyone", permissions=EVERYONE_DEFAULT)
        self.roles: dict[int, Role] = {self.everyone.id: self.everyone}
        self.channels: dict[int, Channel] = {}
        self.members: dict[int, Member] = {}
        self.bot_role = Role(
            id=fake.ids.next(), name="Rummy", permissions=BOT_DEFAULT, position=1, managed=True
        )
        self.roles[self.bot_role.id] = self.bot_role
        self.members[fake.bot_user.id] = Member(fake.bot_user, [self.bot_role])
        self.members[owner.id] = Member(owner)
        self.max_active_threads = 1000
        """Discord caps a server's active threads; a test may lower the cap to provoke a
        refusal (400, code 160006)."""

    # --- building -------------------------------------------------------------------------

    def add_role(self, name: str, permissions: int | discord.Permissions = 0) -> Role:
        role = Role(
            id=self._fake.ids.next(),
            name=name,
            permissions=_perm_value(permissions),
            position=len(self.roles),
        )
        self.roles[role.id] = role
        self._fake._guild_event(self, "GUILD_ROLE_CREATE", {"role": role.to_json()})
        return role

    def set_role_permissions(self, role: Role, permissions: int | discord.Permissions) -> None:
        """Change a role's permissions (e.g. `guild.bot_role`, `guild.everyone`)."""
        role.permissions = _perm_value(permissions)
        self._fake._guild_event(self, "GUILD_ROLE_UPDATE", {"role": role.to_json()})

    def add_text_channel(self, name: str) -> Channel:
        channel = Channel(
            id=self._fake.ids.next(), name=name, guild=self, position=len(self.channels)
        )
        self.channels[channel.id] = channel
        self._fake._register_channel(channel)
        self._fake._guild_event(self, "CHANNEL_CREATE", channel.to_json())
        return channel

    def add_thread(self, parent: Channel, name: str = "thread") -> Channel:
        """A public thread a person started in ``parent`` (not from a message)."""
        if parent.guild is not self or parent.is_thread:
            raise ValueError("a thread needs a text channel of this guild as parent")
        return self._start_thread(self._fake.ids.next(), parent, name, self.owner, 1440)

    def _start_thread(
        self, id: int, parent: Channel, name: str, owner: User, auto_archive_duration: int
    ) -> Channel:
        thread = Channel(
            id=id,
            name=name,
            guild=self,
            parent=parent,
            owner=owner,
            auto_archive_duration=auto_archive_duration,
        )
        self.channels[thread.id] = thread
        self._fake._register_channel(thread)
        self._fake._guild_event(self, "THREAD_CREATE", {**thread.to_json(), "newly_created": True})
        return thread

    def set_thread_archived(self, thread: Channel, archived: bool = True) -> None:
        """Archive (or unarchive) a thread as a person or Discord's inactivity timer would."""
        if not thread.is_thread or thread.guild is not self:
            raise ValueError("not a thread of this guild")
        thread.archived = archived
        thread.archive_timestamp = iso_now()
        self._fake._guild_event(self, "THREAD_UPDATE", thread.to_json())

    def delete_thread(self, thread: Channel) -> None:
        """A moderator deletes a thread: THREAD_DELETE, and its messages are gone."""
        if not thread.is_thread or thread.guild is not self:
            raise ValueError("not a thread of this guild")
        del self.channels[thread.id]
        self._fake._forget_channel(thread)
        assert thread.parent is not None
        self._fake._guild_event(
            self,
            "THREAD_DELETE",
            {"id": str(thread.id), "type": 11, "parent_id": str(thread.parent.id)},
        )

    def active_threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread and not c.archived]

    def delete_channel(self, channel: Channel) -> None:
        """Delete a text channel or a thread (CHANNEL_DELETE / THREAD_DELETE): its id is
        unknown to the REST API from then on. Its threads go with it, without events of
        their own, as on Discord."""
        if channel.guild is not self:
            raise ValueError("the channel is not of this guild")
        if channel.is_thread:
            self.delete_thread(channel)
            return
        data = channel.to_json()
        for thread in [c for c in self.channels.values() if c.parent is channel]:
            del self.channels[thread.id]
            self._fake._forget_channel(thread)
        del self.channels[channel.id]
        self._fake._forget_channel(channel)
        self._fake._guild_event(self, "CHANNEL_DELETE", data)

    def add_member(self, user: User, roles: tuple[Role, ...] | list[Role] = ()) -> Member:
        member = Member(user, list(roles))
        self.members[user.id] = member
        self._fake._guild_event(self, "GUILD_MEMBER_ADD", member.to_json(), intent=MEMBERS_INTENT)
        return member

    def remove_member(self, user: User, *, banned: bool = False) -> None:
        """A member leaves (GUILD_MEMBER_REMOVE, with the members intent) or is banned
        (GUILD_BAN_ADD first, with the moderation intent)."""
        self.members.pop(user.id, None)
        if banned:
            self._fake._guild_event(
                self, "GUILD_BAN_ADD", {"user": user.to_json()}, intent=MODERATION_INTENT
            )
        self._fake._guild_event(
            self, "GUILD_MEMBER_REMOVE", {"user": user.to_json()}, intent=MEMBERS_INTENT
        )

    def set_member_roles(self, user: User, roles: tuple[Role, ...] | list[Role]) -> None:
        """Change a member's roles; the bot hears of it for itself, or with the members intent."""
        member = self.members[user.id]
        member.roles = list(roles)
        intent = 0 if user is self._fake.bot_user else MEMBERS_INTENT
        self._fake._guild_event(self, "GUILD_MEMBER_UPDATE", member.to_json(), intent=intent)

    def set_overwrite(
        self,
        channel: Channel,
        target: Role | User,
        *,
        allow: int | discord.Permissions = 0,
        deny: int | discord.Permissions = 0,
    ) -> None:
        """A channel permission overwrite for a role or a member (the bot is `fake.bot_user`)."""
        if channel.guild is not self or channel.is_thread:
            raise ValueError("overwrites live on text channels of this guild")
        channel.overwrites[target.id] = Overwrite(
            target.id, isinstance(target, User), _perm_value(allow), _perm_value(deny)
        )
        self._fake._guild_event(self, "CHANNEL_UPDATE", channel.to_json())

    @property
    def bot_member(self) -> Member:
        return self.members[self._fake.bot_user.id]

    def text_channels(self) -> Iterator[Channel]:
        return (c for c in self.channels.values() if not c.is_thread)

    # --- permissions ------------------------------------------------------------------------

    def base_permissions(self, user: User) -> int:
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        perms = self.everyone.permissions
        for role in member.roles if member else []:
            perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, user: User, channel: Channel) -> int:
        """Discord's permission computation: base, then @everyone, role and member overwrites."""
        perms = self.base_permissions(user)
        if perms & ADMINISTRATOR or user.id == self.owner.id:
            return ALL_PERMISSIONS
        target = channel.parent if channel.parent is not None else channel
        member = self.members.get(user.id)
        everyone = target.overwrites.get(self.id)
        if everyone:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in member.roles if member else []:
            ow = target.overwrites.get(role.id)
            if ow and not ow.is_member:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = target.overwrites.get(user.id)
        if own and own.is_member:
            perms = (perms & ~own.deny) | own.allow
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def to_json(self) -> JSON:
        members = list(self.members.values())
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_json() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [m.to_json() for m in members],
            "channels": [c.to_json() for c in self.channels.values() if not c.is_thread],
            "threads": [c.to_json() for c in self.active_threads()],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    """An uploaded file with its bytes, as stored by the fake."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    def to_json(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Message:
    """A message the bot sent, in its current state (edits applied, `deleted` when deleted).

    `versions` keeps each earlier state's content, so a test can see what a message went
    through; `edits` counts the edits; `pings` lists the ids of the users the message
    notified when it was sent (mentions let through by `allowed_mentions`).
    """

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    webhook_id: int | None = None
    created: float = field(default_factory=time.monotonic)
    edited: float | None = None
    edits: int = 0
    deleted: bool = False
    versions: list[str] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)
    thread: Channel | None = None
    """The public thread started from this message (it shares the message's id)."""

    def pinged(self, user: User) -> bool:
        """Whether sending this message notified `user` (mentioned and allowed to be)."""
        return user.id in self.pings

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def loading(self) -> bool:
        """A deferred response's "thinking…" placeholder not yet filled in."""
        return bool(self.flags & 128)

    def iter_components(self) -> Iterator[JSON]:
        """Every component, rows and nested ones included, depth first."""

        def walk(items: list[JSON]) -> Iterator[JSON]:
            for item in items:
                yield item
                yield from walk(item.get("components", []))
                if isinstance(item.get("accessory"), dict):
                    yield item["accessory"]

        return walk(self.components)

    def component(self, custom_id: str) -> JSON | None:
        for item in self.iter_components():
            if item.get("custom_id") == custom_id:
                return item
        return None

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def buttons(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, label: str) -> JSON:
        """The button with this label (exactly one must exist)."""
        found = [b for b in self.buttons() if b.get("label") == label]
        if len(found) != 1:
            raise LookupError(f"{len(found)} buttons labelled {label!r} on message {self.id}")
        return found[0]

    def attachment(self, filename: str) -> Attachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(f"no attachment {filename!r} on message {self.id}")

    @property
    def text(self) -> str:
        """Content, embed text and text displays: what a person (or a test) reads."""
        parts = [self.content]
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
            if embed.get("footer", {}).get("text"):
                parts.append(embed["footer"]["text"])
        # Layout messages (components v2) carry their text in text-display components.
        parts.extend(str(c["content"]) for c in self.iter_components() if c.get("type") == 10)
        return "\n".join(p for p in parts if p)

    def to_json(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": 0 if self.interaction_id is None else 20,
            "content": self.content,
            "author": self.author.to_json(),
            "timestamp": iso_now(),
            "edited_timestamp": iso_now() if self.edited is not None else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_json() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags | (HAS_THREAD if self.thread is not None else 0),
        }
        if self.thread is not None:
            data["thread"] = self.thread.to_json()
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


def _perm_value(value: int | discord.Permissions) -> int:
    return value.value if isinstance(value, discord.Permissions) else int(value)
