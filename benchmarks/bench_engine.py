"""Engine speed: seeded random-legal games played to the end, and `legal_actions` timings.

Run: .venv/bin/python benchmarks/bench_engine.py [--games N]
Prints medians next to the speed target each figure is meant to meet, all measured in this
one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bot.rummy import Card, Game, Meld, Phase, parse_cards, preset
from bot.rummy.players import play_random_game, random_action


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def time_call(fn: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def play_phase_game(hand: list[Card], ruleset_name: str, **options: object) -> Game:
    """A two-player game stopped in the first player's play phase with exactly ``hand``
    (13 cards + the drawn one are rigged from the top of the deck)."""
    ruleset = preset(ruleset_name, **options)
    others = parse_cards("2c 3c 4d 5s 6c 8d 9s 10d Js Qd Ks 2d 3s")
    deck: list[Card] = []
    for mine, theirs in zip(hand[:13], others, strict=True):
        deck += [mine, theirs]
    deck += [parse_cards("Kd")[0], hand[13]]  # the up card, then the stock's top card
    game = Game.new(ruleset, ["a", "b"], seed=1, deck=deck)
    game.apply(game.legal_actions()[0])  # draw from the stock
    assert game.phase is Phase.PLAY
    return game


def bench_legal_actions(repeat: int) -> None:
    plain = parse_cards("Ah 2h 3h 4h 7s 7h 7d 9c 10c Jc Qc 5d 6d 8s")
    jokers = parse_cards("Ah 2h 3h 4h 7s 7h JK 9c 10c Jc Qc JK 6d 8s")
    cases = [
        ("classic, 13-card hand, no jokers (target < 1 ms)", play_phase_game(plain, "classic")),
        ("parlett, 13-card hand, two jokers (target < 5 ms)", play_phase_game(jokers, "parlett")),
        ("500, 13-card hand, no jokers", play_phase_game(plain, "500")),
    ]
    print(f"legal_actions in the play phase (median of {repeat} calls):")
    for label, game in cases:
        samples = time_call(game.legal_actions, repeat)
        count = len(game.legal_actions())
        melds = sum(isinstance(a, Meld) for a in game.legal_actions())
        print(f"  {label}: {median_ms(samples):.3f} ms ({count} actions, {melds} melds)")


def bench_games(games: int) -> None:
    print(f"random-legal games to the end ({games} seeded games each):")
    for name, players in (
        ("classic", 2),
        ("classic", 4),
        ("parlett", 4),
        ("parlett", 7),
        ("500", 2),
        ("500", 6),
    ):
        durations: list[float] = []
        legal_samples: list[float] = []
        actions = rounds = 0
        for seed in range(games):
            game = Game.new(preset(name), [f"p{i}" for i in range(players)], seed=seed)
            rng = random.Random(seed)
            start = time.perf_counter()
            play_random_game(game, rng)
            durations.append(time.perf_counter() - start)
            actions += len(game.log)
            rounds += len(game.rounds)
        sample_game = Game.new(preset(name), [f"p{i}" for i in range(players)], seed=999)
        rng = random.Random(999)
        while not sample_game.is_over and len(legal_samples) < 2000:
            legal_samples += time_call(sample_game.legal_actions, 1)
            sample_game.apply(random_action(sample_game, rng))
        total = sum(durations)
        print(
            f"  {name} {players}p: {games / total:.1f} games/s,"
            f" median game {median_ms(durations):.1f} ms,"
            f" {rounds / games:.1f} rounds/game, {actions / total:.0f} actions/s,"
            f" legal_actions median {median_ms(legal_samples):.3f} ms"
            f" over {len(legal_samples)} calls"
        )


def bench_classic_round(rounds: int) -> None:
    """A two-player classic round played to its end by random legal moves (target < 50 ms)."""
    samples = []
    for seed in range(rounds):
        game = Game.new(preset("classic"), ["a", "b"], seed=seed)
        rng = random.Random(seed)
        start = time.perf_counter()
        while len(game.rounds) == 0:
            game.apply(random_action(game, rng))
        samples.append(time.perf_counter() - start)
    print(
        f"two-player classic round to its end: median {median_ms(samples):.2f} ms"
        f" over {rounds} rounds (target < 50 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    bench_legal_actions(args.repeat)
    bench_classic_round(max(args.games * 5, 50))
    bench_games(args.games)


if __name__ == "__main__":
    main()
