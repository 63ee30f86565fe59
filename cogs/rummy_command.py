"""/rummy: create a table, join and leave it, start, cancel, kick, and look at it; and
erase a person's or the server's data (:mod:`cogs.flows.erasure`).

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
from bot.rummy import Ruleset, preset, variants
from cogs.flows import erasure, resolve, seat_flows, settings, web_links
from cogs.flows import lobby as lobby_flows
from cogs.flows.replay import game_choices, post_replay
from cogs.ui import help, house_options, present, rule_words
from cogs.ui.client import Interaction
from cogs.ui.picture_words import picture_words
from cogs.ui.replies import guarded, png, send
from rendering import render_table

VARIANTS = [app_commands.Choice(name=v.title, value=v.name) for v in variants.VARIANTS.values()]
LEVELS = [
    app_commands.Choice(name="easy", value="easy"),
    app_commands.Choice(name="normal", value="normal"),
    app_commands.Choice(name="hard", value="hard"),
]
NOTIFY = [
    app_commands.Choice(name="every_turn", value="every_turn"),
    app_commands.Choice(name="when_away", value="when_away"),
]
SWITCH = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
]
DECKS = [
    app_commands.Choice(name="four colours", value="four_colours"),
    app_commands.Choice(name="two colours", value="two_colours"),
]
THEMES = [
    app_commands.Choice(name="dark", value="dark"),
    app_commands.Choice(name="light", value="light"),
]
SORTS = [
    app_commands.Choice(name="by suit", value="suit"),
    app_commands.Choice(name="by rank", value="rank"),
]


class RummyCommand(commands.Cog):
    rummy = app_commands.Group(
        name="rummy", description="Play Rummy in this channel", guild_only=True
    )

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @rummy.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        variant="Which Rummy",
        **house_options.descriptions(),
        timer="Minutes a turn may take before it is played for the player (0: no timer)",
        open_seats="Whether people not seated may take over the computer players you add",
    )
    @app_commands.choices(variant=VARIANTS, **house_options.choices())
    @house_options.house_parameters(before="timer")
    async def new(
        self,
        interaction: Interaction,
        variant: app_commands.Choice[str] | None = None,
        timer: app_commands.Range[int, 0, 60] | None = None,
        open_seats: bool | None = None,
        **house: Any,
    ) -> None:
        # Without a variant or a timer, the server's defaults (cogs.flows.settings).
        options = house_options.given(house)

        async def work() -> None:
            name = variant.value if variant is not None else None
            ruleset, minutes = await settings.table_to_open(interaction, name, options, timer)
            await lobby_flows.create_lobby(
                interaction, ruleset, minutes, open_seats=bool(open_seats)
            )

        await guarded(interaction, work)

    @rummy.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await seat_flows.seat_command(interaction, "join")

    @rummy.command(
        name="leave",
        description="Leave this channel's table (once dealt, a computer plays your seat)",
    )
    async def leave(self, interaction: Interaction) -> None:
        await seat_flows.seat_command(interaction, "leave")

    @rummy.command(
        name="addbot",
        description="Seat a computer player at this channel's table (host or moderator)",
    )
    @app_commands.describe(level="How well it plays")
    @app_commands.choices(level=LEVELS)
    async def addbot(
        self, interaction: Interaction, level: app_commands.Choice[str] | None = None
    ) -> None:
        await lobby_flows.lobby_command(interaction, "addbot", level.value if level else "normal")

    @rummy.command(name="start", description="Deal the cards (host or moderator)")
    async def start(self, interaction: Interaction) -> None:
        await lobby_flows.lobby_command(interaction, "start")

    @rummy.command(
        name="cancel", description="Cancel this channel's game (host or Manage Messages)"
    )
    async def cancel(self, interaction: Interaction) -> None:
        await lobby_flows.lobby_command(interaction, "cancel")

    @rummy.command(name="kick", description="Remove a player from the lobby (host or moderator)")
    @app_commands.describe(player="Who to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            session = resolve.channel_session(interaction)
            await session.kick(
                interaction.user.id, player.id, moderator=resolve.is_moderator(interaction)
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
            session = resolve.channel_session(interaction)
            loc = locale_of(interaction)
            if session.status is s.SessionStatus.LOBBY:
                await send(interaction, lobby_flows.lobby_text_of(session, loc))
                return
            view = session.view(None)
            names = dict(session.names)
            text = present.table_text(view, names, loc)
            look = await resolve.look_of(interaction)
            picture = await asyncio.to_thread(
                render_table,
                view,
                names=names,
                theme=look.theme,
                four_colour=look.four_colour,
                words=picture_words(loc),
            )
            await send(interaction, text, file=png(picture, "table.png"))

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
            await resolve.manager(interaction).set_notify_when_away(interaction.user.id, away)
            resolve.set_quiet(interaction, away)
            key = "notify.when_away" if away else "notify.every_turn"
            await send(interaction, t(key, locale_of(interaction)))

        await guarded(interaction, work)

    @rummy.command(name="settings", description="This server's Rummy settings (Manage Server)")
    @app_commands.describe(
        threads="Each game in a thread of its own (on), or in the channel where it is opened (off)",
        variant="The game /rummy new opens when it names none, with the options given here",
        **house_options.descriptions(),
        timer="Minutes a turn may take when /rummy new gives no timer (0: no timer)",
        role="Who may open tables (people who manage the server always may; @everyone: anyone)",
    )
    @app_commands.choices(threads=SWITCH, variant=VARIANTS, **house_options.choices())
    @house_options.house_parameters(before="timer")
    async def settings(
        self,
        interaction: Interaction,
        threads: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        timer: app_commands.Range[int, 0, 60] | None = None,
        role: discord.Role | None = None,
        **house: Any,
    ) -> None:
        options = house_options.given(house)

        async def work() -> None:
            await settings.server_settings(
                interaction,
                threads=threads.value == "on" if threads is not None else None,
                variant=variant.value if variant is not None else None,
                options=options,
                timer=timer,
                role=role,
            )

        await guarded(interaction, work, unexpected="error.unexpected_settings")

    @rummy.command(
        name="preferences", description="Your own settings: cards, pictures, hand order, turns"
    )
    @app_commands.describe(
        deck="Four colours: clubs green and diamonds blue; two colours: red and black",
        theme="Your pictures dark or light",
        sort="Your hand ordered by suit or by rank",
        notify="every_turn: a new DM each turn; when_away: only after 2 minutes away from the game",
    )
    @app_commands.choices(deck=DECKS, theme=THEMES, sort=SORTS, notify=NOTIFY)
    async def preferences(
        self,
        interaction: Interaction,
        deck: app_commands.Choice[str] | None = None,
        theme: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
        notify: app_commands.Choice[str] | None = None,
    ) -> None:
        async def work() -> None:
            await settings.preferences(
                interaction,
                four_colour=deck.value == "four_colours" if deck is not None else None,
                theme=theme.value if theme is not None else None,
                sort=sort.value if sort is not None else None,
                notify_when_away=notify.value == "when_away" if notify is not None else None,
            )

        await guarded(interaction, work, unexpected="error.unexpected_settings")

    @rummy.command(
        name="rules", description="Show the rules of this channel's game, or of every variant"
    )
    async def rules(self, interaction: Interaction) -> None:
        async def work() -> None:
            loc = locale_of(interaction)
            session = resolve.session_here(interaction)
            if session is not None:
                lines = rule_words.rules_lines(session.ruleset, loc)
            else:
                lines = rule_words.variants_overview(loc)
            await send(interaction, present.fit(lines))

        await guarded(interaction, work)

    @rummy.command(
        name="help", description="How to play: a turn step by step, per variant (only you see it)"
    )
    @app_commands.describe(variant="Which Rummy (default: the game here)")
    @app_commands.choices(variant=VARIANTS)
    async def help_command(
        self, interaction: Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        async def work() -> None:
            if variant is not None:
                ruleset: Ruleset | None = preset(variant.value)
            else:
                session = resolve.session_here(interaction)
                ruleset = session.ruleset if session is not None else None
            for text in help.help_messages(ruleset, locale_of(interaction)):
                await send(interaction, text)

        await guarded(interaction, work)

    @rummy.command(name="replay", description="Watch a finished game of this server again")
    @app_commands.describe(game="The game's number (in /league history and its final result)")
    @app_commands.autocomplete(game=game_choices)
    async def replay(self, interaction: Interaction, game: int) -> None:
        await post_replay(interaction, game)

    @rummy.command(
        name="web", description="Open this channel's table in your browser (only you see it)"
    )
    async def web(self, interaction: Interaction) -> None:
        await web_links.web_command(interaction)

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
    await bot.add_cog(RummyCommand(bot))
