"""The sessions' refusals in English: message key -> text (see :mod:`bot.rummy.refusals`).

Most of them are said to a person by their kind (a stale button, a full channel: the
Discord layer has one message per kind); the text here is the precise reason, for the
logs and for a reason the person reads as it is (a lobby that cannot start).
``bot/i18n/catalogs/en.json`` holds the same keys with the same text.
"""

from __future__ import annotations

from collections.abc import Mapping

SESSION_REFUSALS: Mapping[str, str] = {
    "error.not_seated": "You are not playing at this table.",
    "refusal.again.done": "this game was played again already.",
    "refusal.again.not_finished": "This game is not finished.",
    "refusal.again.not_seated": "Only the players of this game can play it again.",
    "refusal.hand.none": "no hand to show",
    "refusal.lobby.full": "The table is full: {preset} is played by at most {count} players.",
    "refusal.lobby.not_dealt": "The cards have not been dealt yet.",
    "refusal.lobby.rules": "{reason}",
    "refusal.lobby.seated": "You are already at this table.",
    "refusal.lobby.started": "The game has already started.",
    "refusal.seat.held": (
        "A computer player holds your seat; click Take my seat back on your hand in DMs,"
        " or use /rummy join in the game's channel."
    ),
    "refusal.seat.left": "You left this game: you cannot sit down in it again.",
    "refusal.seat.no_free": (
        "No seat to take: people play every seat of this game. You can join the next one."
    ),
    "refusal.seat.none": "not at this table",
    "refusal.seat.not_here": "That player is not at this table.",
    "refusal.table.broken": (
        "A stored game in this channel could not be loaded; a moderator can clear it."
    ),
    "refusal.table.clear_host_only": "Only the host or a moderator can clear this game.",
    "refusal.table.ended": "this game is over",
    "refusal.table.none": "no game in this channel",
    "refusal.table.over": "This game is over.",
    "refusal.table.taken": "A game already lives in this channel.",
    "refusal.turn.changed": "The game changed meanwhile; look again and retry.",
    "refusal.turn.earlier": "That was for an earlier turn; use the latest message.",
    "refusal.turn.seat_returned": "The seat is a person's again.",
    "refusal.table.host_only.kick": (
        "Only the host or a moderator can take someone out of the lobby."
    ),
    "refusal.table.host_only.add_computer": (
        "Only the host or a moderator can add a computer player."
    ),
    "refusal.table.host_only.start": "Only the host or a moderator can start the game.",
    "refusal.table.host_only.cancel": "Only the host or a moderator can cancel this game.",
}
