"""The parts of a game's display that may wait to be shown, or to be tried again: the lobby
message, the table, the thread's archiving, a round's summary, a turn-timer notice, and each
player's hand. A part is a small typed value, so a hand's key cannot be misspelt and a
player's name is never parsed back out of a string."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PartKind = Literal["lobby", "table", "thread", "summary", "notice", "hand"]


@dataclass(frozen=True, order=True)
class Part:
    kind: PartKind
    player: str = ""
    """Whose hand, for a hand; empty for every other part."""

    def __str__(self) -> str:
        return f"hand:{self.player}" if self.kind == "hand" else self.kind


LOBBY = Part("lobby")
TABLE = Part("table")
THREAD = Part("thread")
SUMMARY = Part("summary")
NOTICE = Part("notice")


def hand_of(player: str) -> Part:
    """The part that is ``player``'s hand message."""
    return Part("hand", player)
