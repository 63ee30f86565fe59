"""Strength of the computer players: seeded two-player games per pairing and preset.

Run: .venv/bin/python benchmarks/bench_strength.py [--games N] [--hard-games N]
     [--budget SECONDS] [--presets classic,parlett,500] [--pairings normal-easy,...] [--jobs N]
     [--out FILE.jsonl] [--report FILE.jsonl ...]

The defaults fit `make bench` (a few minutes); the full run of the strength targets is
``--games 400 --hard-games 400 --budget 0.8`` (the hard games take about two hours on two
cores).
A run that long goes to ``--out``: each finished game is appended as one line, and the same
command run again plays only the games the file lacks, so it can be stopped and resumed
(``nice`` keeps it out of the way). ``--report`` pools such files and prints the table.

The hard level's budget is counted in its process's CPU time here (on an idle machine that
is its wall time), so other work on the machine does not change what it finds; the figures
per move are wall time.

Every game is seeded (the deal from the game's seed, each player's choices from its own
seeded generator), so a run is reproducible; who starts alternates from game to game. It
prints each pairing's win rate with a 95% Wilson interval against its target, and the hard
level's median and maximum time per move, with, per preset, how many of its moves the
budget cut short and how often its search left the normal level's choice.

``--pairings seer-normal`` measures a ceiling rather than a level (see ``SeerPlayer``); its
row shows no target.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from bot.rummy import Action, Card, Discard, Game, GameView, full_pack, preset
from bot.rummy.computer import (
    DEFAULT_BUDGET,
    HardPlayer,
    NormalPlayer,
    make_player,
    ranked_discards,
    remember,
)
from bot.rummy.solver import best_score, clear_memo, solve

TARGETS = {"normal-easy": 0.70, "hard-normal": 0.60, "easy-random": 0.90}
PRESETS = ("classic", "parlett", "500")
MAX_ACTIONS = 50_000


class RandomPlayer:
    """Uniformly random legal play: the floor every level must beat."""

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


@dataclass
class SeerPlayer(NormalPlayer):
    """*normal* that also sees the opponent's hand and, among normal's ``depth`` best
    discards, throws the first the opponent could not meld at once. It cheats, so it is
    never seated: it measures how much never feeding the opponent is worth, a ceiling for
    what any honest reading of the opponent's hand can add to *normal*."""

    opponent: Sequence[Card] = ()
    depth: int = 3

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        action = super().choose(view, legal, rng)
        if not isinstance(action, Discard) or view.must_use is not None:
            return action
        for option in ranked_discards(self, view, legal)[: self.depth]:
            placed = solve([*self.opponent, option.card], view.ruleset, view.melds)
            if not any(option.card.face == c.face for p in placed.plays for c in p.cards):
                self.memory = remember(self.memory, view, option)
                return option
        return action


@dataclass(frozen=True)
class Job:
    pairing: str
    preset: str
    game: int
    seed: int
    budget: float


@dataclass(frozen=True)
class Outcome:
    pairing: str
    preset: str
    seed: int
    budget: float
    first_won: bool
    draws: bool
    rounds: int
    seconds: float
    hard_moves: tuple[float, ...]
    hard_searched: tuple[int, ...]
    """Candidates each hard move judged by its search (0: it kept the normal choice)."""
    cut_short: int
    """Hard moves whose budget ran out before every candidate was judged."""
    departures: int
    """Hard moves that left the normal level's choice."""


def _key(game: Job | Outcome) -> tuple[str, str, int, float]:
    """What names one game across runs, so a resumed run skips the games it has."""
    return (game.pairing, game.preset, game.seed, game.budget)


def _player(level: str, budget: float) -> object:
    if level == "random":
        return RandomPlayer()
    if level == "seer":
        return SeerPlayer()
    player = make_player(level, budget=budget)
    if isinstance(player, HardPlayer):
        player.clock = time.process_time
    return player


