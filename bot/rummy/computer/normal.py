"""The *normal* level: plans with the exact solver and remembers what the others took.

Its planner, :class:`_Planner`, is also the base that *hard*'s look-ahead refines, so the
two levels agree on what a hand is worth and differ only in how far they look."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.rummy.actions import Action, Discard, DrawStock, EndRound, SwapJoker, TakeDiscard
from bot.rummy.cards import ACE, HIGH_ACE, KING, Card, Suit
from bot.rummy.computer.hands import (
    _discards,
    _distance,
    _distinct,
    _fits,
    _hand_key,
    _HandKey,
    _jokers_last,
    _may_lay_off,
    _plays,
    _positions,
    _run_fillers,
    _used,
    _value,
    _without,
    unseen_cards,
)
from bot.rummy.computer.levels import Level
from bot.rummy.computer.memory import Memory, observe, remember
from bot.rummy.computer.plans import _match, _swapped
from bot.rummy.melds import TableMeld
from bot.rummy.rules import Ruleset
from bot.rummy.solver import Arrangement, Play, best_score, solve
from bot.rummy.views import GameView, Phase


@dataclass
class NormalPlayer:
    """Plans with the exact solver; see the module's description."""

    level: Level = Level.NORMAL
    memory: Memory = field(default_factory=Memory)
    potential: float = 0.5
    """How much less a loose card one draw from a meld counts than a hopeless one."""
    hold: int = 3
    """Keep melds in hand while every opponent holds more cards than this (0: never): one
    who has melded down to three cards may go out on their next turn, and then every card
    still in hand counts against us. Three beats *easy* more often than five did (79% of
    400 classic games against 73%) and plays even with five (51% of 400)."""
    race: float = 3.0
    """Points each card left in hand costs beyond its value: going out first wins rounds."""
    caution: float = 4.0
    """Points a discard costs when the next player has shown interest in it."""

    def observe(self, view: GameView) -> None:
        """Learn from a view shown between its own turns (after every committed action,
        if the caller can): with three or more players, that is how it learns who took
        what from the pile."""
        self.memory = observe(self.memory, view)

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.memory = observe(self.memory, view)
        action = normal_action(self, view, legal)
        self.memory = remember(self.memory, view, action)
        return action


def normal_action(player: NormalPlayer, view: GameView, legal: Sequence[Action]) -> Action:
    """The normal level's choice."""
    return _planned(_Planner(view, player), legal)


def _planned(planner: _Planner, legal: Sequence[Action]) -> Action:
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    if planner.view.phase is Phase.DRAW:
        return planner.draw(legal)
    return planner.play(legal)


def ranked_discards(player: NormalPlayer, view: GameView, legal: Sequence[Action]) -> list[Discard]:
    """The legal discards, best first, as *normal* ranks them: the worth of the hand left,
    less the risk of feeding the next player; a joker last unless its discard goes out."""
    return _Planner(view, player).ranked_discards(_discards(legal))


