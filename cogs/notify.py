"""Keeps Discord in step with the games: the lobby message, the one table message per game,
each player's hand in their DMs, the turn notice, round summaries and the final standings.

It listens to the sessions' commits (so it runs after the commit and never delays an answer)
and hands the work to one worker task per game. The worker always shows the newest state:
moves that arrive while it is busy are folded into its next pass, so a burst of moves costs
one table edit, not one per move, and Discord's rate limits slow the pictures, never the
game. A Discord error is logged and the next pass tries again; it never reaches the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from bot import sessions as s
from bot.i18n import catalog_locale, t
from bot.rummy import GameView, RoundResult
from cogs import components, present
from rendering import render_hand, render_round_summary, render_score_chart, render_table

log = logging.getLogger(__name__)

DM_CLOSED = 50007


ACTIVE_FOR = 30.0
"""Seconds after a player's last click or command during which their turn starts quietly
(their hand is edited in place); after that, a fresh DM (or a channel ping) tells them."""
PACE = 45.0
"""Requests a second the workers send under Discord's global limit (50 a second per bot,
shared with everything else the bot sends)."""


class Pacer:
    """A token bucket: ``await pacer()`` returns when one more request may go."""

    def __init__(self, rate: float, burst: int = 10) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = 0.0
        self.lock = asyncio.Lock()

    async def __call__(self) -> None:
        async with self.lock:
            loop = asyncio.get_running_loop()
            now = loop.time()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                self.tokens = 1.0
                self.last = loop.time()
            self.tokens -= 1


@dataclass
class Board:
    """What the bot has on Discord for one game, and what it still has to show."""

    game_id: int
    guild_id: int
    channel_id: int
    locale: str = "en"
    lobby_message: int | None = None
    table_message: int | None = None
    ping_message: int | None = None
    hand_messages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """player -> (DM channel id, message id) of the hand they were last sent."""
    dm_closed: set[str] = field(default_factory=set)
    told_closed: set[str] = field(default_factory=set)
    moves: deque[str] = field(default_factory=lambda: deque(maxlen=2))
    dirty: set[str] = field(default_factory=set)
    """"lobby", "table" and "hand:<player>" still to be shown."""
    notify: str | None = None
    active: dict[str, float] = field(default_factory=dict)
    """player -> when they last used a button or command of this game (monotonic)."""
    """The player whose turn just began, to be told with a fresh message."""
    announcements: list[s.Committed] = field(default_factory=list)
    notices: list[tuple[str, str, int]] = field(default_factory=list)
    """Turn-timer messages still to send: (player or name, "reminder" | "replaced" |
    "back", deadline as a Unix time)."""
    hooks: dict[str, tuple[discord.Interaction[Any], int]] = field(default_factory=dict)
    """player -> (their last interaction on their hand DM, that message's id): its webhook
    edits and deletes that message for 15 minutes without counting against the global
    rate limit."""
    claims: set[str] = field(default_factory=set)
    """Hands an interaction is showing itself (so the worker leaves them alone)."""
    latest: s.Committed | None = None
    turn: int = -1
    names: dict[str, str] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    backoff: float = 0.0
    done: bool = False


class Notifier(commands.Cog):
    """The after-commit listener and its per-game workers."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.boards: dict[int, Board] = {}
        self.user_locales: dict[int, str] = {}
        self.dm_channels: dict[int, int] = {}
        self.pace = Pacer(PACE)
        """Every request of the workers that counts against Discord's global rate limit
        waits its turn here, so a burst of games is slowed, not answered with 429s."""
        self.pending_channels: set[int] = set()
        """Channels where a lobby is being created; its message is the command's answer."""
        self._writes: set[asyncio.Task[None]] = set()

    @property
    def manager(self) -> s.SessionManager:
        bot: Any = self.bot
        manager: s.SessionManager = bot.sessions
        return manager

    async def cog_load(self) -> None:
        self.manager.add_listener(self.on_commit)

    async def cog_unload(self) -> None:
        # The launcher unloads the extensions before a login retry: a listener left behind
        # would show every commit twice once the cog is loaded again.
        with contextlib.suppress(ValueError):
            self.manager.remove_listener(self.on_commit)
        for board in self.boards.values():
            if board.task is not None:
                board.task.cancel()
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    # --- state the flows share ------------------------------------------------------------

    def board(self, game_id: int, guild_id: int, channel_id: int) -> Board:
        board = self.boards.get(game_id)
        if board is None:
            board = Board(game_id, guild_id, channel_id, locale=self.guild_locale(guild_id))
            self.boards[game_id] = board
            session = self.manager.by_game(game_id)
            if session is not None:
                # After a restart: the messages the previous process showed are edited on.
                for ref in session.messages.values():
                    if ref.kind == "lobby":
                        board.lobby_message = ref.message_id
                    elif ref.kind == "table":
                        board.table_message = ref.message_id
                    elif ref.kind == "ping":
                        board.ping_message = ref.message_id
                    elif ref.kind == "hand":
                        board.hand_messages[ref.player] = (ref.channel_id, ref.message_id)
        return board

    def keep(self, board: Board, kind: str, message_id: int | None, player: str = "") -> None:
        """Note which message now shows ``kind`` (None: none does) on the board and in the
        store, so a restarted bot edits it on. The write runs on its own; it never delays
        Discord."""
        if kind == "lobby":
            board.lobby_message = message_id
        elif kind == "table":
            board.table_message = message_id
        elif kind == "ping":
            board.ping_message = message_id
        channel_id = board.channel_id
        if kind == "hand":
            if message_id is None:
                board.hand_messages.pop(player, None)
            else:
                channel_id = board.hand_messages[player][0]
        session = self.manager.by_game(board.game_id)
        if session is None:
            return
        task = asyncio.create_task(
            session.remember_message(kind, player, channel_id, message_id),
            name=f"keep-{board.game_id}-{kind}",
        )
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def keep_hand(self, board: Board, player: str, where: tuple[int, int]) -> None:
        board.hand_messages[player] = where
        self.keep(board, "hand", where[1], player)

    def guild_locale(self, guild_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        return catalog_locale(guild.preferred_locale if guild is not None else None)

    def user_locale(self, user_id: int | None, board: Board) -> str:
        if user_id is None:
            return board.locale
        return self.user_locales.get(user_id, board.locale)

    def remember_locale(self, user_id: int, locale: str) -> None:
        self.user_locales[user_id] = locale

    def claim(self, game_id: int, guild_id: int, channel_id: int, key: str) -> None:
        """An interaction is about to show ``key`` ("lobby" or "hand:<player>") itself, by
        editing the message it came from; the worker leaves it alone meanwhile."""
        self.board(game_id, guild_id, channel_id).claims.add(key)

    def release(
        self, game_id: int, key: str, *, shown: bool, dm: tuple[int, int] | None = None
    ) -> None:
        """The interaction that claimed ``key`` is done; ``shown`` says whether it showed
        the newest state (else the worker does). ``dm`` is the hand message it edited."""
        board = self.boards.get(game_id)
        if board is None:
            return
        board.claims.discard(key)
        if shown:
            board.dirty.discard(key)
            player = key.removeprefix("hand:")
            if dm is not None:
                self.keep_hand(board, player, dm)
                board.dm_closed.discard(player)
            if board.notify == player:
                board.notify = None
        if board.dirty or board.announcements:
            self._wake(board)

    def touch(self, game_id: int, guild_id: int, channel_id: int, player: str) -> None:
        """``player`` is at the keyboard: their next turn edits their hand in place rather
        than notifying them with a new message."""
        self.board(game_id, guild_id, channel_id).active[player] = time.monotonic()

    def remember_hook(
        self, game_id: int, player: str, interaction: discord.Interaction[Any], message_id: int
    ) -> None:
        board = self.boards.get(game_id)
        if board is not None:
            board.hooks[player] = (interaction, message_id)

    def set_lobby_message(self, game_id: int, guild_id: int, channel_id: int, message: int) -> None:
        board = self.board(game_id, guild_id, channel_id)
        self.keep(board, "lobby", message)
        self.pending_channels.discard(channel_id)

    # --- the listener ---------------------------------------------------------------------

    async def on_commit(self, event: s.Committed) -> None:
        """Note what changed and wake the game's worker; never waits for Discord."""
        board = self.board(event.game_id, event.guild_id, event.channel_id)
        board.latest = event
        board.names = {seat.player_id: seat.display_name for seat in event.seats}
        board.users = {
            seat.player_id: seat.user_id for seat in event.seats if seat.user_id is not None
        }
        kind = event.kind
        if kind is s.EventKind.REMINDER or kind is s.EventKind.SEAT:
            self._notice(board, event)
        elif kind is s.EventKind.LOBBY:
            board.dirty.add("lobby")
        elif kind is s.EventKind.STARTED:
            board.dirty.update({"lobby", "table"})
            board.dirty.update(f"hand:{p}" for p in board.users)
            self._turn_changed(board, event)
        elif kind is s.EventKind.CANCELLED:
            board.dirty.update({"lobby", "table"} if board.table_message is None else {"table"})
            board.done = True
        else:
            self._action(board, event)
        self._wake(board)

    def _action(self, board: Board, event: s.Committed) -> None:
        view = event.views.get(None)
        if event.action is not None and event.actor is not None:
            actor_view = event.views.get(event.actor)
            name = board.names.get(event.actor, event.actor)
            said = present.move_text(name, event.action, actor_view, board.locale)
            if event.timed:
                said = f"{said} {t('timer.played_for', board.locale)}"
            board.moves.append(said)
        board.dirty.add("table")
        if event.actor is not None and event.actor in board.users:
            board.dirty.add(f"hand:{event.actor}")
        if event.rounds or event.status is not s.SessionStatus.ACTIVE:
            board.dirty.update(f"hand:{p}" for p in board.users)
            board.announcements.append(event)
            if event.rounds:
                board.moves.clear()
        if event.status is s.SessionStatus.FINISHED:
            board.done = True
        elif view is not None:
            self._turn_changed(board, event)

    def _notice(self, board: Board, event: s.Committed) -> None:
        """A turn timer's reminder, or a seat handed to a computer player or taken back."""
        player = event.actor
        if player is None:
            return
        user_id = board.users.get(player)
        name = board.names.get(player, player)
        if event.kind is s.EventKind.REMINDER:
            if user_id is not None and event.deadline is not None:
                board.notices.append((player, "reminder", int(event.deadline.timestamp())))
            return
        seat = next((x for x in event.seats if x.player_id == player), None)
        held = seat is not None and seat.stand_in is not None
        board.notices.append((name, "replaced" if held else "back", 0))

    def _turn_changed(self, board: Board, event: s.Committed) -> None:
        view = event.views.get(None)
        if view is None or view.current is None or event.turn == board.turn:
            return
        board.turn = event.turn
        seat = next((x for x in event.seats if x.player_id == view.current), None)
        if seat is not None and seat.stand_in is not None:
            return  # a computer player plays this seat: its owner is away
        if view.current in board.users:
            board.dirty.add(f"hand:{view.current}")
            seen = board.active.get(view.current)
            if seen is None or time.monotonic() - seen > ACTIVE_FOR:
                board.notify = view.current

    def _wake(self, board: Board) -> None:
        board.wake.set()
        if board.task is None or board.task.done():
            board.task = asyncio.create_task(self._work(board), name=f"board-{board.game_id}")

    async def _work(self, board: Board) -> None:
        while True:
            await board.wake.wait()
            board.wake.clear()
            try:
                await self._flush(board)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: could not update Discord", board.game_id)
                await asyncio.sleep(1)
            if (
                board.done
                and not board.dirty
                and not board.announcements
                and not board.notices
                and not board.wake.is_set()
            ):
                self.boards.pop(board.game_id, None)
                return

    # --- one pass -------------------------------------------------------------------------

    def _session(self, board: Board) -> s.Session | None:
        return self.manager.by_game(board.game_id)

    def _view(self, board: Board, player: str | None) -> GameView | None:
        session = self._session(board)
        if session is not None and session.status is s.SessionStatus.ACTIVE:
            try:
                return session.view(player)
            except s.SessionError:
                return None
        if board.latest is not None:
            return board.latest.views.get(player)
        return None

    async def _flush(self, board: Board) -> None:
        """Show what is dirty, newest state first for each part; a part Discord could not
        take now (rate limit, outage) stays dirty and the pass is tried again later."""
        channel = self.bot.get_partial_messageable(board.channel_id, guild_id=board.guild_id)
        retry = False
        if "lobby" in board.dirty and "lobby" not in board.claims:
            board.dirty.discard("lobby")
            if not await self._guard(board, "lobby", self._show_lobby(board, channel)):
                board.dirty.add("lobby")
                retry = True
        while board.announcements and not retry:
            event = board.announcements[0]
            if await self._guard(board, "summary", self._announce(board, channel, event)):
                board.announcements.pop(0)
            else:
                retry = True
        while board.notices and not retry:
            if await self._guard(board, "notice", self._tell(board, channel, board.notices[0])):
                board.notices.pop(0)
            else:
                retry = True
        if "table" in board.dirty and not retry:
            board.dirty.discard("table")
            if not await self._guard(board, "table", self._show_table(board, channel)):
                board.dirty.add("table")
                retry = True
        for key in sorted(k for k in board.dirty if k.startswith("hand:")):
            player = key.removeprefix("hand:")
            if key in board.claims or retry:
                continue
            board.dirty.discard(key)
            notify = board.notify == player
            if notify:
                board.notify = None
            if not await self._guard(
                board, "hand", self._show_hand(board, channel, player, notify)
            ):
                board.dirty.add(key)
                if notify and board.notify is None:
                    board.notify = player
                retry = True
        if retry:
            board.backoff = min(max(board.backoff * 2, 1.0), 30.0)
            await asyncio.sleep(board.backoff)
            board.wake.set()
        else:
            board.backoff = 0.0

    async def _guard(self, board: Board, what: str, work: Any) -> bool:
        """Run one update; False when it should be tried again (rate limited, Discord down).

        Other refusals (a deleted message, missing permissions) are logged and dropped: a
        retry would fail the same way."""
        try:
            await work
        except discord.HTTPException as error:
            again = error.status == 429 or error.status >= 500
            log.warning(
                "game %s: Discord refused the %s update%s: %s",
                board.game_id,
                what,
                " (will retry)" if again else "",
                error,
            )
            return not again
        except (TimeoutError, OSError) as error:
            log.warning(
                "game %s: could not reach Discord for the %s update: %s", board.game_id, what, error
            )
            return False
        return True

    async def _show_lobby(self, board: Board, channel: discord.PartialMessageable) -> None:
        from cogs import flows

        event = board.latest
        if event is None:
            return
        text, view = flows.lobby_message(board, event, board.locale)
        if board.lobby_message is not None:
            message = channel.get_partial_message(board.lobby_message)
            try:
                await self.pace()
                await message.edit(content=text, view=view, allowed_mentions=_NO_MENTIONS)
                return
            except discord.NotFound:
                self.keep(board, "lobby", None)
        if event.kind is s.EventKind.LOBBY and board.channel_id not in self.pending_channels:
            await self.pace()
            sent = await channel.send(
                text, view=view or discord.utils.MISSING, allowed_mentions=_NO_MENTIONS
            )
            self.keep(board, "lobby", sent.id)

    async def _show_table(self, board: Board, channel: discord.PartialMessageable) -> None:
        event = board.latest
        view = self._view(board, None)
        if view is None or event is None:
            return
        mentions = {p: f"<@{uid}>" for p, uid in board.users.items()}
        text = present.table_text(
            view, board.names, board.locale, last_moves=tuple(board.moves), mentions=mentions
        )
        if event.kind is s.EventKind.CANCELLED:
            text = present.fit([t("table.cancelled", board.locale), text])
        session = self._session(board)
        deadline = session.deadline if session is not None else None
        if deadline is not None and event.status is s.SessionStatus.ACTIVE:
            when = f"<t:{int(deadline.timestamp())}:R>"
            text = present.fit([text, "⏰ " + t("timer.ends", board.locale, when=when)])
        picture = await asyncio.to_thread(render_table, view, names=board.names)
        live = event.status is s.SessionStatus.ACTIVE
        buttons = components.table_view(board.game_id, board.locale) if live else None
        file = discord.File(io.BytesIO(picture), filename="table.png")
        if board.table_message is not None:
            message = channel.get_partial_message(board.table_message)
            try:
                await self.pace()
                await message.edit(
                    content=text, attachments=[file], view=buttons, allowed_mentions=_NO_MENTIONS
                )
                return
            except discord.NotFound:
                self.keep(board, "table", None)
            file = discord.File(io.BytesIO(picture), filename="table.png")
        await self.pace()
        sent = await channel.send(
            text, file=file, view=buttons or discord.utils.MISSING, allowed_mentions=_NO_MENTIONS
        )
        self.keep(board, "table", sent.id)

    async def _announce(
        self, board: Board, channel: discord.PartialMessageable, event: s.Committed
    ) -> None:
        view = event.views.get(None)
        if view is None:
            return
        players = tuple(seat.player_id for seat in sorted(event.seats, key=lambda x: x.seat))
        for result in event.rounds:
            await self._round_summary(board, channel, view, result, players)
        if event.status is s.SessionStatus.FINISHED:
            text = present.final_text(view, board.names, board.locale)
            chart = await asyncio.to_thread(render_score_chart, view, names=board.names)
            await self._post_picture(channel, text, chart, "scores.png")

    async def _round_summary(
        self,
        board: Board,
        channel: discord.PartialMessageable,
        view: GameView,
        result: RoundResult,
        players: tuple[str, ...],
    ) -> None:
        text = present.round_text(result, players, board.names, board.locale)
        picture = await asyncio.to_thread(render_round_summary, view, result, names=board.names)
        await self._post_picture(channel, text, picture, "round.png")

    async def _post_picture(
        self, channel: discord.PartialMessageable, text: str, picture: bytes, filename: str
    ) -> None:
        """A new channel message with a picture, paced like every call under the global
        rate limit, mentioning nobody (names in the text are not pings)."""
        await self.pace()
        await channel.send(
            text,
            file=discord.File(io.BytesIO(picture), filename=filename),
            allowed_mentions=_NO_MENTIONS,
        )

    async def _show_hand(
        self, board: Board, channel: discord.PartialMessageable, player: str, notify: bool
    ) -> None:
        user_id = board.users.get(player)
        if user_id is None:
            return
        loc = self.user_locale(user_id, board)
        if player in board.dm_closed:
            if notify:
                await self._ping(board, channel, player, user_id)
            return
        session = self._session(board)
        content, file, view = await hand_message(session, board, player, loc)
        if content is None:
            return
        old = board.hand_messages.get(player)
        try:
            if old is not None and not notify:
                hook = _hook(board, player, old[1])
                try:
                    if hook is not None:
                        try:
                            await hook.edit_original_response(
                                content=content, attachments=_files(file), view=view
                            )
                            return
                        except discord.HTTPException:
                            board.hooks.pop(player, None)
                            file = _again(file)
                    dm = self.bot.get_partial_messageable(old[0])
                    await self.pace()
                    await dm.get_partial_message(old[1]).edit(
                        content=content, attachments=_files(file), view=view
                    )
                    return
                except discord.NotFound:
                    self.keep(board, "hand", None, player)
                    file = _again(file)
            dm_channel = await self._dm_channel(user_id)
            await self.pace()
            sent = await dm_channel.send(
                content, file=file or discord.utils.MISSING, view=view or discord.utils.MISSING
            )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED and error.status != 403:
                raise
            await self._dm_closed(board, channel, player, user_id, notify)
            return
        self.keep_hand(board, player, (sent.channel.id, sent.id))
        if old is not None and notify:
            await self._delete_old_hand(board, player, old)

    async def _delete_old_hand(self, board: Board, player: str, old: tuple[int, int]) -> None:
        """The previous hand message goes once a fresh one notified its owner."""
        hook = _hook(board, player, old[1])
        board.hooks.pop(player, None)
        if hook is not None:
            try:
                await hook.delete_original_response()
                return
            except discord.HTTPException:
                pass
        with contextlib.suppress(discord.HTTPException):
            await self.pace()
            await self.bot.get_partial_messageable(old[0]).get_partial_message(old[1]).delete()

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The person's DM channel, opened once (discord.py keeps only the last 128)."""
        known = self.dm_channels.get(user_id)
        if known is None:
            await self.pace()
            opened = await self.bot.create_dm(discord.Object(id=user_id))
            known = self.dm_channels[user_id] = opened.id
        return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)

    async def _dm_closed(
        self,
        board: Board,
        channel: discord.PartialMessageable,
        player: str,
        user_id: int,
        notify: bool,
    ) -> None:
        board.dm_closed.add(player)
        if player in board.hand_messages:
            self.keep(board, "hand", None, player)
        if player not in board.told_closed:
            board.told_closed.add(player)
            await self.pace()
            await channel.send(
                t("dm.closed", board.locale, mention=f"<@{user_id}>"),
                view=components.table_view(board.game_id, board.locale),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]),
            )
        if notify:
            await self._ping(board, channel, player, user_id)

    async def _tell(
        self, board: Board, channel: discord.PartialMessageable, notice: tuple[str, str, int]
    ) -> None:
        who, what, when = notice
        if what == "reminder":
            user_id = board.users.get(who)
            if user_id is not None:
                text = t(
                    "timer.reminder", board.locale, mention=f"<@{user_id}>", when=f"<t:{when}:R>"
                )
                await self._ping(board, channel, who, user_id, text)
            return
        await self.pace()
        await channel.send(
            t("timer.replaced" if what == "replaced" else "timer.back", board.locale, name=who),
            allowed_mentions=_NO_MENTIONS,
        )

    async def _ping(
        self,
        board: Board,
        channel: discord.PartialMessageable,
        player: str,
        user_id: int,
        text: str | None = None,
    ) -> None:
        """One short turn notice in the channel, replacing the previous one."""
        old = board.ping_message
        await self.pace()
        sent = await channel.send(
            text or t("turn.ping", board.locale, mention=f"<@{user_id}>"),
            view=components.table_view(board.game_id, board.locale),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]),
        )
        self.keep(board, "ping", sent.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.pace()
                await channel.get_partial_message(old).delete()


_NO_MENTIONS = discord.AllowedMentions.none()


HOOK_LIFETIME = 14 * 60
"""Seconds an interaction's webhook is used for; Discord keeps it valid for 15 minutes."""


def _hook(board: Board, player: str, message_id: int) -> discord.Interaction[Any] | None:
    found = board.hooks.get(player)
    if found is None or found[1] != message_id:
        return None
    interaction = found[0]
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return interaction if age < HOOK_LIFETIME else None


def _files(file: discord.File | None) -> list[discord.File]:
    return [file] if file is not None else []


def _again(file: discord.File | None) -> discord.File | None:
    if file is None:
        return None
    file.reset()
    return file


async def hand_message(
    session: s.Session | None, board: Board, player: str, loc: str
) -> tuple[str | None, discord.File | None, discord.ui.View | None]:
    """The hand of ``player`` as content, picture and move components, read from the live
    session (view and legal actions taken together, so the menus match the custom ids'
    turn), or from the last commit once the game has ended."""
    view: GameView | None
    legal: list[Any] = []
    if session is not None and session.status is s.SessionStatus.ACTIVE:
        view = session.view(player)
        legal = list(session.legal_actions(player))
    else:
        view = board.latest.views.get(player) if board.latest is not None else None
    if view is None:
        return None, None, None
    names: Mapping[str, str] = board.names
    content = present.hand_text(view, names, loc)
    buttons = components.hand_view(board.game_id, view, legal, loc)
    picture = await asyncio.to_thread(render_hand, view)
    return content, discord.File(io.BytesIO(picture), filename="hand.png"), buttons


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Notifier(bot))
