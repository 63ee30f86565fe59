"""The engine's and the text layer's hot paths, each on seeded states: the draw choices of a
Rummy 500 turn (every deep take is checked for a use of its card), the play choices, a save
loaded back, a refused long token, and the table text of an eight-player game.

Run: .venv/bin/python benchmarks/bench_hot_paths.py [--repeat N]
Prints the median CPU time of each (``time.process_time``: on a busy machine wall-clock
times say more about the neighbours than about the code). Run it on two commits to compare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bot.rummy import CardParseError, Game, Phase, parse_cards, preset
from bot.rummy.players import random_action
from cogs.ui import present


def median_us(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples) * 1e6


def states(name: str, players: int, seeds: range, every: int = 7) -> list[Game]:
    """Copies of every ``every``-th state of seeded random games."""
    found = []
    for seed in seeds:
        game = Game.new(preset(name), [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            if step % every == 0:
                found.append(game.copy())
            game.apply(random_action(game, rng))
            step += 1
    return found


def each(games: list[Game], call: Callable[[Game], object]) -> Callable[[], None]:
    def run() -> None:
        for game in games:
            call(game)

    return run


def refused(text: str) -> Callable[[], None]:
    def run() -> None:
        try:
            parse_cards(text)
        except CardParseError:
            return
        raise AssertionError(f"{text[:20]!r} was read as cards")

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    repeat = args.repeat
    fives = states("500", 4, range(3))
    draws = [g for g in fives if g.phase is Phase.DRAW and len(g.state.discard) >= 6]
    plays = [g for g in fives if g.phase is Phase.PLAY]
    eights = states("500", 8, range(2), every=11)
    saves = [g.to_json() for g in fives[-40:]]
    names = {f"p{i}": f"P{i}" for i in range(8)}
    figures = [
        (
            f"500, draw choices with a pile of 6+ ({len(draws)} states)",
            each(draws, Game.legal_actions),
        ),
        (f"500, play choices ({len(plays)} states)", each(plays, Game.legal_actions)),
        (
            f"500, eight players: table text ({len(eights)} states)",
            each(eights, lambda g: present.table_text(g.view(None), names, "en")),
        ),
        (
            f"a save of a late game loaded back ({len(saves)} saves)",
            lambda: [Game.from_json(s) for s in saves],
        ),
        ("a refused token of 3,000 characters", refused("10h " + "x" * 3000)),
        ("a refused meld JK=1111… (3,000 characters)", refused("JK=" + "1" * 3000)),
    ]
    print(f"median CPU time of {repeat} runs:")
    for label, run in figures:
        print(f"  {label}: {median_us(run, repeat) / 1000:.2f} ms")


if __name__ == "__main__":
    main()