def play(job: Job) -> Outcome:
    """One game: the pairing's first level against its second, seats alternating."""
    first, second = job.pairing.split("-")
    names = ["a", "b"] if job.game % 2 == 0 else ["b", "a"]
    levels = {"a": first, "b": second}
    players = {name: _player(levels[name], job.budget) for name in names}
    rngs = {name: random.Random(f"{job.seed}:{name}") for name in names}
    game = Game.new(preset(job.preset), names, seed=job.seed)
    hard_moves: list[float] = []
    hard_searched: list[int] = []
    cut_short = 0
    departures = 0
    start = time.perf_counter()
    for _ in range(MAX_ACTIONS):
        current = game.current_player
        if current is None:
            break
        legal = game.legal_actions()
        player = players[current]
        if isinstance(player, SeerPlayer):
            player.opponent = game.hand(next(n for n in names if n != current))
        began = time.perf_counter()
        action = player.choose(game.view(current), legal, rngs[current])  # type: ignore[attr-defined]
        if isinstance(player, HardPlayer):
            hard_moves.append(time.perf_counter() - began)
            hard_searched.append(player.last_searched)
            cut_short += player.last_cut_short
            departures += player.last_departed
        if action not in legal:
            raise AssertionError(f"{levels[current]} chose an illegal action: {action}")
        game.apply(action)
    return Outcome(
        pairing=job.pairing,
        preset=job.preset,
        seed=job.seed,
        budget=job.budget,
        first_won="a" in game.winners,
        draws=not game.winners,
        rounds=len(game.rounds),
        seconds=time.perf_counter() - start,
        hard_moves=tuple(hard_moves),
        hard_searched=tuple(hard_searched),
        cut_short=cut_short,
        departures=departures,
    )


def bench_solver(hands: int, seed: int) -> None:
    """Median and maximum time of one exact solve of a random 14-card hand (a hand after
    the draw), memo cleared before each, per ruleset; "4 jokers" deals each hand four."""
    cases = [
        ("classic", preset("classic"), 0),
        ("parlett", preset("parlett"), 0),
        ("parlett, 2 decks, 4 jokers", preset("parlett", two_decks=True), 4),
        ("500 with jokers", preset("500", jokers=True), 0),
    ]
    print(f"solver: {hands} random 14-card hands per case, memo cleared before each solve")
    for label, ruleset, jokers in cases:
        rng = random.Random(seed)
        decks = 2 if ruleset.two_decks_for_four_five else 1
        pack = full_pack(decks, ruleset.jokers_per_deck)
        naturals = [c for c in pack if not c.is_joker]
        wild = [c for c in pack if c.is_joker]
        samples = []
        for _ in range(hands):
            hand = (
                rng.sample(naturals, 14 - jokers) + wild[:jokers]
                if jokers
                else rng.sample(pack, 14)
            )
            clear_memo(ruleset)
            began = time.perf_counter()
            best_score(hand, ruleset)
            samples.append(time.perf_counter() - began)
        print(
            f"  {label:<28} median {statistics.median(samples) * 1000:6.2f} ms,"
            f" max {max(samples) * 1000:6.2f} ms"
        )


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return ((centre - spread) / denominator, (centre + spread) / denominator)


def _print_search(name: str, outcomes: Sequence[Outcome]) -> None:
    """How much the hard level's search could do: a move whose budget ran out before every
    candidate was judged chose among fewer, and with none judged it plays as *normal*."""
    searched = [n for o in outcomes for n in o.hard_searched if n]
    moves = sum(len(o.hard_moves) for o in outcomes)
    if searched:
        print(
            f"  hard in {name}: {len(searched)} of {moves} moves searched, median"
            f" {statistics.median(searched):g} candidates; cut short by the budget"
            f" {sum(o.cut_short for o in outcomes)}; left normal's choice in"
            f" {sum(o.departures for o in outcomes)}"
        )


def _load(paths: Sequence[str]) -> list[Outcome]:
    """Outcomes appended by earlier runs (a missing file holds none)."""
    outcomes = []
    for path in paths:
        if not Path(path).exists():
            continue
        for line in Path(path).read_text().splitlines():
            if line.strip():
                raw = json.loads(line)
                for name in ("hard_moves", "hard_searched"):
                    raw[name] = tuple(raw[name])
                outcomes.append(Outcome(**raw))
    return outcomes


