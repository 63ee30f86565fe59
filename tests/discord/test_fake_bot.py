"""The fake Discord driven by the real discord.py: a small test bot exercises each feature."""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from tests.discord.conftest import BotFactory
from tests.discord.fake import FakeDiscord, User
from tests.discord.fake.server import ANSWER_DEADLINE
from tests.waiting import PATIENCE, eventually


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>\d+)"):
    """A persistent button whose state lives in its custom id, like Rummy's move buttons."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class Picker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="pick",
        options=[discord.SelectOption(label=f"Card {i}", value=str(i)) for i in range(5)],
        max_values=2,
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class Ticker(discord.ui.View):
    """A plain (non-persistent) view: its clicks must carry the message id it was sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Tick", custom_id="tick")
    async def tick(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="ticked", view=None)
        await interaction.followup.send("only you see this", ephemeral=True)


class ProbeCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.errors: list[discord.HTTPException] = []

    rummy = app_commands.Group(name="rummy", description="Play rummy")
    league = app_commands.Group(name="league", description="The league", parent=rummy)

    @rummy.command(name="new", description="Open a table")
    @app_commands.describe(variant="Which rules")
    async def new(
        self,
        interaction: discord.Interaction[Any],
        variant: Literal["classic", "parlett", "500"],
        target: app_commands.Range[int, 50, 1000] = 100,
        rival: discord.User | None = None,
    ) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        rival_text = f" vs {rival.name}" if rival else ""
        await interaction.response.send_message(
            f"{variant} to {target}{rival_text} in {interaction.locale.value}"
            f"/{interaction.guild_locale.value if interaction.guild_locale else '-'}",
            view=view,
        )

    @league.command(name="table", description="Standings")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("standings", ephemeral=True)

    @rummy.command(name="pick", description="A select menu")
    async def pick(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pick cards", view=Picker())

    @app_commands.command(name="board", description="A message with a plain view")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("board", view=Ticker())

    @app_commands.command(name="hand", description="An ephemeral picture after a defer")
    async def hand(self, interaction: discord.Interaction[Any], now: bool = False) -> None:
        picture = discord.File(io.BytesIO(b"cards"), "hand.png")
        if now:
            await interaction.response.send_message("your hand", file=picture, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("your hand", file=picture)

    @app_commands.command(name="scratch", description="Edits and deletes its own answers")
    async def scratch(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("temporary")
        note = await interaction.followup.send("note", wait=True)
        await note.edit(content="note (edited)")
        extra = await interaction.followup.send("extra", wait=True)
        await extra.delete()
        await interaction.delete_original_response()

    @app_commands.command(name="where", description="Whether the channel is in the cache")
    async def where(self, interaction: discord.Interaction[Any]) -> None:
        known = interaction.guild is not None and bool(
            interaction.guild.get_channel_or_thread(interaction.channel_id or 0)
        )
        await interaction.response.send_message(f"known={known}", ephemeral=True)

    @app_commands.command(name="meld", description="Meld cards")
    async def meld(self, interaction: discord.Interaction[Any], cards: str) -> None:
        await interaction.response.send_message(f"melded {cards}", ephemeral=True)

    @meld.autocomplete("cards")
    async def meld_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        count = int(current) if current.isdigit() else 3
        return [
            app_commands.Choice(name=f"{current} #{i}", value=f"{current}{i}") for i in range(count)
        ]

    @app_commands.command(name="slow", description="Defer, then follow up with a file")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send(
            "here is the picture", file=discord.File(io.BytesIO(b"\x89PNG fake"), "table.png")
        )
        await interaction.followup.send("second", ephemeral=True)
        await interaction.edit_original_response(content="here is the picture (edited)")

    @app_commands.command(name="dm", description="DM someone")
    async def dm(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        try:
            message = await player.send(
                "your hand", file=discord.File(io.BytesIO(b"hand"), "hand.png")
            )
        except discord.Forbidden as error:
            self.errors.append(error)
            await interaction.response.send_message("DMs closed", ephemeral=True)
            return
        await message.edit(content="your hand (updated)")
        await interaction.response.send_message("sent")

    @app_commands.command(name="twice", description="Answers twice")
    async def twice(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("one")
        with contextlib.suppress(discord.InteractionResponded):
            await interaction.response.send_message("two")
        # Bypass discord.py's own guard to reach the server a second time.
        adapter = discord.webhook.async_.async_context.get()
        try:
            await adapter.create_interaction_response(
                interaction.id,
                interaction.token,
                session=interaction._session,
                params=discord.webhook.async_.interaction_response_params(
                    type=4, data={"content": "two"}
                ),
            )
        except discord.HTTPException as error:
            self.errors.append(error)

    @app_commands.command(name="late", description="Answers after a pause")
    async def late(self, interaction: discord.Interaction[Any], pause: float) -> None:
        await asyncio.sleep(pause)
        try:
            await interaction.response.send_message("late")
        except discord.HTTPException as error:
            self.errors.append(error)

    @app_commands.command(name="manage", description="Moderators only")
    @app_commands.default_permissions(manage_guild=True)
    async def manage(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.app_permissions.send_messages
        await interaction.response.send_message(
            f"manage_messages={interaction.permissions.manage_messages}", ephemeral=True
        )


class ProbeBot(commands.Bot):
    def __init__(self, *, guild_id: int | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.1,
        )
        self.guild_id = guild_id
        self.cog = ProbeCog(self)

    async def setup_hook(self) -> None:
        await self.add_cog(self.cog)
        self.add_dynamic_items(Counter)
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await self.tree.sync()


async def test_login_sync_and_slash_command(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild = fake.add_guild("Cards", locale="fr")
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice", locale="de")
    bob = fake.add_user("bob")
    bot: ProbeBot = await bot_factory(ProbeBot)
    assert bot.user is not None
    assert bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    assert bot.get_guild(guild.id) is not None
    assert bot.get_channel(table.id) is not None

    rummy = fake.command("rummy")
    new = next(o for o in rummy["options"] if o["name"] == "new")
    variant = next(o for o in new["options"] if o["name"] == "variant")
    assert [c["value"] for c in variant["choices"]] == ["classic", "parlett", "500"]

    ix = await fake.slash(alice, table, "rummy new", variant="parlett", target=200, rival=bob)
    answer = await ix.response()
    assert answer.type == 4
    assert answer.content == "parlett to 200 vs bob in de/fr"
    assert not answer.ephemeral
    assert fake.messages(table) == [answer.message]
    assert ix.latency is not None
    assert 0 <= ix.latency <= ANSWER_DEADLINE  # a later answer would have been refused
    # Heartbeats are acknowledged: discord.py measures a finite gateway latency.
    await eventually(lambda: math.isfinite(bot.latency))


async def _world(fake: FakeDiscord) -> tuple[Any, Any, User, User]:
    guild = fake.add_guild("Cards")
    table = guild.add_text_channel("table")
    alice = fake.add_user("alice")
    closed = fake.add_user("closed", dm_open=False)
    return guild, table, alice, closed


async def test_dynamic_button_edits_message_in_place(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    lobby = (
        await (await fake.slash(alice, table, "rummy new", variant="classic")).response()
    ).message
    assert lobby is not None
    assert lobby.button("Count 0")["custom_id"] == "count:0"
    click = await fake.click(alice, lobby, "count:0")
    answer = await click.response()
    assert answer.type == 7
    assert answer.message is lobby
    assert lobby.content == "count 1"
    assert lobby.custom_ids() == ["count:1"]
    assert lobby.edits == 1
    assert lobby.versions == ["classic to 100 in en-US/en-US"]
    assert fake.messages(table) == [lobby]
    # An old button is gone from the message: the fake refuses to click it.
    try:
        await fake.click(alice, lobby, "count:0")
    except ValueError:
        pass
    else:
        raise AssertionError("clicked a button that is no longer there")


async def test_subcommand_group_select_and_ephemeral(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    guild, table, alice, _ = await _world(fake)
    thread = guild.add_thread(table, "side")
    await bot_factory(ProbeBot)
    standings = await (await fake.slash(alice, thread, "rummy league table")).response()
    assert standings.content == "standings"
    assert standings.ephemeral
    assert fake.messages(thread) == []
    assert fake.messages(thread, ephemeral=True) == [standings.message]

    menu = (await (await fake.slash(alice, table, "rummy pick")).response()).message
    assert menu is not None
    [select] = menu.selects()
    assert len(select["options"]) == 5
    picked = await (await fake.select(alice, menu, "pick", ["1", "3"])).response()
    assert picked.content == "picked 1,3"
    assert picked.ephemeral


async def test_autocomplete_choices(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    choices = await fake.autocomplete(alice, table, "meld", focused="cards", cards="2")
    assert choices == [{"name": "2 #0", "value": "20"}, {"name": "2 #1", "value": "21"}]


async def test_defer_then_followups_with_file_and_edit(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    ix = await fake.slash(alice, table, "slow")
    first = await ix.response()
    assert first.type == 5
    assert first.deferred
    picture, second = await ix.followups(2)
    # The first follow-up after a "thinking" defer fills the placeholder in.
    assert picture is ix.original
    await ix.wait_until(lambda i: i.original is not None and i.original.edits == 1)
    assert picture.content == "here is the picture (edited)"
    assert picture.attachment("table.png").data == b"\x89PNG fake"
    assert picture.attachments[0].content_type == "image/png"
    assert second.ephemeral
    assert not picture.ephemeral
    assert fake.messages(table) == [picture]


async def test_dms_open_and_closed(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, table, alice, closed = await _world(fake)
    bot: ProbeBot = await bot_factory(ProbeBot)
    sent = await (await fake.slash(alice, table, "dm", player=alice)).response()
    assert sent.content == "sent"
    [hand] = fake.dms(alice)
    assert hand.content == "your hand (updated)"
    assert hand.attachment("hand.png").data == b"hand"
    assert hand.edits == 1

    refused = await (await fake.slash(alice, table, "dm", player=closed)).response()
    assert refused.content == "DMs closed"
    assert refused.ephemeral
    [error] = bot.cog.errors
    assert error.status == 403
    assert error.code == 50007
    assert fake.dms(closed) == []


async def test_buttons_on_a_dm(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, _, alice, _ = await _world(fake)
    bot: ProbeBot = await bot_factory(ProbeBot)
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(5))
    user = await bot.fetch_user(alice.id)
    await user.send("hand", view=view)
    [hand] = fake.dms(alice)
    answer = await (await fake.click(alice, hand, "count:5")).response()
    assert answer.type == 7
    assert hand.content == "count 6"


async def test_second_answer_is_refused(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, table, alice, _ = await _world(fake)
    bot: ProbeBot = await bot_factory(ProbeBot)
    ix = await fake.slash(alice, table, "twice")
    assert (await ix.response()).content == "one"
    await ix.wait_until(lambda i: bool(i.rejected))
    assert [e.code for e in ix.rejected] == [40060]
    await eventually(lambda: bool(bot.cog.errors))
    [error] = bot.cog.errors
    assert error.status == 400
    assert error.code == 40060


async def test_answer_after_deadline_is_refused(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, table, alice, _ = await _world(fake)
    bot: ProbeBot = await bot_factory(ProbeBot)
    fake.interaction_deadline = 0.2
    ix = await fake.slash(alice, table, "late", pause=0.5)
    await ix.wait_until(lambda i: bool(i.rejected))
    assert ix.first is None
    assert [e.code for e in ix.rejected] == [10062]
    await eventually(lambda: bool(bot.cog.errors))
    [error] = bot.cog.errors
    assert isinstance(error, discord.NotFound)
    assert error.code == 10062
    fake.interaction_deadline = PATIENCE  # a pause of 0.5 s, as long as the machine needs
    on_time = await fake.slash(alice, table, "late", pause=0.5)
    assert (await on_time.response()).content == "late"


async def test_permissions_reach_the_bot(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    guild, table, alice, _ = await _world(fake)
    mods = guild.add_role("mods", discord.Permissions(manage_messages=True, manage_guild=True))
    mod = fake.add_user("mod", roles=[mods])
    await bot_factory(ProbeBot)
    answer = await (await fake.slash(mod, table, "manage")).response()
    assert answer.content == "manage_messages=True"
    try:
        await fake.slash(alice, table, "manage")
    except PermissionError:
        pass
    else:
        raise AssertionError("a command hidden by default_member_permissions was offered")
    ix = await fake.slash(alice, table, "manage", check_permissions=False)
    assert (await ix.response()).content == "manage_messages=False"


async def test_channel_messages_edits_attachments_history_and_pings(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    _, table, alice, _ = await _world(fake)
    bob = fake.add_user("bob")
    bot: ProbeBot = await bot_factory(ProbeBot)
    channel = bot.get_channel(table.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(
        f"{alice.mention} to play, {bob.mention} waits",
        file=discord.File(io.BytesIO(b"one"), "table.png"),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(alice.id)]),
    )
    [stored] = fake.messages(table)
    assert stored.pinged(alice)
    assert not stored.pinged(bob)
    await sent.edit(
        content=f"{bob.mention} to play",
        attachments=[discord.File(io.BytesIO(b"two"), "table.png")],
    )
    assert stored.attachment("table.png").data == b"two"
    assert len(stored.attachments) == 1
    assert stored.edits == 1
    assert not stored.pinged(bob)  # edits notify nobody
    await sent.edit(content="kept picture")
    assert stored.attachment("table.png").data == b"two"
    other = await channel.send("second")
    history = [m async for m in channel.history(limit=10)]
    assert [m.id for m in history] == [other.id, sent.id]
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "kept picture"
    assert fetched.attachments[0].filename == "table.png"
    assert await fetched.attachments[0].read() == b"two"

    # The bot also hears of its own messages over the gateway, edits included.
    def cached() -> dict[int, str]:
        return {m.id: m.content for m in bot.cached_messages}

    await eventually(lambda: cached().get(sent.id) == "kept picture" and other.id in cached())
    assert cached() == {sent.id: "kept picture", other.id: "second"}
    await other.delete()
    await eventually(lambda: len(bot.cached_messages) == 1)
    assert [m.id for m in bot.cached_messages] == [sent.id]
    assert fake.messages(table) == [stored]
    assert fake.messages(table, deleted=True)[-1].deleted
    found = await fake.wait_for(lambda m: m.content == "kept picture")
    assert found is stored


async def test_deferred_update_then_edit_original(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    board = (await (await fake.slash(alice, table, "board")).response()).message
    assert board is not None
    ix = await fake.click(alice, board, "tick")
    answer = await ix.response()
    assert answer.type == 6
    [note] = await ix.followups(1)
    await ix.wait_until(lambda i: board.content == "ticked")
    assert board.components == []
    assert ix.original is board
    assert note.ephemeral
    assert fake.messages(table) == [board]


async def test_slash_command_in_a_dm(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, _, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    ix = await fake.slash(alice, fake.dm_channel(alice), "meld", cards="kd")
    assert "guild_id" not in ix.payload
    answer = await ix.response()
    assert answer.content == "melded kd"
    assert fake.dms(alice) == []  # ephemeral


async def test_ephemeral_pictures_direct_and_after_defer(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    direct = await (await fake.slash(alice, table, "hand", now=True)).response()
    assert direct.type == 4
    assert direct.ephemeral
    assert direct.attachments[0].data == b"cards"
    ix = await fake.slash(alice, table, "hand")
    deferred = await ix.response()
    assert deferred.type == 5
    assert deferred.ephemeral
    [filled] = await ix.followups(1)
    assert filled is ix.original
    assert filled.ephemeral
    assert not filled.loading
    assert filled.content == "your hand"
    assert filled.attachment("hand.png").data == b"cards"
    assert fake.messages(table) == []


async def test_followup_edit_and_deletes(fake: FakeDiscord, bot_factory: BotFactory) -> None:
    _, table, alice, _ = await _world(fake)
    await bot_factory(ProbeBot)
    ix = await fake.slash(alice, table, "scratch")
    first = await ix.response()
    assert first.content == "temporary"
    await ix.wait_until(lambda i: i.original is not None and i.original.deleted)
    note, extra = await ix.followups(2)
    assert note.content == "note (edited)"
    assert extra.deleted
    assert fake.messages(table) == [note]
    routes = [r.route for r in fake.requests if r.interaction_id == ix.id]
    assert routes == [
        "POST /interactions/{interaction_id}/{token}/callback",
        "POST /webhooks/{application_id}/{token}",
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
        "POST /webhooks/{application_id}/{token}",
        "DELETE /webhooks/{application_id}/{token}/messages/{message_id}",
        "DELETE /webhooks/{application_id}/{token}/messages/{message_id}",
    ]
