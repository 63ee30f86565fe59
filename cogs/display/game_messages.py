"""The Discord messages of one game: which ones show it, and what they still have to show."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import sessions as s
from bot.rummy import Action, GameView, RoundResult
from cogs.display.parts import Part

HOOK_LIFETIME = 14 * 60
"""Seconds an interaction's webhook is used for; Discord keeps it valid for 15 minutes."""


@dataclass(frozen=True)
class Hook:
    """An interaction's webhook and the hand message it can change: the message it came
    from (``followup`` False) or one it sent as a follow-up."""

    interaction: discord.Interaction[Any]
    message_id: int
    followup: bool = False

    @property
    def alive(self) -> bool:
        """Whether the interaction can still change its message."""
        age = (discord.utils.utcnow() - self.interaction.created_at).total_seconds()
        return age < HOOK_LIFETIME

    async def edit(self, **fields: Any) -> None:
        if self.followup:
            await self.interaction.followup.edit_message(self.message_id, **fields)
        else:
            await self.interaction.edit_original_response(**fields)

    async def delete(self) -> None:
        if self.followup:
            await self.interaction.followup.delete_message(self.message_id)
        else:
            await self.interaction.delete_original_response()


KEPT_TURNS = 16
"""Turns of the game's recent moves kept: one round of the largest table and then some, so
that every player's "since your last turn" is whole."""


@dataclass
class TurnNote:
    """What one player did in one turn (the move phrases without their name), or, with
    ``result`` set, the end of a round."""

    player: str
    moves: list[tuple[Action, GameView | None, bool]] = field(default_factory=list)
    """Each move with the mover's view right after it (what a take took) and whether the
    turn timer played it; worded when shown, in the reader's language."""
    closed: bool = False
    """The turn is over (the player discarded, went out, or the timer played for them)."""
    result: RoundResult | None = None
    players: tuple[str, ...] = ()
    """With ``result``: the players in seat order, the order of its per-seat values."""