def _play_all(jobs: Sequence[Job], workers: int, out: str | None) -> list[Outcome]:
    """Play ``jobs``, appending each finished game to ``out`` at once if given."""
    outcomes: list[Outcome] = []

    def keep(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if out is not None:
            with Path(out).open("a") as file:
                file.write(json.dumps(dataclasses.asdict(outcome)) + "\n")

    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for future in as_completed([pool.submit(play, job) for job in jobs]):
                keep(future.result())
    else:
        for job in jobs:
            keep(play(job))
    return outcomes


def _report(outcomes: Sequence[Outcome], pairings: Sequence[str], presets: Sequence[str]) -> None:
    print(
        f"{'pairing':<13}{'preset':<9}{'games':>6}{'wins':>6}{'rate':>7}  95% CI"
        f"        target  s/game"
    )
    moves: list[float] = []
    for pairing in pairings:
        for name in [*presets, "all"]:
            mine = [o for o in outcomes if o.pairing == pairing and name in ("all", o.preset)]
            if not mine:
                continue
            wins = sum(o.first_won for o in mine)
            low, high = wilson(wins, len(mine))
            target = TARGETS.get(pairing)
            if target is None:
                goal = f"{'—':>4} {'':<6}"
            else:
                mark = "ok" if low >= target else ("?" if high >= target else "MISSED")
                goal = f"{target:.0%} {mark:<6}"
            per_game = statistics.mean(o.seconds for o in mine)
            print(
                f"{pairing:<13}{name:<9}{len(mine):>6}{wins:>6}{wins / len(mine):>7.1%}"
                f"  [{low:.1%}, {high:.1%}]  {goal} {per_game:6.2f}"
            )
            if name == "all":
                moves += [m for o in mine for m in o.hard_moves]
            elif pairing.startswith("hard"):
                _print_search(name, mine)
    if moves:
        print(
            f"hard: {len(moves)} moves, median {statistics.median(moves) * 1000:.1f} ms,"
            f" max {max(moves) * 1000:.1f} ms per move (wall time)"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing and preset")
    parser.add_argument("--hard-games", type=int, default=4, help="games for hard-normal")
    parser.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET, help="hard level, seconds a move"
    )
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--pairings", default=",".join(TARGETS))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--solver-hands", type=int, default=300, help="0: skip the solver")
    parser.add_argument("--out", help="append each game here; games already in it are kept")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="pool earlier --out files")
    args = parser.parse_args(argv)
    pairings, presets = args.pairings.split(","), args.presets.split(",")
    if args.report:
        outcomes = _load(args.report)
        budgets = sorted({o.budget for o in outcomes if o.pairing.startswith("hard")})
        print(f"{len(outcomes)} games from {len(args.report)} files; hard budgets {budgets}")
        _report(outcomes, pairings, presets)
        return
    if args.solver_hands:
        bench_solver(args.solver_hands, args.seed)
    jobs: list[Job] = []
    for pairing in pairings:
        count = args.hard_games if pairing.startswith("hard") else args.games
        for name in presets:
            for g in range(count):
                seed = args.seed * 100_000 + g
                jobs.append(Job(pairing, name, g, seed, args.budget))
    earlier = {_key(o): o for o in _load([args.out])} if args.out else {}
    todo = [j for j in jobs if _key(j) not in earlier]
    began = time.perf_counter()
    outcomes = _play_all(todo, args.jobs, args.out)
    wall = time.perf_counter() - began
    outcomes += [earlier[_key(j)] for j in jobs if _key(j) in earlier]
    print(f"seed {args.seed}, hard budget {args.budget:g} s/move (CPU), jobs {args.jobs}")
    if len(todo) < len(jobs):
        print(f"{len(todo)} games played now, {len(jobs) - len(todo)} read from {args.out}")
    _report(outcomes, pairings, presets)
    print(f"wall time {wall:.1f} s")


if __name__ == "__main__":
    main()
