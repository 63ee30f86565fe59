"""/rummy replay: a finished game of this server as an animated picture in the channel.

The game is read back and checked before anything is said (an unknown, unfinished or
another server's game gets a private answer at once); then the answer is deferred privately,
the picture is built on a thread of its own (one replay at a time in the process, so a run
of requests never takes the CPU from the games being played, and the event loop only waits
for the result), and it is posted in the channel for everyone, with who played and won.
"""

from __future__ import annotations

import asyncio
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import discord
from discord import app_commands

from bot.i18n import date_text, locale_of, t
from bot.rummy.timeline import timeline
from bot.sessions.replays import FinishedGame, NoSuchGame, NotFinished
from bot.storage import GameStatus, GameSummary
from cogs.flows import resolve
from cogs.ui import present
from cogs.ui.client import Interaction
from cogs.ui.picture_words import picture_words
from cogs.ui.replies import Refused, guarded, send
from cogs.ui.rule_words import variant_name
from rendering.replay import Replay, ReplayTooLong, render_replay
from rendering.words import ENGLISH_WORDS, Words

log = logging.getLogger(__name__)

FILENAME = "replay.gif"
LARGEST_ID = 2**53
"""Discord's largest integer option; game numbers are far below it."""
CHOICE_LIMIT = 100
"""Discord's longest autocomplete label."""

_BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")
"""Where replays are built, one at a time."""
WAITING_LIMIT = 4
"""Replays at most waiting for the builder or being built in the process: beyond, a request
is refused rather than queued, so a burst of requests cannot hold the builder for long."""


class _Builds:
    """The replays being made now: one at a time per person, one per game and channel
    (the same picture twice in a channel helps nobody), and at most :data:`WAITING_LIMIT`
    in all."""

    def __init__(self) -> None:
        self.people: set[int] = set()
        self.channels: set[tuple[int, int]] = set()

    def claim(self, user_id: int, channel_id: int, game_id: int) -> None:
        """Refuse a request these limits forbid, else count it until :meth:`done`."""
        if user_id in self.people:
            raise Refused("refusal.replay.yours_waiting")
        if (channel_id, game_id) in self.channels:
            raise Refused("refusal.replay.channel_waiting", game=game_id)
        if len(self.people) >= WAITING_LIMIT:
            raise Refused("refusal.replay.busy")
        self.people.add(user_id)
        self.channels.add((channel_id, game_id))

    def done(self, user_id: int, channel_id: int, game_id: int) -> None:
        self.people.discard(user_id)
        self.channels.discard((channel_id, game_id))


_BUILDS = _Builds()


async def post_replay(interaction: Interaction, game_id: int) -> None:
    async def work() -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refused("error.guild_only")
        if not 1 <= game_id <= LARGEST_ID:  # a modified client; no game has that number
            raise Refused("refusal.replay.unknown", game=game_id)
        found = await _finished(interaction, guild_id, game_id)
        where = interaction.channel_id or 0
        _BUILDS.claim(interaction.user.id, where, game_id)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            loop = asyncio.get_running_loop()
            try:
                words = picture_words(locale_of(interaction, public=True))
                built = await loop.run_in_executor(_BUILDER, partial(build, found, words))
            except ReplayTooLong as error:
                raise Refused(
                    "refusal.replay.too_long", game=game_id, rounds=error.rounds
                ) from None
            # The first follow-up fills the private "thinking" answer; the next one is public.
            await send(interaction, t("replay.posted", locale_of(interaction), game=game_id))
            picture = discord.File(io.BytesIO(built.gif), filename=FILENAME)
            text = replay_text(found, built, locale_of(interaction, public=True))
            await send(interaction, text, ephemeral=False, file=picture)
        finally:
            _BUILDS.done(interaction.user.id, where, game_id)

    await guarded(interaction, work)


async def _finished(interaction: Interaction, guild_id: int, game_id: int) -> FinishedGame:
    try:
        return await resolve.services(interaction).replays.finished_game(guild_id, game_id)
    except NoSuchGame:
        raise Refused("refusal.replay.unknown", game=game_id) from None
    except NotFinished as error:
        if error.status is GameStatus.ABANDONED:
            raise Refused("refusal.replay.abandoned", game=game_id) from None
        raise Refused("refusal.replay.not_over", game=game_id) from None


def build(found: FinishedGame, words: Words = ENGLISH_WORDS) -> Replay:
    """The replay of ``found`` in the channel's ``words`` (slow: run it off the event
    loop)."""
    return render_replay(timeline(found.game), names=found.names, words=words)


def replay_text(found: FinishedGame, built: Replay, loc: str) -> str:
    """What the replay is: the game, who played, who won; and which turns it shows."""
    game = found.game
    lines = [
        t(
            "replay.title",
            loc,
            game=found.id,
            variant=present.variant_name(game.ruleset, loc),
            players=", ".join(present.name_of(p, found.names) for p in game.players),
            winners=", ".join(present.name_of(w, found.names) for w in game.winners) or "—",
        )
    ]
    if built.step > 1:
        lines.append(t("replay.thinned", loc, step=built.step, turns=built.turns))
    return present.fit(lines)


async def game_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The server's latest finished games whose label holds what was typed (none when the
    list cannot be read: typing a number still works)."""
    try:
        return await _game_choices(interaction, current)
    except Exception:
        log.exception("replay autocomplete failed")
        return []


async def _game_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    guild_id = interaction.guild_id
    if guild_id is None:
        return []
    games = await resolve.services(interaction).replays.recent(guild_id)
    loc = locale_of(interaction)
    typed = str(current).strip().lower().lstrip("#")
    choices = []
    for game in games:
        label = choice_label(game, loc)
        if typed in label.lower():
            choices.append(app_commands.Choice(name=label, value=game.id))
    return choices


def choice_label(game: GameSummary, loc: str) -> str:
    """``#42 · Parlett's Basic Rummy · Alice, Bob · Dec 2, 2026``: what tells a game from
    the others, the variant and the day in the asker's words."""
    players = ", ".join(seat.display_name for seat in game.seats)
    when = date_text(game.finished_at or game.created_at, loc)
    variant = variant_name(game.ruleset_name, loc)
    label = t("replay.choice", loc, game=game.id, variant=variant, players=players, date=when)
    return label if len(label) <= CHOICE_LIMIT else label[: CHOICE_LIMIT - 1] + "…"