@dataclass
class GameMessages:
    """What the bot has on Discord for one game, and what it still has to show."""

    game_id: int
    guild_id: int
    channel_id: int
    """Where the game lives: its thread, or the channel of its lobby."""
    locale: str = "en"
    lobby_channel_id: int | None = None
    """The channel of the lobby message when the game lives in a thread started from it."""
    lobby_message: int | None = None
    table_message: int | None = None
    thread_locked: bool = False
    """The game's thread is archived and the bot may not reopen it (a moderator locked it,
    and the bot lacks Manage Threads): its table, summaries and mentions go to the lobby's
    channel, with a note, until the thread is reopened."""
    thread_table: int | None = None
    """While ``thread_locked``: the table message in the thread, edited again once the
    thread is reopened (the copy in the lobby's channel then goes)."""
    host_name: str | None = None
    """The host's name the game's thread was last seen named for (None: not known yet)."""
    thread_name: str | None = None
    """A new name for the game's thread, still to be given: its host's name changed (the
    host left the lobby, or asked to be forgotten and is no longer named anywhere)."""
    stray_tables: list[int] = field(default_factory=list)
    """Table messages the game showed in the lobby's channel while its thread was locked,
    to be deleted once the table is shown in the thread again."""
    ping_message: int | None = None
    closed_notices: list[int] = field(default_factory=list)
    """The "I can't send you direct messages" notices, whose Show my hand button goes at
    the end of the game (kept in memory only)."""
    hand_messages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """player -> (DM channel id, message id) of the hand they were last sent."""
    dm_closed: set[str] = field(default_factory=set)
    told_closed: set[str] = field(default_factory=set)
    notes: list[TurnNote] = field(default_factory=list)
    """The recent turns, oldest first (at most ``KEPT_TURNS``): the table's and the DMs'
    "since your last turn"."""
    dirty: set[Part] = field(default_factory=set)
    """The lobby, the table, the thread and the hands still to be shown."""
    notify: str | None = None
    """The player whose turn just began, to be told with a fresh message."""
    ending: set[str] = field(default_factory=set)
    """Players still to be told, with a new message, that the game is over."""
    repost_table: bool = False
    """A new round was dealt: the table is posted anew below its summary."""
    collapsed: set[str] = field(default_factory=set)
    """Players whose last hand message is already tidied to its line."""
    news: set[str] = field(default_factory=set)
    """Players whose tidied hand message still has to say that a round (or the game) ended."""
    active: dict[str, float] = field(default_factory=dict)
    """player -> when they last used a button or command of this game (monotonic): who is
    away, for the people notified only then."""
    announcements: list[s.Committed] = field(default_factory=list)
    notices: list[tuple[str, str, int]] = field(default_factory=list)
    """Turn-timer messages still to send: (player or name, "reminder" | "replaced" |
    "back", deadline as a Unix time); or (the words, "said", 0) for a seat that changed
    hands."""
    hooks: dict[str, Hook] = field(default_factory=dict)
    """player -> their last interaction on their hand DM and the hand message it can change:
    its webhook edits and deletes that message, and sends the next one as a follow-up, for
    15 minutes without counting against the global rate limit."""
    within_turn: set[str] = field(default_factory=set)
    """Players whose last move left their turn going on: what their hand DM still has to
    show is the turn's next controls only (see ``Hands.show``)."""
    private_hands: dict[str, list[Hook]] = field(default_factory=dict)
    """player -> their private hand answers that have controls (Show my hand, /hand, a move
    by command with closed DMs), which lose them at the end through their interactions
    while those live (kept in memory)."""
    released: dict[str, tuple[int, tuple[int, int] | None]] = field(default_factory=dict)
    """player -> (user id, their last hand message) of a person who left the seat: that
    message is edited once to say so (see ``seat_changes``)."""
    held_news: set[str] = field(default_factory=set)
    """Players whose seat a stand-in just took: their hand DM comes as a new message."""
    claims: set[Part] = field(default_factory=set)
    """Hands an interaction is showing itself (so the worker leaves them alone)."""
    latest: s.Committed | None = None
    turn: int = -1
    names: dict[str, str] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    noted: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at each commit noted: what an interaction waits on to word its hand."""
    task: asyncio.Task[None] | None = None
    channel_task: asyncio.Task[None] | None = None
    showing_hands: bool = False
    """The worker is showing hands now: the thread waits for them to be archived."""
    """The worker's pass over the channel's posts, run beside its hands (see ``Worker``)."""
    retry_at: dict[Part, float] = field(default_factory=dict)
    """part -> when (monotonic) it may be tried again after
    Discord refused it: each part backs off on its own."""
    failures: dict[Part, int] = field(default_factory=dict)
    """part -> how many times in a row Discord refused it."""
    done: bool = False

    @property
    def thread_id(self) -> int | None:
        """The game's own thread, if it plays in one."""
        return self.channel_id if self.lobby_channel_id is not None else None

    @property
    def shown_in(self) -> int:
        """Where the game's posts go: its channel or thread, or the lobby's channel while
        its thread is locked."""
        if self.thread_locked and self.lobby_channel_id is not None:
            return self.lobby_channel_id
        return self.channel_id

    def note_move(self, player: str, move: tuple[Action, GameView | None, bool]) -> None:
        last = self.notes[-1] if self.notes else None
        if last is None or last.player != player or last.closed or last.result is not None:
            last = TurnNote(player)
            self.notes.append(last)
            del self.notes[:-KEPT_TURNS]
        last.moves.append(move)

    def close_turn(self, player: str) -> None:
        for note in reversed(self.notes):
            if note.player == player and note.result is None:
                note.closed = True
                return

    def since_turn_of(self, player: str) -> list[TurnNote]:
        """The notes after ``player``'s last finished turn (all kept ones if none)."""
        for i in range(len(self.notes) - 1, -1, -1):
            note = self.notes[i]
            if note.player == player and note.closed and note.result is None:
                return self.notes[i + 1 :]
        return list(self.notes)

    def keep_private_hand(self, player: str, hook: Hook) -> None:
        """A private hand answer with controls, to be changed at the end while it can be."""
        kept = [h for h in self.private_hands.get(player, []) if h.alive]
        self.private_hands[player] = [*kept, hook]

    def hook(self, player: str, message_id: int | None = None) -> Hook | None:
        """The live interaction of ``player`` that can change their hand message
        ``message_id`` (None: whichever message it can change, to send a follow-up)."""
        found = self.hooks.get(player)
        if found is None or (message_id is not None and found.message_id != message_id):
            return None
        return found if found.alive else None