class _Planner:
    def __init__(self, view: GameView, player: NormalPlayer) -> None:
        self.view = view
        self.ruleset = view.ruleset
        self.player = player
        self.hand = list(view.hand)
        self.melds = view.melds
        self._unseen: list[Card] | None = None
        self._hopeful: dict[_HandKey, int] = {}
        self._unseen_faces: set[tuple[int, Suit | None]] | None = None
        self.held: tuple[Play, ...] = ()
        """The plays a discard keeps in hand this turn, when :meth:`_hold` chose it."""

    # --- values ----------------------------------------------------------------------------

    def unseen(self) -> list[Card]:
        """Cards that may be in another hand or the stock (not the pile as remembered)."""
        if self._unseen is None:
            pile = set(self.player.memory.pile)
            self._unseen = [c for c in unseen_cards(self.view) if c not in pile]
        return self._unseen

    def worth(self, hand: Sequence[Card], melds: Sequence[TableMeld] | None = None) -> float:
        """The hand's best arrangement, plus what its loose cards may still become."""
        table = self.melds if melds is None else melds
        return self.judge(solve(hand, self.ruleset, table))

    def judge(self, arrangement: Arrangement) -> float:
        """What a hand arranged so is worth (see :meth:`worth`)."""
        value = float(arrangement.score) - self.player.race * len(arrangement.left)
        if self.player.potential:
            value += self.player.potential * self.hopeful(arrangement.left)
        return value

    def hopeful(self, left: Sequence[Card]) -> int:
        """The value of the loose cards that one unseen card would turn into a meld with
        another loose card (a pair, or two cards of a suit one or two places apart)."""
        key = _hand_key(left)
        found = self._hopeful.get(key)
        if found is None:
            found = self._hopeful[key] = sum(_value(c, self.ruleset) for c in self.live(left))
        return found

    def live(self, left: Sequence[Card]) -> set[Card]:
        """The loose cards that one unseen card would turn into a meld with another."""
        if self._unseen_faces is None:
            self._unseen_faces = {c.face for c in self.unseen()}
        unseen = self._unseen_faces
        naturals = [c for c in left if not c.is_joker]
        live: set[Card] = set()
        for i, a in enumerate(naturals):
            for b in naturals[i + 1 :]:
                if a.face == b.face or (a in live and b in live):
                    continue
                needed: list[tuple[int, Suit | None]]
                if a.rank == b.rank:
                    needed = [(a.rank, s) for s in Suit if s not in (a.suit, b.suit)]
                elif a.suit == b.suit and _distance(a, b, self.ruleset) <= 2:
                    needed = [(r, a.suit) for r in _run_fillers(a, b, self.ruleset)]
                else:
                    continue
                if any(face in unseen for face in needed):
                    live.update((a, b))
        return live

    def best_keep(self, hand: Sequence[Card], no_discard: Card | None) -> float:
        """The worth of ``hand`` after its best discard."""
        best = None
        for card in _distinct(hand):
            if card == no_discard:
                continue
            rest = list(hand)
            rest.remove(card)
            value = self.worth(rest)
            best = value if best is None else max(best, value)
        return best if best is not None else self.worth(hand)

    # --- drawing -------------------------------------------------------------------------------

    def draw(self, legal: Sequence[Action]) -> Action:
        view = self.view
        now = self.worth(self.hand)
        choice: Action | None = None
        best_gain = -0.01
        for action in legal:
            if not isinstance(action, TakeDiscard):
                continue
            taken = list(view.discard[-action.depth :]) if view.discard else []
            if len(taken) != action.depth:
                continue
            hand = self.hand + taken
            if action.depth == 1:
                value = self.best_keep(hand, taken[0])
                arranged = solve(hand, self.ruleset, self.melds)
                if not _used(arranged, taken[0], may_lay_off=_may_lay_off(view)):
                    continue
            else:
                if best_score(hand, self.ruleset, self.melds, must_place=taken[0]) is None:
                    continue
                value = self.best_keep(hand, None) + self._deep_margin(len(taken))
            gain = value - now
            if gain > best_gain:
                best_gain, choice = gain, action
        ender = next((a for a in legal if isinstance(a, EndRound)), None)
        if ender is not None and self._should_end():
            return ender
        if choice is not None:
            return choice
        for kind in (DrawStock, EndRound, TakeDiscard):
            for action in legal:
                if isinstance(action, kind):
                    return action
        return legal[0]

    def _deep_margin(self, depth: int) -> float:
        """A deep take shows the table what one collects and fills the hand: ask a little
        more of it, more the deeper it goes."""
        return -1.0 * depth

    def _should_end(self) -> bool:
        view = self.view
        mine = sum(_value(c, self.ruleset) for c in self.hand)
        unseen = self.unseen()
        average = sum(_value(c, self.ruleset) for c in unseen) / max(1, len(unseen))
        others = [s.hand_size * average for s in view.seats if s.player != view.viewer]
        if view.turn_in_round > 150:
            return True
        return not others or mine <= min(others)

    # --- playing -------------------------------------------------------------------------------

    def play(self, legal: Sequence[Action]) -> Action:
        view = self.view
        plays = _plays(legal)
        discards = _discards(legal)
        if view.must_use is not None:
            arrangement = solve(self.hand, self.ruleset, self.melds, must_place=view.must_use)
            with_card = [p for p in arrangement.plays if view.must_use in p.cards]
            action = _match(with_card + list(arrangement.plays), plays, self.melds, self.ruleset)
            if action is not None:
                return action
            return plays[0] if plays else legal[0]
        if not plays:
            return self.discard(discards) if discards else legal[0]
        if not self.ruleset.must_discard_to_go_out:
            whole = solve(self.hand, self.ruleset, self.melds)
            if not whole.left:
                action = _match(whole.plays, plays, self.melds, self.ruleset)
                if action is not None:
                    return action
        keep = self.discard(discards) if discards else None
        rest = _without(self.hand, keep.card) if keep is not None else list(self.hand)
        arrangement = solve(rest, self.ruleset, self.melds)
        swap = self._swap(plays, keep)
        if swap is not None:
            return swap
        if keep is not None and arrangement.left and self._hold():
            self.held = arrangement.plays
            return keep
        action = _match(arrangement.plays, plays, self.melds, self.ruleset)
        if action is not None:
            return action
        return keep if keep is not None else legal[0]

    def _hold(self) -> bool:
        """Whether to keep melds in hand this turn: every meld on the table is a place for
        the others to lay off, so melds wait until they all go down at once, unless an
        opponent is close to going out or the stock is running low."""
        hold = self.player.hold
        if hold <= 0:
            return False
        view = self.view
        others = [s.hand_size for s in view.seats if s.player != view.viewer]
        return min(others, default=0) > hold and view.stock_size > 2 * len(view.seats)

    def _swap(self, plays: Sequence[Action], keep: Discard | None) -> Action | None:
        swaps = [a for a in plays if isinstance(a, SwapJoker)]
        if not swaps:
            return None
        now = self.best_keep(self.hand, self.view.no_discard)
        best: tuple[float, Action] | None = None
        for swap in swaps:
            melds, joker = _swapped(self.melds, swap)
            if joker is None:
                continue
            hand = list(self.hand)
            hand.remove(next(c for c in hand if c.face == swap.card.face))
            hand.append(joker)
            saved = self.melds
            self.melds = melds
            value = self.best_keep(hand, self.view.no_discard)
            self.melds = saved
            if value > now + 0.5 and (best is None or value > best[0]):
                best = (value, swap)
        return best[1] if best is not None else None

    def discard(self, discards: Sequence[Discard]) -> Discard:
        return discards[0] if len(discards) == 1 else self.ranked_discards(discards)[0]

    def ranked_discards(self, discards: Sequence[Discard]) -> list[Discard]:
        interest = self._interest()
        scored = []
        for option in discards:
            rest = _without(self.hand, option.card)
            value = self.worth(rest) - self.player.caution * self._danger(option.card, interest)
            scored.append((value, _value(option.card, self.ruleset), option.card.sort_key, option))
        scored.sort(key=lambda t: t[:3], reverse=True)
        return _jokers_last([t[3] for t in scored], self.hand, self.ruleset, self.melds)

    def _interest(self) -> tuple[list[Card], set[int]]:
        """What the next player has shown they collect: the cards they took from the pile
        (still hidden), and the melds they laid off onto (they may hold more for them)."""
        seats = [s.player for s in self.view.seats]
        if self.view.viewer not in seats:
            return [], set()
        nxt = seats[(seats.index(self.view.viewer) + 1) % len(seats)]
        taken = list(self.player.memory.taken.get(nxt, []))
        extended = {m.id for m in self.melds if any(p.placed_by == nxt != m.owner for p in m.cards)}
        return taken, extended

    def _danger(
        self, card: Card, interest: tuple[list[Card], set[int]], *, pile: bool = False
    ) -> float:
        """How likely the next player can use ``card`` at once, about 0 to 2: it fits a meld
        on the table (more so one they lay off onto), or two cards they may hold (those
        they took from the pile for sure, any unseen card by the odds) meld with it.

        With ``pile`` (*hard*'s search), Rummy 500's pile counts too: the next player may
        dig down to any card of it they can meld at once and take every card above it. A
        card that melds with two cards of the pile gives them that dig for sure (2); with
        one, by the odds that they hold the third."""
        if card.is_joker:
            return 2.0
        taken, extended = interest
        in_pile: dict[tuple[int, Suit | None], float] = {}
        if pile and self.ruleset.deep_discard:
            in_pile = {c.face: 1.0 for c in self.view.discard if not c.is_joker}
            if _meld_odds(card, in_pile, self.ruleset) >= 1.0:
                return 2.0
        fits = [m.id for m in self.melds if _fits(card, m, self.ruleset)]
        if fits:
            return 1.0 + (1.0 if extended.intersection(fits) else 0.0)
        return min(1.0, _meld_odds(card, self._held_odds(taken) | in_pile, self.ruleset))

    def _held_odds(self, taken: Sequence[Card]) -> dict[tuple[int, Suit | None], float]:
        """The chance that the next player holds each card: those they took from the pile
        for sure, any unseen card by the odds (jokers left out)."""
        unseen = self.unseen()
        seats = [s for s in self.view.seats if s.player != self.view.viewer]
        size = seats[0].hand_size if len(seats) == 1 else max(s.hand_size for s in seats)
        chance = min(1.0, size / max(1, len(unseen)))
        odds = {c.face: chance for c in unseen if not c.is_joker}
        odds.update({c.face: 1.0 for c in taken if not c.is_joker})
        return odds


def _meld_odds(card: Card, odds: dict[tuple[int, Suit | None], float], ruleset: Ruleset) -> float:
    """The expected number of pairs of cards that make a meld of three with ``card``, when
    each face is to hand with its chance in ``odds``."""
    total = 0.0
    rank, suit = card.rank, card.suit
    same_rank = [odds[(rank, s)] for s in Suit if s != suit and (rank, s) in odds]
    for i, p in enumerate(same_rank):
        for q in same_rank[i + 1 :]:
            total += p * q
    top = HIGH_ACE if ruleset.ace_high else KING
    for pos in sorted(_positions(card, ruleset)):
        for a, b in ((pos - 2, pos - 1), (pos - 1, pos + 1), (pos + 1, pos + 2)):
            pa = odds.get((ACE if a == HIGH_ACE else a, suit), 0.0) if 1 <= a <= top else 0.0
            pb = odds.get((ACE if b == HIGH_ACE else b, suit), 0.0) if 1 <= b <= top else 0.0
            total += pa * pb
    return total
