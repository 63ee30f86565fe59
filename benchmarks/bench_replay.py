"""How long a replay takes to build and how big it is, for long games.

Run from the repository root: ``.venv/bin/python benchmarks/bench_replay.py``
(``--seeds 5`` plays more games of each kind).

Each game is played to its end by *normal* computer players from a fixed seed, then retold
(:func:`bot.rummy.timeline.timeline`) and drawn as the GIF ``/rummy replay`` posts
(:func:`rendering.replay.render_replay`), as the bot does on its replay thread. Printed per
kind of game: the medians over its seeds of the turns, the frames, the thinning step, the
wall and CPU seconds of the build and the file's size, and the largest file (the cap is
8 MiB, Discord's limit 10 MiB). The last line compares the frame-by-frame writer with
Pillow's own ``save_all`` on the same frames, which holds every frame in memory until the end.
"""

from __future__ import annotations

import argparse
import io
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rummy import Game, Ruleset, preset
from bot.rummy.computer import NormalPlayer
from bot.rummy.timeline import Moment, timeline
from rendering.replay import HOLD_MS, MAX_BYTES, FramePainter, render_replay, shown

KINDS: dict[str, tuple[Callable[[], Ruleset], int]] = {
    "Rummy 500, 4 players, to 500": (lambda: preset("500", target=500), 4),
    "Parlett, 6 players (two decks), to 1000": (lambda: preset("parlett", target=1000), 6),
    "Parlett, 4 players, two decks, to 300": (
        lambda: preset("parlett", target=300, two_decks=True),
        4,
    ),
}
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")


@dataclass(frozen=True)
class Build:
    turns: int
    frames: int
    step: int
    wall: float
    cpu: float
    size: int


def play(ruleset: Ruleset, players: int, seed: int) -> Game:
    game = Game.new(ruleset, NAMES[:players], seed=seed)
    rng = random.Random(seed)
    player = NormalPlayer()
    while game.current_player is not None:
        view = game.view(game.current_player)
        game.apply(player.choose(view, tuple(game.legal_actions()), rng))
    return game


def build(game: Game) -> Build:
    start, start_cpu = time.perf_counter(), time.process_time()
    replay = render_replay(timeline(game))
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return Build(replay.turns, replay.frames, replay.step, wall, cpu, len(replay.gif))


def pillow_writer(moments: tuple[Moment, ...], step: int) -> tuple[float, int]:
    """Seconds and bytes of Pillow's ``save_all`` for the same frames."""
    painter = FramePainter(moments, None, "dark", False)
    start = time.perf_counter()
    kept = shown(moments, step)
    frames = list(painter.frames(kept))
    out = io.BytesIO()
    first, *rest = [frame for frame, _ in frames]
    first.save(
        out,
        "GIF",
        save_all=True,
        append_images=rest,
        duration=[HOLD_MS[m.kind] for m in kept],
        loop=0,
    )
    return time.perf_counter() - start, out.tell()


def peak_mib() -> float:
    """The process's largest resident memory so far (Linux counts ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="games of each kind (default 3)")
    args = parser.parse_args()
    render_replay(timeline(play(preset("classic", target=1), 2, 1)))  # warm the caches
    print(
        f"{'game':<40} {'turns':>5} {'frames':>6} {'step':>4} {'wall s':>6} {'cpu s':>6}"
        f" {'MiB':>5} {'max MiB':>7}"
    )
    long_game: Game | None = None
    for name, (ruleset, players) in KINDS.items():
        builds = []
        for seed in range(1, args.seeds + 1):
            game = play(ruleset(), players, seed)
            builds.append(build(game))
            if long_game is None or len(game.log) > len(long_game.log):
                long_game = game
        print(
            f"{name:<40} {statistics.median(b.turns for b in builds):5.0f}"
            f" {statistics.median(b.frames for b in builds):6.0f}"
            f" {statistics.median(b.step for b in builds):4.0f}"
            f" {statistics.median(b.wall for b in builds):6.2f}"
            f" {statistics.median(b.cpu for b in builds):6.2f}"
            f" {statistics.median(b.size for b in builds) / 2**20:5.2f}"
            f" {max(b.size for b in builds) / 2**20:7.2f}"
        )
    assert long_game is not None
    moments = timeline(long_game)
    ours = build(long_game)
    peak = peak_mib()
    pillow_s, pillow_size = pillow_writer(moments, ours.step)
    print(
        f"longest game ({ours.frames} frames): frame by frame {ours.wall:.2f} s,"
        f" {ours.size / 2**20:.2f} MiB, peak memory of the process {peak:.0f} MiB;"
        f" Pillow save_all {pillow_s:.2f} s, {pillow_size / 2**20:.2f} MiB, peak memory"
        f" {peak_mib():.0f} MiB. Cap {MAX_BYTES / 2**20:.0f} MiB."
    )


if __name__ == "__main__":
    main()
