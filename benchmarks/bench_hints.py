"""How often /hint and the computer players throw a joker while another card may go.

Run from the repository root: ``.venv/bin/python benchmarks/bench_hints.py [--seeds N]``.

The positions are those of the hint test (``tests/cogs/hint_positions.py``: every preset,
two to four players, jokers wherever a preset allows them, games played by a seeded policy
that keeps its jokers), taken every third action (at most a hundred a game). At each, the
hint is asked in English and the card it says to discard is read from its text, whatever
the version of the hint ("Then discard K♥", "Discard K♥ and hold …", or before, "Suggested
discard: K♥" and a bare "Suggested move: K♥"), so the same command measures the code before
and after a change (run it with ``PYTHONPATH`` set to an export of the older code).
In the play phase, where a joker and another card are both legal discards, each computer
level and the turn timer's safe move choose too. It prints the counts and the time per hint.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.cogs.hint_positions

from bot.rummy import Action, Discard, Game, GameView, Phase
from bot.rummy.computer import EasyPlayer, HardPlayer, NormalPlayer, safe_action
from bot.rummy.solver import solve
from tests.cogs.hint_positions import CASES, positions

SUGGESTED_DISCARD = re.compile(
    r"(?:Suggested discard: |Suggested move: |Discard |[Tt]hen discard |and discard )"
    r"(\S+?)[.,]?(?:\s|$)"
)
"""Where a hint names a card to discard, old wording and new."""

Hint = Callable[[GameView, Sequence[Action], str], str]


def _hint_function() -> Hint:
    try:
        from cogs.ui.hints import hint_text
    except ImportError:  # the hint before it had a module of its own
        from cogs.ui.present import hint_text  # type: ignore[attr-defined,no-redef,unused-ignore]
    return hint_text


def _levels() -> dict[str, Callable[[GameView, Sequence[Action]], Action]]:
    rng = random.Random(0)
    return {
        "easy": lambda view, legal: EasyPlayer().choose(view, legal, rng),
        "normal": lambda view, legal: NormalPlayer().choose(view, legal, rng),
        "hard": lambda view, legal: HardPlayer(budget=0.05, clock=time.process_time).choose(
            view, legal, rng
        ),
        "turn timer": safe_action,
    }


def measure(seeds: int) -> None:
    hint = _hint_function()
    levels = _levels()
    counts: Counter[str] = Counter()
    seconds: list[float] = []
    for name, players, options in CASES:
        for seed in range(seeds):
            for game in positions(name, players, seed, options, every=3, most=100):
                _position(game, hint, levels, counts, seconds)
    phases = ("DRAW", "PLAY")
    print(f"{counts['positions']} positions, {len(CASES)} cases x {seeds} seeds")
    median, most = statistics.median(seconds) * 1000, max(seconds) * 1000
    print(f"hint: median {median:.1f} ms, max {most:.0f} ms")
    for phase in phases:
        print(
            f"{phase.lower()} phase: {counts[phase]} hints, {counts[phase + ' joker']} with a joker"
            f" in hand, {counts[phase + ' loose joker']} with one the best arrangement leaves loose"
        )
        print(
            f"  joker discard suggested while another card may go: {counts[phase + ' JK']}"
            f" ({counts[phase + ' loose JK']} of the hints with a loose joker)"
        )
    print(
        f"play-phase positions where a joker and another card are legal discards:"
        f" {counts['choice']}"
    )
    for level in levels:
        print(f"  {level} discards the joker: {counts[level]}")


def _position(
    game: Game,
    hint: Hint,
    levels: dict[str, Callable[[GameView, Sequence[Action]], Action]],
    counts: Counter[str],
    seconds: list[float],
) -> None:
    player = game.current_player
    assert player is not None
    view = game.view(player)
    legal = game.legal_actions(player)
    phase = view.phase.name
    counts["positions"] += 1
    counts[phase] += 1
    began = time.perf_counter()
    text = hint(view, legal, "en")
    seconds.append(time.perf_counter() - began)
    if not any(c.is_joker for c in view.hand):
        return
    counts[phase + " joker"] += 1
    loose = any(c.is_joker for c in solve(view.hand, view.ruleset, view.melds).left)
    counts[phase + " loose joker"] += loose
    others = [c for c in view.hand if not c.is_joker and c != view.no_discard]
    named = SUGGESTED_DISCARD.findall(text)
    if others and "JK" in named:
        counts[phase + " JK"] += 1
        counts[phase + " loose JK"] += loose
    if view.phase is not Phase.PLAY:
        return
    discards = [a for a in legal if isinstance(a, Discard)]
    if not any(d.card.is_joker for d in discards) or all(d.card.is_joker for d in discards):
        return
    counts["choice"] += 1
    for level, choose in levels.items():
        action = choose(view, legal)
        counts[level] += isinstance(action, Discard) and action.card.is_joker


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="games per case")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    measure(args.seeds)
    print(f"{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
