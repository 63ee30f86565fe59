"""discord.py's conventions, through the fake: errors that escape a command get a short
private answer from the tree's handler, the bot asks only for the guilds intent, and the
channel permissions it asks for are the ones it uses (it never sends an embed)."""

from __future__ import annotations

import logging

import discord
import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.helpers import Bots, bots, cog_problems, deal
from tests.waiting import eventually

__all__ = ["bots", "cog_problems"]


async def test_a_command_discord_still_offers_but_the_bot_no_longer_has_is_answered(
    fake: FakeDiscord, bots: Bots
) -> None:
    """An upgrade removed a command and Discord has not caught up yet: the person gets a
    private answer instead of "The application did not respond"."""
    async with bots.table("ann") as table:
        (ann,) = table.players
        fake.global_commands.append(
            {
                "id": "1",
                "application_id": str(fake.bot_user.id),
                "name": "oldcommand",
                "description": "a command of an earlier version",
                "type": 1,
                "options": [],
            }
        )
        answer = await table.answer(ann, "oldcommand")
        await eventually(lambda: "has changed since Discord last loaded it" in answer.content)
        assert answer.ephemeral


async def test_an_option_value_the_bot_no_longer_knows_is_answered(
    fake: FakeDiscord, bots: Bots
) -> None:
    """Discord's client still offers a variant an upgrade removed: discord.py cannot convert
    the choice, and the tree answers for the command."""
    async with bots.table("ann") as table:
        (ann,) = table.players
        new = next(
            sub
            for command in fake.commands(table.guild)
            if command["name"] == "rummy"
            for sub in command["options"]
            if sub["name"] == "new"
        )
        variant = next(o for o in new["options"] if o["name"] == "variant")
        variant["choices"].append({"name": "Gin Rummy", "value": "gin"})
        answer = await table.answer(ann, "rummy new", variant="gin")
        await eventually(lambda: "I couldn't use one of the values you gave" in answer.content)
        assert answer.ephemeral
        assert table.sessions.get(table.channel.id) is None


async def test_a_failed_check_is_answered_by_the_tree_in_the_person_s_language(
    bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="cogs.errors")
    async with bots.table("ann") as table:
        (ann,) = table.players
        refused = await table.answer(ann, "league newseason", locale="fr")
        await eventually(lambda: "Gérer le serveur" in refused.content)
        assert refused.ephemeral
        lines = [r.getMessage() for r in caplog.records if r.name == "cogs.errors"]
        assert lines == [
            "/league newseason refused before running (MissingPermissions): You are missing "
            "Manage Server permission(s) to run this command."
        ]


async def test_the_bot_asks_for_the_guilds_and_moderation_intents_only(bots: Bots) -> None:
    async with bots.table("ann") as table:
        assert table.bot.intents.value == discord.Intents(guilds=True, moderation=True).value
        assert not table.bot.intents.messages
        assert not table.bot.intents.members


async def test_a_channel_without_embed_links_is_enough_to_play(bots: Bots) -> None:
    async with bots.table("ann", "bob") as table:
        guild = table.guild
        guild.set_overwrite(
            table.channel, guild.bot_role, deny=discord.Permissions(embed_links=True)
        )
        await deal(table)  # the lobby, the deal and the table picture
        assert table.table_message() is not None


async def test_a_channel_without_attach_files_is_refused_with_that_name_only(bots: Bots) -> None:
    async with bots.table("ann") as table:
        (ann,) = table.players
        guild = table.guild
        guild.set_overwrite(
            table.channel,
            guild.bot_role,
            deny=discord.Permissions(attach_files=True, embed_links=True),
        )
        text = await table.text(ann, "rummy new", variant="classic")
        assert text == "I need these permissions in this channel: Attach Files."
        assert table.sessions.get(table.channel.id) is None
