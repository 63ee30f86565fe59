"""A finished game as one animated picture: the table after each turn, each round's summary,
and the final scores on the last frame, held longest.

The frames are the pictures the channel saw while the game was played (the table, the round
summaries), so a replay reads like the game did: no hidden hand is shown, since a replay is
posted for everyone, including people who may play these players again; the hands left at
the end of each round are on its summary, as they were then.

Discord takes uploads of 10 MiB on a server without boosts; a replay stays under
:data:`MAX_BYTES`. A long game shows one turn in every ``step`` (the deals, the last turn of
each round, the round summaries and the end are always shown), ``step`` growing until the
file fits; the caller says so beside the picture.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.rummy.timeline import Moment, MomentKind, turns
from rendering.animation import TooLarge, to_frame, write_gif
from rendering.layout import Layout
from rendering.paint import paint
from rendering.summary import layout_round_summary
from rendering.table import layout_table, table_size
from rendering.theme import get_theme
from rendering.words import ENGLISH_WORDS, Words

MAX_BYTES = 8 * 1024 * 1024
"""Well under Discord's 10 MiB, for a long game."""
MAX_TURN_FRAMES = 300
"""Turns shown before a long game is thinned out (about 16 KiB each for four players)."""
MAX_FRAMES = 450
"""A game whose deals and round ends alone need more frames cannot be shown in one file."""
HOLD_MS: Mapping[MomentKind, int] = {
    MomentKind.DEAL: 1500,
    MomentKind.TURN: 1000,
    MomentKind.ROUND_OVER: 4000,
    MomentKind.GAME_OVER: 3000,
    MomentKind.FINAL_SCORES: 10000,
}
"""How long each kind of frame shows: a turn a second, a round's scores long enough to read,
the final scores longest, before the picture starts again."""


class ReplayTooLong(Exception):
    """The game has too many rounds to fit one picture under the size cap, even with only
    its deals and round ends."""

    def __init__(self, rounds: int) -> None:
        super().__init__(f"{rounds} rounds do not fit one replay")
        self.rounds = rounds


@dataclass(frozen=True, slots=True)
class Replay:
    gif: bytes
    frames: int
    turns: int
    """Turns in the game."""
    step: int
    """1 when every turn is shown; else one turn in ``step`` is."""


def render_replay(
    moments: Sequence[Moment],
    *,
    names: Mapping[str, str] | None = None,
    theme: str = "dark",
    four_colour: bool = False,
    words: Words = ENGLISH_WORDS,
    max_bytes: int = MAX_BYTES,
    max_turn_frames: int = MAX_TURN_FRAMES,
) -> Replay:
    """The animated GIF of a finished game's ``moments`` (:func:`bot.rummy.timeline.timeline`).

    Raises :class:`ReplayTooLong` when not even the deals and round ends fit ``max_bytes``.
    """
    total = turns(tuple(moments))
    kept_always = len(shown(moments, total + 1))
    rounds = sum(1 for m in moments if m.kind is MomentKind.DEAL)
    if kept_always > MAX_FRAMES:
        raise ReplayTooLong(rounds)
    painter = FramePainter(moments, names, theme, four_colour, words)
    step = max(1, math.ceil(total / max_turn_frames))
    while True:
        chosen = shown(moments, step)
        try:
            gif, frames = write_gif(painter.frames(chosen), max_bytes=max_bytes)
            return Replay(gif, frames, total, step)
        except TooLarge:
            if step > total:
                raise ReplayTooLong(rounds) from None
            step *= 2


def shown(moments: Sequence[Moment], step: int) -> list[Moment]:
    """The moments a replay with ``step`` shows: every moment but turns, the last turn before
    each round's end, and one turn in ``step`` (the ``step``-th, then every ``step`` after)."""
    kept = []
    seen = 0
    for i, moment in enumerate(moments):
        if moment.kind is MomentKind.TURN:
            seen += 1
            last = i + 1 < len(moments) and moments[i + 1].kind is not MomentKind.TURN
            if seen % step and not last:
                continue
        kept.append(moment)
    return kept


class FramePainter:
    """Frames of one game, all on one canvas: as wide as every picture, as high as the
    highest (a table is never higher than :func:`table_size`, the most its game's tables
    may need; summaries vary)."""

    def __init__(
        self,
        moments: Sequence[Moment],
        names: Mapping[str, str] | None,
        theme: str,
        four_colour: bool,
        words: Words = ENGLISH_WORDS,
    ) -> None:
        self.names = names
        self.words = words
        self.theme_name = theme
        self.theme = get_theme(theme)
        self.four_colour = four_colour
        width, height = table_size(moments[0].view)
        for moment in moments:
            if moment.result is not None:
                summary = self._summary(moment)
                width, height = max(width, summary.width), max(height, summary.height)
        self.size = (width, height)

    def frames(self, moments: Sequence[Moment]) -> Iterator[tuple[Image.Image, int]]:
        for moment in moments:
            layout = self._summary(moment) if moment.result is not None else self._table(moment)
            yield to_frame(paint(layout), self.size, self.theme), HOLD_MS[moment.kind]

    def _table(self, moment: Moment) -> Layout:
        return layout_table(
            moment.view,
            names=self.names,
            theme=self.theme_name,
            four_colour=self.four_colour,
            words=self.words,
        )

    def _summary(self, moment: Moment) -> Layout:
        return layout_round_summary(
            moment.view, moment.result, names=self.names, theme=self.theme_name, words=self.words
        )
