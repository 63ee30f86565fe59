"""Gateway life of the fake: restarts, resumes, live guild changes, a bot in another process."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord
from tests.discord.test_fake_bot import ProbeBot
from tests.waiting import PATIENCE, eventually


async def test_restart_with_same_token(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    first: ProbeBot = await bot_factory(ProbeBot)
    lobby = (await (await fake.slash(alice, table, "rummy new", variant="500")).response()).message
    assert lobby is not None
    await first.close()
    await eventually(lambda: not fake.connected)
    await bot_factory(ProbeBot)
    assert fake.identify_count == 2
    # A persistent (dynamic) button made by the first process works in the second.
    answer = await (await fake.click(alice, lobby, "count:0")).response()
    assert answer.type == 7
    assert lobby.content == "count 1"


async def test_resume_after_a_dropped_connection(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    resumed = asyncio.Event()
    bot: ProbeBot = await bot_factory(ProbeBot)

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)
    await fake.disconnect(4000)
    await asyncio.wait_for(resumed.wait(), PATIENCE)
    assert fake.resume_count == 1
    assert fake.identify_count == 1
    assert (await (await fake.slash(alice, table, "meld", cards="7h")).response()).content == (
        "melded 7h"
    )


class QuickBot(ProbeBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before identifying again; the fake has no identify limit."""


