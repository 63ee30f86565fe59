"""Threads in the fake Discord, driven by the real discord.py: started from a message (sharing
its id), known to the client through the gateway, used for interactions, archived, refused."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.conftest import BotFactory
from tests.discord.fake import Channel, FakeDiscord
from tests.waiting import eventually


class ThreadCog(commands.Cog):
    """/open posts a message as its answer and starts a thread from it; /where says where
    it was used."""

    def __init__(self) -> None:
        self.threads: list[discord.Thread] = []
        self.errors: list[discord.HTTPException] = []
        self.seen: list[tuple[int | None, int | None, str]] = []

    @app_commands.command(name="open", description="Open a thread")
    async def open(self, interaction: discord.Interaction[Any], name: str) -> None:
        callback = await interaction.response.send_message("a table")
        message = callback.resource
        assert isinstance(message, discord.InteractionMessage)
        try:
            self.threads.append(await message.create_thread(name=name, auto_archive_duration=10080))
        except discord.HTTPException as error:
            self.errors.append(error)

    @app_commands.command(name="where", description="Where am I")
    async def where(self, interaction: discord.Interaction[Any]) -> None:
        kind = type(interaction.channel).__name__
        self.seen.append((interaction.channel_id, interaction.guild_id, kind))
        await interaction.response.send_message("here", ephemeral=True)


async def start(fake: FakeDiscord, bot_factory: BotFactory) -> tuple[commands.Bot, ThreadCog]:
    cog = ThreadCog()

    class Bot(commands.Bot):
        async def setup_hook(self) -> None:
            await self.add_cog(cog)
            for guild in fake.guilds.values():
                self.tree.copy_global_to(guild=discord.Object(guild.id))
                await self.tree.sync(guild=discord.Object(guild.id))

    bot = Bot(
        command_prefix="!",
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
    )
    await bot_factory(bot)
    await bot.wait_until_ready()
    return bot, cog


async def test_a_thread_started_from_a_message_lives_beside_it_and_is_archived(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann")
    bot, cog = await start(fake, bot_factory)
    ix = await fake.slash(ann, channel, "open", name="Classic · ann")
    lobby = (await ix.response()).message
    assert lobby is not None
    await eventually(lambda: bool(cog.threads))
    thread = cog.threads[0]
    assert thread.id == lobby.id  # a thread started from a message shares its id
    assert thread.parent_id == channel.id
    assert thread.owner_id == fake.bot_user.id
    assert thread.name == "Classic · ann"
    assert thread.auto_archive_duration == 10080
    made = fake.threads(channel)
    assert [t.id for t in made] == [lobby.id]
    assert lobby.thread is made[0]
    # The client knows the thread from THREAD_CREATE.
    await eventually(lambda: bot.get_channel(thread.id) is not None)
    # Commands from inside the thread carry the thread as their channel.
    inside = await fake.slash(ann, made[0], "where")
    await inside.response()
    assert cog.seen == [(thread.id, guild.id, "Thread")]
    # The bot talks in its thread, then archives it (as its creator: no Manage Threads).
    sent = await thread.send("the table")
    assert fake.messages(made[0])[-1].id == sent.id
    await thread.edit(archived=True)
    assert is_archived(made[0])
    # discord.py keeps only active threads: THREAD_UPDATE takes it out of the cache.
    await eventually(lambda: bot.get_channel(thread.id) is None)
    # An archived thread's messages cannot change, and Discord offers no commands there.
    with pytest.raises(discord.HTTPException) as edit:
        await sent.edit(content="later")
    assert edit.value.code == 50083
    with pytest.raises(ValueError, match="archived"):
        await fake.slash(ann, made[0], "where")
    # Sending a message unarchives it.
    await thread.send("again")
    assert not is_archived(made[0])
    await eventually(lambda: bot.get_channel(thread.id) is not None)
    # One thread per message.
    with pytest.raises(discord.HTTPException) as twice:
        await channel_message(bot, channel.id, lobby.id).create_thread(name="again")
    assert twice.value.code == 160004


def is_archived(thread: Channel) -> bool:
    return thread.archived


def channel_message(bot: commands.Bot, channel_id: int, message_id: int) -> discord.PartialMessage:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel.get_partial_message(message_id)


async def test_threads_are_refused_without_the_permission_when_full_and_inside_threads(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    ann = fake.add_user("ann")
    _, cog = await start(fake, bot_factory)
    guild.set_overwrite(
        channel, guild.bot_role, deny=discord.Permissions(create_public_threads=True)
    )
    await (await fake.slash(ann, channel, "open", name="no")).response()
    await eventually(lambda: len(cog.errors) == 1)
    assert isinstance(cog.errors[0], discord.Forbidden)
    assert cog.errors[0].code == 50013
    guild.set_overwrite(channel, guild.bot_role)
    guild.max_active_threads = 0
    await (await fake.slash(ann, channel, "open", name="full")).response()
    await eventually(lambda: len(cog.errors) == 2)
    assert cog.errors[1].code == 160006
    guild.max_active_threads = 1000
    inner = guild.add_thread(channel, "chat")
    await (await fake.slash(ann, inner, "open", name="nested")).response()
    await eventually(lambda: len(cog.errors) == 3)
    assert cog.errors[2].code == 50024
    await (await fake.slash(ann, channel, "open", name="x" * 101)).response()
    await eventually(lambda: len(cog.errors) == 4)
    assert cog.errors[3].code == 50035
    assert fake.threads(channel) == [inner]


async def test_a_thread_someone_else_made_cannot_be_archived_without_manage_threads(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild = fake.add_guild("Cards")
    channel = guild.add_text_channel("rummy")
    bot, _ = await start(fake, bot_factory)
    made = guild.add_thread(channel, "chat")
    await eventually(lambda: bot.get_channel(made.id) is not None)
    thread = bot.get_channel(made.id)
    assert isinstance(thread, discord.Thread)
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=True)
    guild.delete_thread(made)
    await eventually(lambda: bot.get_channel(made.id) is None)
    await asyncio.sleep(0)
