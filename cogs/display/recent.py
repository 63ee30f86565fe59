"""What happened since a player's last turn, worded for the table and for a hand in DMs:
one line a turn (its moves condensed), and a line for each round that ended."""

from __future__ import annotations

from bot.i18n import t
from cogs.display.game_messages import GameMessages, TurnNote
from cogs.ui import present


def lines(
    messages: GameMessages,
    notes: list[TurnNote],
    loc: str,
    viewer: str | None = None,
    *,
    brief: bool = False,
) -> list[str]:
    """``notes`` in words; for a ``viewer`` (their DM), without their own moves and with
    what each round's end meant for them; ``brief``, each move as a table text for a phone
    says it (:func:`present.brief_phrase`)."""
    out: list[str] = []
    live = messages.latest is not None and messages.latest.status.value == "active"
    for i, note in enumerate(notes):
        if note.result is not None:
            out.append(present.round_over_line(note.result, messages.names, loc))
            if viewer is not None:
                later = any(n.result is not None for n in notes[i + 1 :])
                mine = present.your_round_line(
                    note.result, note.players, viewer, loc, new_deal=live or later
                )
                if mine:
                    out.append(mine)
            continue
        if note.player == viewer or not note.moves:
            continue
        phrases = []
        say = present.brief_phrase if brief else present.move_phrase
        for action, after, timed in note.moves:
            phrase = say(action, after, loc)
            phrases.append(f"{phrase} {t('timer.played_for', loc)}" if timed else phrase)
        if brief:
            phrases = present.brief_moves(phrases, loc)
        out.append(present.turn_line(note.player, phrases, messages.names, loc))
    return out


def for_table(
    messages: GameMessages, current: str | None, loc: str, *, brief: bool = False
) -> list[str]:
    """Every turn since ``current``'s previous one (the game over: the last round's turns);
    ``brief``, in the short words of a table text for a phone."""
    if current is not None:
        return lines(messages, messages.since_turn_of(current), loc, brief=brief)
    notes = messages.notes
    ends = [i for i, n in enumerate(notes[:-1]) if n.result is not None]
    return lines(messages, notes[ends[-1] + 1 :] if ends else notes, loc, brief=brief)


def for_player(messages: GameMessages, player: str, loc: str) -> list[str]:
    return lines(messages, messages.since_turn_of(player), loc, viewer=player)


def round_lines(messages: GameMessages, player: str, loc: str) -> list[str]:
    """Only the rounds that ended since ``player``'s last turn: a tidied hand's first lines."""
    ended = [n for n in messages.since_turn_of(player) if n.result is not None]
    return lines(messages, ended, loc, viewer=player)