async def test_unknown_session_is_invalidated_then_identifies(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    await bot_factory(QuickBot)
    fake._sessions.clear()  # as if the fake had restarted
    await fake.disconnect(4000)
    await fake.wait_ready(sessions=2)
    assert fake.resume_count == 0
    assert (await (await fake.slash(alice, table, "meld", cards="7h")).response()).content == (
        "melded 7h"
    )


async def test_live_guild_changes_reach_the_bot(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    bot: ProbeBot = await bot_factory(ProbeBot)
    dguild = bot.get_guild(guild.id)
    assert dguild is not None
    channel = bot.get_channel(table.id)
    assert isinstance(channel, discord.TextChannel)
    assert channel.permissions_for(dguild.me).attach_files

    guild.set_overwrite(table, fake.bot_user, deny=discord.Permissions(attach_files=True))
    await eventually(lambda: not channel.permissions_for(dguild.me).attach_files)
    await channel.send("text still works")
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send(file=discord.File(io.BytesIO(b"x"), "x.png"))
    assert caught.value.code == 50013

    guild.set_role_permissions(guild.bot_role, 0)
    guild.set_role_permissions(guild.everyone, discord.Permissions(view_channel=True))
    await eventually(lambda: not channel.permissions_for(dguild.me).send_messages)
    with pytest.raises(discord.Forbidden):
        await channel.send("no longer")

    moderator = guild.add_role("moderator", discord.Permissions(manage_messages=True))
    guild.set_member_roles(fake.bot_user, [guild.bot_role, moderator])
    await eventually(lambda: dguild.me.guild_permissions.manage_messages)

    later = guild.add_text_channel("later")
    thread = guild.add_thread(later, "later-thread")
    # Events reach the bot before any interaction made after them.
    alice = fake.add_user("alice")
    asked = await (await fake.slash(alice, thread, "where")).response()
    assert asked.content == "known=True"
    await eventually(lambda: bot.get_channel(thread.id) is not None)
    other = fake.add_guild("Other")
    await eventually(lambda: bot.get_guild(other.id) is not None)


class FrenchBot(ProbeBot):
    """Translates the command names into French, or into a name Discord refuses."""

    def __init__(self, *, bad: bool = False) -> None:
        super().__init__()
        self.bad = bad

    async def setup_hook(self) -> None:
        bot = self

        class Names(app_commands.Translator):
            async def translate(
                self,
                string: app_commands.locale_str,
                locale: discord.Locale,
                context: app_commands.TranslationContextTypes,
            ) -> str | None:
                if locale is not discord.Locale.french:
                    return None
                if string.message == "meld":
                    return "Mauvais Nom" if bot.bad else "poser"
                if string.message == "Meld cards":
                    return "Poser des cartes"
                return None

        await self.tree.set_translator(Names())
        await super().setup_hook()


async def test_localized_commands_are_kept(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild(locale="fr")
    table = guild.add_text_channel("table")
    pierre = fake.add_user("pierre", locale="fr")
    await bot_factory(FrenchBot)
    meld = fake.command("meld")
    assert meld["name_localizations"] == {"fr": "poser"}
    assert meld["description_localizations"] == {"fr": "Poser des cartes"}
    assert (await (await fake.slash(pierre, table, "meld", cards="5s")).response()).content == (
        "melded 5s"
    )


async def test_invalid_localized_name_fails_the_sync(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    fake.add_guild()
    with pytest.raises(discord.HTTPException) as caught:
        await bot_factory(lambda: FrenchBot(bad=True))
    assert caught.value.code == 50035
    assert fake.commands() == []


async def test_guild_commands(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    await bot_factory(lambda: ProbeBot(guild_id=guild.id))
    names = {c["name"] for c in fake.commands(guild)}
    assert {"rummy", "meld", "slow", "dm"} <= names
    assert all(c["guild_id"] == str(guild.id) for c in fake.commands(guild))
    ix = await fake.slash(alice, table, "meld", cards="9c")
    assert ix.payload["data"]["guild_id"] == str(guild.id)
    assert (await ix.response()).content == "melded 9c"


class Ask(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class ModalBot(ProbeBot):
    async def setup_hook(self) -> None:
        @self.tree.command(name="ask", description="Opens a modal")
        async def ask(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(Ask())

        await super().setup_hook()


async def test_modal(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    await bot_factory(ModalBot)
    ask = await fake.slash(alice, table, "ask")
    assert (await ask.response()).type == 9
    submit = await fake.submit_modal(alice, ask, {"name": "Alice"})
    answer = await submit.response()
    assert answer.content == "hello Alice"
    assert answer.ephemeral


@pytest.mark.fake(route_limits={"POST /channels/{channel_id}/messages": (5, 1.0)})
async def test_route_bucket_is_respected(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    bot: ProbeBot = await bot_factory(ProbeBot)
    channel = bot.get_channel(table.id)
    assert isinstance(channel, discord.TextChannel)
    start = time.monotonic()
    await asyncio.gather(*(channel.send(f"m{i}") for i in range(8)))
    assert time.monotonic() - start >= 0.8
    assert len(fake.messages(table)) == 8
    sends = [r for r in fake.requests if r.route == "POST /channels/{channel_id}/messages"]
    accepted = sorted(r.at for r in sends if not r.limited)
    assert all(accepted[i + 5] - accepted[i] >= 0.99 for i in range(len(accepted) - 5))


BOT_SCRIPT = """
import os, sys, warnings
warnings.simplefilter("ignore")
import discord, yarl
discord.http.Route.BASE = os.environ["DISCORD_API_BASE_URL"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])

class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = discord.app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="pid")
        async def ping(interaction):
            await interaction.response.send_message(f"pong {os.getpid()}")

    async def setup_hook(self):
        await self.tree.sync()

Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def test_bot_in_another_process_killed_and_restarted(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild()
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    script = tmp_path / "mini_bot.py"
    script.write_text(BOT_SCRIPT)
    env = {**os.environ, **fake.env()}
    pids = []
    for run in (1, 2):
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(script), env=env, stdout=asyncio.subprocess.DEVNULL
        )
        try:
            await fake.wait_ready(30, sessions=run)
            answer = await (await fake.slash(alice, table, "ping")).response()
            assert answer.content == f"pong {process.pid}"
            pids.append(process.pid)
        finally:
            process.send_signal(signal.SIGKILL)
            await process.wait()
        await eventually(lambda: not fake.connected)
    assert len(set(pids)) == 2
