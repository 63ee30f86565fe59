"""Play again: the button on a finished game's result opens the next lobby in one click.

The new lobby opens where ``/rummy new`` would have opened it: in the channel of the
finished game's lobby message (a game played in a thread started from it opened there), in
a thread of its own when the server wants threads. The same variant, options, timer and
seats are taken from storage (the button carries the game id only, so it works after a
restart); the people queued for the next game are seated while seats remain and told so in
the new lobby's place. The clicker hosts it; seated people confirm by being there, and
leave it with the usual Leave.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot import sessions as s
from bot.app import RummyBot
from bot.i18n import locale_of, t
from bot.services.server_settings import ServerSettingsBook
from cogs.flows import lobby as lobby_flows
from cogs.flows import resolve, settings
from cogs.ui import components, threads
from cogs.ui.client import Interaction
from cogs.ui.items import AgainButton
from cogs.ui.present import as_text
from cogs.ui.replies import AnswerFailed, Refused, after_commit, guarded, send

log = logging.getLogger(__name__)


async def play_again(interaction: Interaction, game_id: int) -> None:
    """Play again, clicked on the result of the finished game ``game_id``."""

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        resolve.remember(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refused("refusal.button.elsewhere")
        manager = resolve.manager(interaction)
        # The same rights as /rummy new: a Play again opens a table too.
        settings.may_open(
            interaction, await resolve.services(interaction).server_settings.of(guild_id)
        )
        record = await manager.stored_game(game_id)
        if (
            record is None
            or record.guild_id != guild_id
            or interaction.channel_id not in (record.channel_id, record.lobby_channel_id)
        ):
            raise Refused("refusal.button.elsewhere")
        where = record.lobby_channel_id or record.channel_id
        later = manager.by_game(record.rematch_id) if record.rematch_id is not None else None
        if later is not None:
            # Played again already: the click leads to that table.
            raise Refused("refusal.again.done_at", channel=f"<#{later.channel_id}>")
        if manager.get(where) is not None:
            raise s.ChannelBusy("refusal.table.taken")
        channel = interaction.client.get_channel(where)
        threaded = await _threaded(resolve.services(interaction).server_settings, channel)
        display = resolve.notifier(interaction)
        display.pending_channels.add(where)
        try:
            session, plan = await manager.play_again(game_id, interaction.user.id, placing=threaded)
        except BaseException:
            display.pending_channels.discard(where)
            raise
        loc = display.guild_locale(guild_id)
        try:
            place = await _show(interaction, session, game_id, where, loc, threaded)
        except NotShown:
            # Called off, and Play again works again: nothing of it remains.
            await send(
                interaction, t("again.not_shown", locale_of(interaction), channel=f"<#{where}>")
            )
            return
        except Exception as error:
            raise AnswerFailed("error.after_commit.lobby") from error
        finally:
            session.placed()
        with after_commit("error.after_commit.lobby"):
            back = tuple(
                seat.user_id
                for seat in plan.seats
                if seat.user_id is not None
                and seat.user_id != interaction.user.id
                and seat.user_id not in plan.from_queue
            )
            if back or plan.from_queue:
                await _tell_seated(interaction, place, back, plan.from_queue, loc)
            mine = locale_of(interaction)
            lines = [t("again.opened", mine, channel=f"<#{place}>")]
            if plan.left_out:
                lines.append(
                    t("again.left_out", mine, names=", ".join(as_text(n) for n in plan.left_out))
                )
            await send(interaction, "\n".join(lines))

    await guarded(interaction, work)


async def _threaded(settings: ServerSettingsBook, channel: object) -> bool:
    """Whether the new lobby gets a thread, as ``/rummy new`` in ``channel`` would."""
    if not isinstance(channel, discord.TextChannel):
        return False
    if not (await settings.of(channel.guild.id)).threads:
        return False
    me = channel.guild.me
    return me is None or not threads.missing_permissions(channel.permissions_for(me))


class NotShown(Exception):
    """Discord refused the new lobby's message: the lobby was called off, and Play again
    of the finished game works again."""


async def _show(
    interaction: Interaction,
    session: s.Session,
    game_id: int,
    where: int,
    loc: str,
    threaded: bool,
) -> int:
    """Post the lobby message in ``where`` and, ``threaded``, move the lobby into a thread
    started from it; returns where the lobby lives. A lobby nobody can see is called off
    (:class:`NotShown`), as if Play again of ``game_id`` had not been pressed; when even that
    fails, the lobby stays (``/rummy cancel`` clears it) and the error is raised."""
    display = resolve.notifier(interaction)
    messages = display.messages_of(session.game_id, session.guild_id, session.channel_id)
    messages.locale = loc
    target = interaction.client.get_partial_messageable(where, guild_id=session.guild_id)
    try:
        await display.pace()
        message = await target.send(
            lobby_flows.lobby_text_of(session, loc),
            view=components.lobby_view(session.game_id, loc),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except Exception as error:
        display.pending_channels.discard(where)
        try:
            await resolve.manager(interaction).unsee_rematch(game_id, session)
        except Exception:
            log.exception("game %s: could not call off the lobby nobody saw", session.game_id)
            raise error from None
        log.warning("game %s: its lobby could not be shown; it was called off", session.game_id)
        raise NotShown from error
    finally:
        display.pending_channels.discard(where)
    display.set_lobby_message(session.game_id, session.guild_id, where, message.id)
    if not threaded:
        return where
    host = next((x.display_name for x in session.seats if x.user_id == session.host_id), "")
    try:
        await display.pace()
        thread = await target.get_partial_message(message.id).create_thread(
            name=threads.thread_name(session.ruleset, host, loc),
            auto_archive_duration=threads.HIDE_AFTER,
        )
    except discord.HTTPException as error:
        log.info("game %s: no thread (%s); it plays in the channel", session.game_id, error)
        return where
    try:
        await resolve.manager(interaction).move_to_thread(session, thread.id)
    except s.SessionError:
        with contextlib.suppress(discord.HTTPException):
            await threads.archive(interaction.client, thread.id)
        return where
    display.moved(session.game_id, thread.id, where)
    return thread.id


async def _tell_seated(
    interaction: Interaction,
    place: int,
    back: tuple[int, ...],
    queued: tuple[int, ...],
    loc: str,
) -> None:
    """The people seated at the new table (the last game's players but the one who pressed
    Play again, and the queued people who got a seat) hear it where the new lobby is, in one
    message that mentions each of them."""

    def mentions(users: tuple[int, ...]) -> str:
        return " ".join(f"<@{user}>" for user in users)

    lines = []
    if back:
        lines.append(t("again.seated_again", loc, mentions=mentions(back)))
    if queued:
        lines.append(t("again.queue_seated", loc, mentions=mentions(queued)))
    target = interaction.client.get_partial_messageable(place, guild_id=interaction.guild_id)
    await resolve.notifier(interaction).pace()
    await target.send(
        "\n".join(lines),
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=u) for u in (*back, *queued)]
        ),
    )


async def setup(bot: RummyBot) -> None:
    """The button itself is a dynamic item the play extension registers
    (``cogs.ui.items.AgainButton``); this extension binds what it does."""
    AgainButton.flow = play_again
