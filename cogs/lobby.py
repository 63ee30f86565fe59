"""/rummy: create a table, join and leave it, start, cancel, kick, and look at it; and
erase a person's or the server's data (:mod:`cogs.erasure`).

The lobby message's buttons do the same as the commands; both go through :mod:`cogs.flows`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import sessions as s
from bot.app import RummyBot
from bot.i18n import locale_of, t
from bot.rummy import preset, preset_names, variants
from cogs import erasure, flows, present
from cogs.client import Interaction
from cogs.replay import game_choices, post_replay
from cogs.replies import Refused, guarded, send
from rendering import render_table

VARIANTS = [app_commands.Choice(name=v.title, value=v.name) for v in variants.VARIANTS.values()]
LEVELS = [
    app_commands.Choice(name="easy", value="easy"),
    app_commands.Choice(name="normal", value="normal"),
    app_commands.Choice(name="hard", value="hard"),
]
DEFAULT_TIMER = 2
"""Minutes a turn may take unless the host chooses otherwise."""
NOTIFY = [
    app_commands.Choice(name="every_turn", value="every_turn"),
    app_commands.Choice(name="when_away", value="when_away"),
]
SWITCH = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
]
SCORINGS = [
    app_commands.Choice(name="positive", value="positive"),
    app_commands.Choice(name="negative", value="negative"),
]


class Lobby(commands.Cog):
    rummy = app_commands.Group(
        name="rummy", description="Play Rummy in this channel", guild_only=True
    )

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @rummy.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        variant="Which Rummy",
        target="Score that ends the game",
        jokers="Play with jokers (Parlett, Rummy 500)",
        two_decks="Parlett: two decks for four or five players",
        ace_high="Parlett: aces high or low",
        ace_always_low="Rummy 500: aces always low",
        scoring="Classic: winner scores the others' hands (positive) or all score their own",
        simple_scoring="Every card counts 5 and tens/faces 10 (Classic, Rummy 500)",
        limit_layoffs="Lay off one card per turn, after melding (Classic, Rummy 500)",
        must_discard_to_go_out="Going out needs a final discard",
        ten_for_three="Parlett: ten cards each with three players",
        timer="Minutes a turn may take before it is played for the player (0: no timer)",
    )
    @app_commands.choices(variant=VARIANTS, scoring=SCORINGS)
    async def new(
        self,
        interaction: Interaction,
        variant: app_commands.Choice[str],
        target: app_commands.Range[int, 1, 100000] | None = None,
        jokers: bool | None = None,
        two_decks: bool | None = None,
        ace_high: bool | None = None,
        ace_always_low: bool | None = None,
        scoring: app_commands.Choice[str] | None = None,
        simple_scoring: bool | None = None,
        limit_layoffs: bool | None = None,
        must_discard_to_go_out: bool | None = None,
        ten_for_three: bool | None = None,
        timer: app_commands.Range[int, 0, 60] = DEFAULT_TIMER,
    ) -> None:
        chosen: dict[str, Any] = {
            "target": target,
            "jokers": jokers,
            "two_decks": two_decks,
            "ace_high": ace_high,
            "ace_always_low": ace_always_low,
            "scoring": scoring.value if scoring is not None else None,
            "simple_scoring": simple_scoring,
            "limit_layoffs": limit_layoffs,
            "must_discard_to_go_out": must_discard_to_go_out,
            "ten_for_three": ten_for_three,
        }
        options = {name: value for name, value in chosen.items() if value is not None}

        async def work() -> None:
            ruleset = preset(variant.value, **options)
            await flows.create_lobby(interaction, ruleset, timer)

        await guarded(interaction, work)

    @rummy.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await flows.lobby_command(interaction, "join")

    @rummy.command(name="leave", description="Leave this channel's table before the game starts")
    async def leave(self, interaction: Interaction) -> None:
        await flows.lobby_command(interaction, "leave")

    @rummy.command(
        name="addbot",
        description="Seat a computer player at this channel's table (host or moderator)",
    )
    @app_commands.describe(level="How well it plays")
    @app_commands.choices(level=LEVELS)
    async def addbot(
        self, interaction: Interaction, level: app_commands.Choice[str] | None = None
    ) -> None:
        await flows.lobby_command(interaction, "addbot", level.value if level else "normal")

    @rummy.command(name="start", description="Deal the cards (host or moderator)")
    async def start(self, interaction: Interaction) -> None:
        await flows.lobby_command(interaction, "start")

    @rummy.command(
        name="cancel", description="Cancel this channel's game (host or Manage Messages)"
    )
    async def cancel(self, interaction: Interaction) -> None:
        await flows.lobby_command(interaction, "cancel")

    @rummy.command(name="kick", description="Remove a player from the lobby (host or moderator)")
    @app_commands.describe(player="Who to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            session = flows.channel_session(interaction)
            await session.kick(
                interaction.user.id, player.id, moderator=flows.is_moderator(interaction)
            )
            await send(
                interaction,
                t(
                    "lobby.kicked",
                    locale_of(interaction),
                    player=present.as_text(player.display_name),
                ),
            )

        await guarded(interaction, work)

    @rummy.command(name="status", description="Show this channel's table (only you see it)")
    async def status(self, interaction: Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            session = flows.channel_session(interaction)
            loc = locale_of(interaction)
            if session.status is s.SessionStatus.LOBBY:
                await send(interaction, flows.lobby_text_of(session, loc))
                return
            view = session.view(None)
            names = dict(session.names)
            text = present.table_text(view, names, loc)
            picture = await asyncio.to_thread(render_table, view, names=names)
            await send(interaction, text, file=flows.png(picture, "table.png"))

        await guarded(interaction, work)

    @rummy.command(name="notify", description="How you are told that your turn has begun")
    @app_commands.describe(
        when="every_turn: a new DM each turn; when_away: only after 2 minutes away from the game"
    )
    @app_commands.choices(when=NOTIFY)
    async def notify(self, interaction: Interaction, when: app_commands.Choice[str]) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            away = when.value == "when_away"
            await flows.manager(interaction).set_notify_when_away(interaction.user.id, away)
            flows.set_quiet(interaction, away)
            key = "notify.when_away" if away else "notify.every_turn"
            await send(interaction, t(key, locale_of(interaction)))

        await guarded(interaction, work)

    @rummy.command(name="settings", description="This server's Rummy settings (Manage Server)")
    @app_commands.describe(
        threads="Each game in a thread of its own (on), or in the channel where it is opened (off)"
    )
    @app_commands.choices(threads=SWITCH)
    async def settings(
        self, interaction: Interaction, threads: app_commands.Choice[str] | None = None
    ) -> None:
        # Discord keeps default permissions for top-level commands only, so a subcommand
        # checks its own (like /league newseason).
        async def work() -> None:
            loc = locale_of(interaction)
            if interaction.guild_id is None:
                raise Refused("error.guild_only")
            if not flows.is_moderator(interaction, "manage_guild"):
                permission = t("permission.manage_guild", loc)
                await send(
                    interaction, t("error.user_missing_permissions", loc, permissions=permission)
                )
                return
            book = flows.manager(interaction).server_settings
            if threads is None:
                chosen = await book.of(interaction.guild_id)
            else:
                chosen = await book.change(interaction.guild_id, threads=threads.value == "on")
            key = "settings.threads_on" if chosen.threads else "settings.threads_off"
            await send(interaction, t(key, loc))

        await guarded(interaction, work)

    @rummy.command(
        name="rules", description="Show the rules of this channel's game, or of every variant"
    )
    async def rules(self, interaction: Interaction) -> None:
        async def work() -> None:
            loc = locale_of(interaction)
            session = flows.session_here(interaction)
            if session is not None:
                text = "\n".join(present.rules_lines(session.ruleset, loc))
            else:
                blocks = []
                for name in preset_names():
                    blocks.append("\n".join(present.rules_lines(preset(name), loc)))
                text = present.fit("\n\n".join(blocks).split("\n"))
            await send(interaction, text)

        await guarded(interaction, work)

    @rummy.command(name="replay", description="Watch a finished game of this server again")
    @app_commands.describe(game="The game's number (in /league history and its final result)")
    @app_commands.autocomplete(game=game_choices)
    async def replay(self, interaction: Interaction, game: int) -> None:
        await post_replay(interaction, game)

    @rummy.command(name="forget-me", description="Erase what this bot keeps about you (asks first)")
    async def forget_me(self, interaction: Interaction) -> None:
        await erasure.forget_me(interaction)

    @rummy.command(
        name="forget-server",
        description="Erase this server's games and league (Manage Server; asks first)",
    )
    async def forget_server(self, interaction: Interaction) -> None:
        await erasure.forget_server(interaction)


async def setup(bot: RummyBot) -> None:
    await bot.add_cog(Lobby(bot))
