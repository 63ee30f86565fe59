"""The queue for the next game: ``/rummy join`` by someone not seated at a running game
puts them in it (no seat can be taken: the game is dealt and every seat has its player), and
``/rummy leave`` takes them out. Play again seats the queued people while seats remain
(:mod:`cogs.rematch`)."""

from __future__ import annotations

import discord

from bot import sessions as s
from bot.i18n import t


async def queue_answer(
    session: s.Session, user: discord.abc.User, verb: str, loc: str
) -> str | None:
    """The answer when ``verb`` ("join" or "leave") is about the queue of ``session``'s
    next game; None when it is about a seat (the usual lobby operation then)."""
    if session.status is not s.SessionStatus.ACTIVE or session.player_of(user.id) is not None:
        return None
    if verb == "join":
        added = await session.queue_next(user.id, user.display_name)
        return t("queue.joined" if added else "queue.already", loc)
    if verb == "leave" and await session.leave_queue(user.id):
        return t("queue.left", loc)
    return None
