"""The replay picture of a seeded finished game: one frame per turn (or the documented
thinning), the final scores on its last frame held longest, under its size cap."""

from __future__ import annotations

import io
import math
import random
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from bot.rummy import Game, preset
from bot.rummy.computer import EasyPlayer
from bot.rummy.timeline import Moment, MomentKind, timeline, turns
from rendering.layout import Box, Label
from rendering.paint import paint
from rendering.replay import (
    HOLD_MS,
    MAX_BYTES,
    ReplayTooLong,
    render_replay,
    shown,
)
from rendering.summary import layout_round_summary

NAMES = {"ann": "Ann", "bob": "Bob"}


@cache
def moments() -> tuple[Moment, ...]:
    """Classic to 8 points, seed 7: two rounds, 24 discards, played by easy players."""
    game = Game.new(preset("classic", target=8), ["ann", "bob"], seed=7)
    rng = random.Random(7)
    while game.current_player is not None:
        view = game.view(game.current_player)
        game.apply(EasyPlayer().choose(view, tuple(game.legal_actions()), rng))
    return timeline(game)


def frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame as it shows (RGB), with how long it shows."""
    picture = Image.open(io.BytesIO(gif))
    assert picture.format == "GIF"
    assert picture.info["loop"] == 0  # it plays again and again
    return [
        (frame.convert("RGB"), int(frame.info["duration"]))
        for frame in ImageSequence.Iterator(picture)
    ]


def difference(a: Image.Image, b: Image.Image, box: Box) -> float:
    """The mean difference of two pictures' pixels in ``box`` (0 to 255)."""
    area = (box.x0, box.y0, box.x1, box.y1)
    diff = ImageChops.difference(a.crop(area), b.crop(area))
    return sum(ImageStat.Stat(diff).mean) / 3


def test_every_turn_has_its_frame_and_the_final_scores_show_last_and_longest() -> None:
    retold = moments()
    replay = render_replay(retold, names=NAMES)
    assert replay.step == 1
    assert replay.turns == turns(retold) > 20
    shown_frames = frames(replay.gif)
    assert len(shown_frames) == replay.frames == len(retold)
    assert [ms for _, ms in shown_frames] == [HOLD_MS[m.kind] for m in retold]
    assert len(replay.gif) < MAX_BYTES

    # The last frame is the final round's summary: each total where the summary puts it.
    final = retold[-1]
    assert final.kind is MomentKind.FINAL_SCORES
    assert final.result is not None
    summary = layout_round_summary(final.view, final.result, names=NAMES)
    totals = {
        i.name: i for i in summary.items if isinstance(i, Label) and i.name.startswith("Total:")
    }
    assert [totals[f"Total:{s.seat}"].text for s in final.view.seats] == [
        str(s.score) for s in final.view.seats
    ]
    expected = paint(summary)
    last, before = shown_frames[-1][0], shown_frames[-2][0]
    for label in totals.values():
        assert difference(last, expected, label.box) < 4  # the same, but for the palette
        assert difference(before, expected, label.box) > 20  # the final table was not
    assert max(ms for _, ms in shown_frames) == shown_frames[-1][1]


def test_a_long_game_shows_one_turn_in_step_and_says_so() -> None:
    retold = moments()
    every = render_replay(retold, names=NAMES)
    thinned = render_replay(retold, names=NAMES, max_turn_frames=5)
    assert thinned.step == math.ceil(turns(retold) / 5)
    kept = shown(retold, thinned.step)
    assert len(frames(thinned.gif)) == thinned.frames == len(kept) < every.frames
    # Deals, round ends and the end all stay; so does each round's last turn.
    assert [m for m in kept if m.kind is not MomentKind.TURN] == [
        m for m in retold if m.kind is not MomentKind.TURN
    ]
    assert sum(1 for m in kept if m.kind is MomentKind.TURN) <= turns(retold) // thinned.step + 2

    # A cap below the full picture's size thins it until it fits.
    cap = len(every.gif) * 2 // 3
    capped = render_replay(retold, names=NAMES, max_bytes=cap)
    assert capped.step > 1
    assert len(capped.gif) <= cap


def test_a_game_too_long_for_any_picture_is_refused() -> None:
    with pytest.raises(ReplayTooLong) as refused:
        render_replay(moments(), names=NAMES, max_bytes=50_000)
    assert refused.value.rounds == 2
