"""The league's rules: how a finished game becomes standings, whom it counts for, and how
ratings move.

These are league rules, not game rules: they read the engine's results and never change
them. They are pure Python so that every storage back end applies the same ones; storage
only reads and writes the rows they describe.

- Places come from the final scores; equal scores share a place and the next is skipped.
- A finished game counts for every person seated at its end (games, wins, rounds won,
  points for and against, finishing place), also when computer players sat at the table —
  places are taken among all seats. An abandoned game counts for nothing.
- A person who left a running game gets a forfeit once it finishes: a game played and lost,
  placed last (behind every seat, the one they left included), with no points and no rounds won.
- The one rating rule: ratings (openskill Plackett-Luce, ties passed as shared ranks) move
  only for a game in which every seat was played by its own person from the deal to the end
  — at least two people, no computer player, no stand-in move, nobody left, nobody took a
  seat over. Beating a program, or a seat half played by one, says little about a person.

A win is a first place (tied first places are all wins). Points for are the player's own
final score and points against the other seats' final scores added up, in the game's own
scoring (so with negative scoring, points for are penalty points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.rummy.rules import Ruleset, Scoring
from bot.rummy.views import RoundEnd, RoundResult
from bot.values.seats import SeatKind

MODEL = PlackettLuce()
"""The rating model; its defaults (mu 25, sigma 25/3) are every newcomer's rating."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One line of a finished game's final standings."""

    seat: int
    score: int
    place: int
    """1 is best; tied scores share a place and the next place is skipped (1, 1, 3)."""
    rounds_won: int


def places(scores: Sequence[int], lower_is_better: bool = False) -> tuple[int, ...]:
    """Finishing place per seat; equal scores share a place and the next one is skipped.

    >>> places([40, 100, 40, 7])
    (2, 1, 2, 4)
    >>> places([40, 100, 40, 7], lower_is_better=True)
    (2, 4, 2, 1)
    """
    sign = 1 if lower_is_better else -1
    return tuple(1 + sum(1 for other in scores if sign * other < sign * s) for s in scores)


def round_winners(result: RoundResult, players: Sequence[str]) -> tuple[int, ...]:
    """The seats that won a round: whoever went out, else the lowest hand value (ties share).

    The same reading for every scoring style: the rules pay a round that ended without
    anyone going out to the lowest hand, and going out means a hand worth nothing.
    """
    if result.reason is RoundEnd.WENT_OUT and result.ender is not None:
        return (players.index(result.ender),)
    best = min(result.hand_values)
    return tuple(seat for seat, value in enumerate(result.hand_values) if value == best)


def final_results(
    ruleset: Ruleset,
    players: Sequence[str],
    scores: Sequence[int],
    rounds: Sequence[RoundResult],
) -> tuple[SeatResult, ...]:
    """The final standings of a finished game, in seat order."""
    finishing = places(scores, lower_is_better=ruleset.scoring is Scoring.NEGATIVE)
    won = [0] * len(players)
    for result in rounds:
        for seat in round_winners(result, players):
            won[seat] += 1
    return tuple(
        SeatResult(seat, score, place, rounds_won)
        for seat, (score, place, rounds_won) in enumerate(zip(scores, finishing, won, strict=True))
    )


@dataclass(frozen=True, slots=True)
class FinalSeat:
    """A seat of a finished game as the league reads it back: who sat there and how they
    finished."""

    kind: SeatKind
    user_id: int | None
    display_name: str
    place: int
    score: int
    rounds_won: int
    assisted: bool = False
    """Not played by one person from the deal to the end (see ``Seat.assisted``)."""


@dataclass(frozen=True, slots=True)
class Leaver:
    """A person who left a finished game before its end."""

    user_id: int
    display_name: str


@dataclass(frozen=True, slots=True)
class Credit:
    """What one finished game adds to one person's figures in the season."""

    user_id: int
    display_name: str
    wins: int
    rounds_won: int
    points_for: int
    points_against: int
    place: int
    forfeit: bool = False
    """They left the game: counted as played and lost, placed last."""


def credits(seats: Sequence[FinalSeat]) -> tuple[Credit, ...]:
    """What the game adds for each person who counts in it (the humans), in seat order."""
    total = sum(seat.score for seat in seats)
    return tuple(
        Credit(
            user_id=seat.user_id,
            display_name=seat.display_name,
            wins=int(seat.place == 1),
            rounds_won=seat.rounds_won,
            points_for=seat.score,
            points_against=total - seat.score,
            place=seat.place,
        )
        for seat in seats
        if seat.kind is SeatKind.HUMAN and seat.user_id is not None
    )


def forfeits(seats: Sequence[FinalSeat], leavers: Sequence[Leaver]) -> tuple[Credit, ...]:
    """What the game adds for each person who left it: a loss, placed after every seat (the
    one they left included, since whoever finished it did better than leaving)."""
    last = len(seats) + 1
    return tuple(
        Credit(leaver.user_id, leaver.display_name, 0, 0, 0, 0, last, forfeit=True)
        for leaver in leavers
    )


def is_rated(seats: Sequence[FinalSeat], leavers: Sequence[Leaver] = ()) -> bool:
    """Whether the game moves ratings: every seat played by its own person from the deal to
    the end, at least two of them, and nobody left."""
    return (
        not leavers
        and not any(seat.assisted for seat in seats)
        and len(credits(seats)) == len(seats) >= 2
    )


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float


NEWCOMER = Rating(MODEL.mu, MODEL.sigma)
"""The rating of a person's first game in a season."""


def rate(before: Sequence[Rating], places: Sequence[int]) -> tuple[Rating, ...]:
    """The players' ratings after a game they finished in ``places`` (ties share a rank),
    each player rated as a team of one."""
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places])
    return tuple(Rating(team[0].mu, team[0].sigma) for team in after)
