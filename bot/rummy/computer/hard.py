"""The *hard* level: *normal*'s planner judging draws and discards one draw ahead.

The look-ahead lives beside the player (:class:`_Lookahead`), because it reads the player's
knobs (candidates, budget clock, when to cut losses) on every move."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from bot.rummy.actions import Action, Discard, DrawStock, TakeDiscard
from bot.rummy.cards import Card, Suit
from bot.rummy.computer.hands import (
    _distinct,
    _fits,
    _hand_key,
    _HandKey,
    _partners,
    _value,
    _without,
)
from bot.rummy.computer.levels import DEFAULT_BUDGET, Level
from bot.rummy.computer.memory import Memory, observe, remember
from bot.rummy.computer.normal import NormalPlayer, _planned, _Planner
from bot.rummy.solver import Arrangement, solve
from bot.rummy.variants import cut_losses_table
from bot.rummy.views import GameView


@dataclass
class HardPlayer:
    """Plays like *normal*, but chooses its draws and discards by searching one draw ahead.

    Each candidate (one of *normal*'s best few discards; or the top of the pile against the
    stock) is judged by every card the stock may give it next: each unseen card, once per
    copy, less the cards it knows an opponent took. For each it finds the best discard
    after that draw and averages the worth of the hands it would keep; a hand that goes
    out is worth, on top, the cards the opponents would be caught with. Every possible
    draw counts by its odds, so the verdict carries no sampling noise. Playing sampled
    deals out with *normal* players was tried first: one deal's verdict varied by about 30
    points, far more than 0.8 s of samples could average out, and it won 49% of 219
    parlett games against *normal*.

    Candidates are searched in *normal*'s order within ``budget`` seconds; when time runs
    out, the best one searched so far (at least *normal*'s choice) is played.

    In Rummy 500 the search also minds the pile, all of it in view: the next player may dig
    down to any card they meld at once and take everything above it, so a discard that
    melds with two cards of the pile hands them that dig for sure. *normal* counts only the
    cards an opponent may hold; weighing the pile too won 65.2% of 400 games against
    *normal*, where *hard* without it won 59.0% on the same deals.

    It also cuts its losses: *normal* keeps its melds in hand until it can go out, so a
    round is a race whose loser pays for every card held, melds included: about 60 of
    parlett's 100-point target. From the round's turn ``cut_after`` times the number
    of players on, *hard* with ``cut_left`` or more loose cards lays its melds down: the
    rounds it loses then cost it little, and it still wins the full hand of an opponent
    who held on. In Rummy 500 a meld caught in hand swings twice its value, since laid
    down it would have scored for its player; but every meld on the table also lets the
    opponent lay off and take the pile deep. It is measured in parlett, where it waits for
    four turns a player, and in Rummy 500, seven (five and ten did worse in scratch runs;
    by ten, most rounds have ended); in classic *hard* keeps *normal*'s holding."""

    budget: float = DEFAULT_BUDGET
    level: Level = Level.HARD
    memory: Memory = field(default_factory=Memory)
    candidates: int = 4
    """How many of *normal*'s best discards are searched."""
    clock: Callable[[], float] = time.perf_counter
    """What ``budget`` is counted in: wall time in a game. The strength benchmark passes
    its process's CPU time, so other work on the machine cannot change what it finds."""
    normal: NormalPlayer = field(default_factory=NormalPlayer)
    cut_after: dict[str, int] = field(default_factory=cut_losses_table)
    """Turns a player, by preset name, from which a hand far from going out lays its melds
    down (a preset not named here never does)."""
    cut_left: int = 4
    """Loose cards that make a hand far from going out."""
    last_departed: bool = False
    """Whether the search overrode the normal level's draw or discard in the last move (for
    benchmarks); a move that differs from the normal level's choice always did."""
    last_searched: int = 0
    """Candidates the last move judged by its search (for benchmarks)."""
    last_cut_short: bool = False
    """Whether the last move's budget ran out before every candidate was judged."""

    def observe(self, view: GameView) -> None:
        """As :meth:`NormalPlayer.observe`."""
        self.memory = observe(self.memory, view)

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        deadline = self.clock() + self.budget * 0.95
        self.memory = observe(self.memory, view)
        planner = _Lookahead(view, self, deadline)
        action = _planned(planner, legal)
        self.last_departed = planner.departed
        self.last_searched = planner.searched
        self.last_cut_short = planner.cut_short
        self.memory = remember(self.memory, view, action)
        return action


class _OutOfTime(Exception):
    pass


class _Lookahead(_Planner):
    """*normal*'s planner whose draws and discards are judged one draw ahead, and whose
    holding gives way late in a round (:class:`HardPlayer` says when)."""

    def __init__(self, view: GameView, hard: HardPlayer, deadline: float) -> None:
        super().__init__(view, replace(hard.normal, memory=hard.memory))
        self.hard = hard
        self.deadline = deadline
        self.departed = False
        self.searched = 0
        self.cut_short = False
        self._kept: dict[tuple[_HandKey, Card | None], float] = {}
        self._arranged: dict[_HandKey, Arrangement] = {}
        self._odds: list[tuple[Card, int]] | None = None
        self._bonus: float | None = None

    def draw(self, legal: Sequence[Action]) -> Action:
        choice = super().draw(legal)
        top = TakeDiscard(1)
        if choice not in (DrawStock(), top) or DrawStock() not in legal or top not in legal:
            return choice  # ending the round, or a deeper take in Rummy 500
        taken = self.view.discard[-1]
        try:
            stock = self.expected(self.hand)
        except _OutOfTime:
            self.cut_short = True
            return choice
        self.searched = 1
        best: Action = top if self.kept([*self.hand, taken], taken) > stock else DrawStock()
        self.departed = best != choice
        return best

    def discard(self, discards: Sequence[Discard]) -> Discard:
        if len(discards) == 1:
            return discards[0]
        ranked = self.ranked_discards(discards)
        # Jokers come last (see _jokers_last): only a first one, which goes out, is searched.
        ranked = [d for i, d in enumerate(ranked) if i == 0 or not d.card.is_joker]
        ranked = ranked[: self.hard.candidates]
        interest = self._interest()
        best: tuple[float, Discard] | None = None
        for option in ranked:
            rest = _without(self.hand, option.card)
            if not self.arrange(rest).left:
                best = (float("inf"), option)  # it goes out
                break
            try:
                value = self.expected(rest)
            except _OutOfTime:
                self.cut_short = True
                break
            self.searched += 1
            value -= self.player.caution * self._danger(option.card, interest, pile=True)
            if best is None or value > best[0]:
                best = (value, option)
        choice = best[1] if best is not None else ranked[0]
        self.departed = choice != ranked[0]
        return choice

    def _hold(self) -> bool:
        """*normal*'s holding, until the hand is far from going out late in the round (see
        :class:`HardPlayer`)."""
        if not super()._hold():
            return False
        after = self.hard.cut_after.get(self.ruleset.name)
        if after is None:
            return True
        late = self.view.turn_in_round >= after * len(self.view.seats)
        return not late or len(self.arrange(self.hand).left) < self.hard.cut_left

    def expected(self, hand: list[Card]) -> float:
        """The average worth of ``hand`` after the next card from the stock and the best
        discard. Cards with no partner in the hand or on the table leave the same choice
        whatever their suit, so one of each value stands for all of them."""
        total = 0.0
        count = 0
        loners: dict[int, float] = {}
        for card, copies in self.odds():
            if self.hard.clock() >= self.deadline:
                raise _OutOfTime
            if self._related(card, hand):
                value = self.kept([*hand, card], None)
            else:
                points = _value(card, self.ruleset)
                if points not in loners:
                    loners[points] = self.kept([*hand, card], None)
                value = loners[points]
            total += copies * value
            count += copies
        return total / count if count else self.worth(hand)

    def kept(self, hand: list[Card], no_discard: Card | None) -> float:
        """The worth of ``hand`` (one card over) after its best discard, or of going out;
        only loose cards of its best arrangement are weighed as the discard, and a joker only
        when no other card is loose (as it plays: see :func:`_jokers_last`)."""
        key = (_hand_key(hand), no_discard)
        found = self._kept.get(key)
        if found is not None:
            return found
        arrangement = self.arrange(hand)
        if not arrangement.left and not self.ruleset.must_discard_to_go_out:
            value = arrangement.score + self.bonus()
        else:
            options = []
            loose = _distinct(arrangement.left)
            for card in [c for c in loose if not c.is_joker] or loose:
                if no_discard is not None and card.face == no_discard.face:
                    continue
                after = self.arrange(_without(hand, card))
                out = not after.left
                options.append(after.score + self.bonus() if out else self.judge(after))
            value = max(options, default=self.judge(arrangement))
        self._kept[key] = value
        return value

    def arrange(self, hand: Sequence[Card]) -> Arrangement:
        """The best arrangement of ``hand`` with the table as it is; hands recur from one
        candidate to the next (throw one card and draw another), so each is solved once."""
        key = _hand_key(hand)
        found = self._arranged.get(key)
        if found is None:
            found = self._arranged[key] = solve(hand, self.ruleset, self.melds)
        return found

    def odds(self) -> list[tuple[Card, int]]:
        """The cards the stock may hold, with their copies: the unseen cards less those an
        opponent is known to have taken."""
        if self._odds is None:
            held = {c for cards in self.player.memory.taken.values() for c in cards}
            copies: dict[tuple[int, Suit | None], list[Card]] = {}
            for card in self.unseen():
                if card not in held:
                    copies.setdefault(card.face, []).append(card)
            self._odds = [(cards[0], len(cards)) for cards in copies.values()]
        return self._odds

    def bonus(self) -> float:
        """What going out is worth beyond the hand's own worth: the opponents' cards, which
        then count against them, at the average value of an unseen card."""
        if self._bonus is None:
            unseen = self.unseen()
            average = sum(_value(c, self.ruleset) for c in unseen) / max(1, len(unseen))
            others = [s.hand_size for s in self.view.seats if s.player != self.view.viewer]
            self._bonus = average * max(others, default=0)
        return self._bonus

    def _related(self, card: Card, hand: Sequence[Card]) -> bool:
        if card.is_joker or any(o.is_joker or _partners(card, o, self.ruleset) for o in hand):
            return True
        return any(_fits(card, meld, self.ruleset) for meld in self.melds)
