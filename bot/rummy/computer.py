"""Computer players at three levels, and the safe move a turn timer plays for someone absent.

A computer player sees the game only through its own :class:`GameView` and chooses only
among the legal actions it is given, exactly like a person with buttons. What it remembers
between its turns (which cards an opponent took from the discard pile) it learns by
comparing the views it is shown, so it needs no access to the game.

- *easy* melds and lays off whatever it can and discards its highest loose card.
- *normal* plans with the exact solver: it takes the discard (or, in Rummy 500, a deeper
  part of the pile) when that improves its best arrangement, plays its best arrangement,
  keeps cards that are one draw from a meld, and avoids feeding the next player.
- *hard* plans like *normal*, but judges its draws and discards by every card the stock
  may give it next, within a time budget per move; in Rummy 500 it also minds the cards
  of the pile a discard would let the next player dig down to; and in parlett and Rummy
  500, late in a round, a hand still far from going out lays its melds down instead of
  risking being caught with them.

Players are small picklable objects, so a move can be chosen in a worker process with
:func:`choose_in_process`; they hold no random generator of their own (one is passed in).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations
from typing import Protocol

from bot.rummy.actions import (
    Action,
    Discard,
    DrawStock,
    EndRound,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
)
from bot.rummy.cards import ACE, HIGH_ACE, KING, Card, Suit, full_pack
from bot.rummy.game import Game
from bot.rummy.melds import (
    MeldKind,
    PlacedCard,
    Reading,
    Slot,
    TableMeld,
    layoff_readings,
    readings,
)
from bot.rummy.rules import Ruleset
from bot.rummy.solver import Arrangement, Play, best_score, solve
from bot.rummy.variants import cut_losses_table
from bot.rummy.views import GameView, Phase


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class ComputerPlayer(Protocol):
    level: Level

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action: ...


DEFAULT_BUDGET = 0.8
"""Seconds a hard player may think per move, unless told otherwise: the search stops at
95% of it, and what is left covers the last card it was weighing and the verdict, so a
move stays within a second."""


# --- shared helpers --------------------------------------------------------------------------


def _value(card: Card, ruleset: Ruleset) -> int:
    return ruleset.card_value(card)


def _plays(legal: Sequence[Action]) -> list[Meld | LayOff | SwapJoker]:
    return [a for a in legal if isinstance(a, Meld | LayOff | SwapJoker)]


def _discards(legal: Sequence[Action]) -> list[Discard]:
    return [a for a in legal if isinstance(a, Discard)]


def _loose(hand: Sequence[Card], ruleset: Ruleset) -> list[Card]:
    """Cards with no partner for a meld: no other card of their rank, no card of their suit
    within two places, and not a joker."""
    found = []
    for card in hand:
        if card.is_joker:
            continue
        partner = False
        for other in hand:
            if other is card or other.is_joker or other.face == card.face:
                continue
            if _partners(card, other, ruleset):
                partner = True
                break
        if not partner:
            found.append(card)
    return found


def _partners(a: Card, b: Card, ruleset: Ruleset) -> bool:
    """Whether two natural cards could stand in one meld: the same rank, or the same suit
    within two places."""
    return a.rank == b.rank or (a.suit == b.suit and _distance(a, b, ruleset) <= 2)


_HandKey = tuple[tuple[int, int, int], ...]


def _hand_key(cards: Iterable[Card]) -> _HandKey:
    """The same key for the same cards in any order."""
    return tuple(sorted(c.sort_key for c in cards))


def _distance(a: Card, b: Card, ruleset: Ruleset) -> int:
    gap = abs(a.rank - b.rank)
    if ruleset.ace_high and ACE in (a.rank, b.rank):
        other = b.rank if a.rank == ACE else a.rank
        gap = min(gap, HIGH_ACE - other)
    return gap


def _run_fillers(a: Card, b: Card, ruleset: Ruleset) -> list[int]:
    """Ranks that would make a run of three with ``a`` and ``b`` (same suit, near)."""
    found: set[int] = set()
    for pa in _positions(a, ruleset):
        for pb in _positions(b, ruleset):
            low, high = sorted((pa, pb))
            if high - low == 1:
                found |= {low - 1, high + 1}
            elif high - low == 2:
                found.add(low + 1)
    top = HIGH_ACE if ruleset.ace_high else 13
    return [ACE if r == HIGH_ACE else r for r in found if 1 <= r <= top]


def _positions(card: Card, ruleset: Ruleset) -> set[int]:
    if card.rank == ACE and ruleset.ace_high:
        return {ACE, HIGH_ACE}
    return {card.rank}


def _highest(discards: Sequence[Discard], ruleset: Ruleset, among: Iterable[Card]) -> Discard:
    pool = {c.face for c in among}
    chosen = [d for d in discards if d.card.face in pool] or list(discards)
    return max(chosen, key=lambda d: (_value(d.card, ruleset), d.card.sort_key))


def safe_action(view: GameView, legal: Sequence[Action]) -> Action:
    """The move a turn timer plays for an absent player: draw from the stock (else take the
    discard, else end the round), then discard the highest card that is in no meld of the
    hand's best arrangement. Called once per action, like a player."""
    if not legal:
        raise ValueError("no legal action")
    for kind in (DrawStock, TakeDiscard, EndRound):
        for action in legal:
            if type(action) is kind and (kind is not TakeDiscard or action == TakeDiscard(1)):
                return action
    discards = _discards(legal)
    if discards:
        left = solve(view.hand, view.ruleset, view.melds).left
        return _highest(discards, view.ruleset, left)
    return legal[0]


# --- easy ------------------------------------------------------------------------------------


@dataclass
class EasyPlayer:
    """Melds what it can (the biggest meld first), lays off what it can, and discards its
    highest card without a partner; takes the discard only when it makes a meld at once
    (in Rummy 500 also a card at most three deep, which the rules let it take only then)."""

    level: Level = Level.EASY

    def choose(self, view: GameView, legal: Sequence[Action], rng: random.Random) -> Action:
        ruleset = view.ruleset
        if view.phase is Phase.DRAW:
            top = view.discard[-1] if view.discard else None
            if TakeDiscard(1) in legal and top is not None and _melds_at_once(top, view):
                return TakeDiscard(1)
            deep = [a for a in legal if isinstance(a, TakeDiscard) and 1 < a.depth <= 3]
            if deep:  # Rummy 500: a short dig that melds at once
                return min(deep, key=lambda a: a.depth)
            for kind in (DrawStock, EndRound):
                for action in legal:
                    if isinstance(action, kind):
                        return action
            return legal[0]
        melds = [a for a in legal if isinstance(a, Meld)]
        if melds:
            return max(
                melds, key=lambda m: (len(m.cards), sum(_value(c, ruleset) for c in m.cards))
            )
        layoffs = [a for a in legal if isinstance(a, LayOff)]
        if layoffs:
            return max(layoffs, key=lambda a: len(a.cards))
        discards = _discards(legal)
        if discards:
            return _highest(discards, ruleset, _loose(view.hand, ruleset))
        return legal[0]


def _melds_at_once(card: Card, view: GameView) -> bool:
    ruleset = view.ruleset
    for meld in view.melds:
        if _fits(card, meld, ruleset):
            return True
    near = [c for c in view.hand if c.is_joker or c.rank == card.rank or c.suit == card.suit]
    return any(readings((card, a, b), ruleset) for a, b in combinations(near, 2))


def _fits(card: Card, meld: TableMeld, ruleset: Ruleset) -> bool:
    return bool(layoff_readings(meld, (card,), ruleset))


# --- normal ----------------------------------------------------------------------------------


@dataclass
class Memory:
    """What a player has learnt from the views it was shown during one round."""

    round_no: int = 0
    turn: int = 0
    phase: Phase = Phase.DRAW
    current: str | None = None
    discard: tuple[Card, ...] = ()
    discard_size: int = 0
    stock_size: int = 0
    my_discard: Card | None = None
    taken: dict[str, list[Card]] = field(default_factory=dict)
    """Cards each opponent took from the discard pile and has not shown since."""
    pile: tuple[Card, ...] = ()
    """The discard pile as far as it was seen, bottom first (hidden below its top card
    in classic and parlett, but seen when it was thrown)."""


def remember(memory: Memory, view: GameView, action: Action) -> Memory:
    """``memory`` after the player chose ``action``: a discard's own card is remembered,
    so that the player knows its card when it next sees the pile."""
    if not isinstance(action, Discard):
        return memory
    return replace(memory, my_discard=_physical(view, action.card))


def observe(memory: Memory, view: GameView) -> Memory:
    """``memory`` brought up to date with ``view`` (a new value; the old one is unchanged)."""
    if view.round_no != memory.round_no:
        memory = Memory(round_no=view.round_no)
    taken = {p: list(cards) for p, cards in memory.taken.items()}
    if memory.turn:
        taker, count = _who_took(memory, view)
        if taker is not None and taker != view.viewer and count > 0:
            pile = list(memory.discard)
            mine = memory.current == view.viewer and memory.phase is Phase.PLAY
            if mine and memory.my_discard is not None:
                pile.append(memory.my_discard)
            taken.setdefault(taker, []).extend(pile[-count:] if count <= len(pile) else ())
    shown = {p.card for m in view.melds for p in m.cards} | set(view.discard)
    taken = {p: [c for c in cards if c not in shown] for p, cards in taken.items()}
    return replace(
        memory,
        pile=_pile(memory, view),
        turn=view.turn,
        phase=view.phase,
        current=view.current,
        discard=view.discard,
        discard_size=view.discard_size,
        stock_size=view.stock_size,
        taken=taken,
    )


def _pile(memory: Memory, view: GameView) -> tuple[Card, ...]:
    """The pile as far as it is known: cards thrown since it was last seen are added on top,
    and as many cards as its size says were taken come off the top first."""
    if len(view.discard) == view.discard_size or view.stock_size > memory.stock_size:
        return view.discard  # all of it is visible, or it was just turned over
    known = list(memory.pile) if memory.round_no == view.round_no else []
    mine = memory.current == view.viewer and memory.phase is Phase.PLAY
    if mine and memory.my_discard is not None and memory.turn != view.turn:
        known.append(memory.my_discard)
    top = view.discard[-1] if view.discard else None
    if top is None:
        return ()
    if not known or known[-1] != top:
        taken = len(known) + 1 - view.discard_size
        if taken > 0:
            del known[-taken:]
        if top in known:
            known.remove(top)
        known.append(top)
    return tuple(known[-view.discard_size :])


def _who_took(memory: Memory, view: GameView) -> tuple[str | None, int]:
    """Who took how many cards from the discard pile since ``memory`` was made, when the
    views tell it for sure (one drawing player in between)."""
    if view.stock_size > memory.stock_size:
        return None, 0  # the pile was turned over: start again
    if view.turn == memory.turn and memory.phase is Phase.DRAW and view.phase is Phase.PLAY:
        if view.stock_size == memory.stock_size:
            return memory.current, memory.discard_size - view.discard_size
        return None, 0
    seats = [s.player for s in view.seats]
    if memory.current is None or view.current is None:
        return None, 0
    steps = view.turn - memory.turn
    mine = memory.current == view.viewer
    if mine and memory.phase is Phase.PLAY and steps == 2 and len(seats) == 2:
        other = next(p for p in seats if p != view.viewer)
        if view.stock_size == memory.stock_size - 1:
            return other, 0
        return other, memory.discard_size + 1 - view.discard_size + 1
    if steps == 1 and memory.phase is Phase.DRAW and memory.current != view.viewer:
        if view.stock_size == memory.stock_size - 1:
            return memory.current, 0
        return memory.current, memory.discard_size - view.discard_size + 1
    return None, 0


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
    less the risk of feeding the next player."""
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
                if not _used(solve(hand, self.ruleset, self.melds), taken[0]):
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
        return [t[3] for t in scored]

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


def _distinct(cards: Iterable[Card]) -> list[Card]:
    seen: set[tuple[object, object]] = set()
    found = []
    for card in cards:
        if card.face not in seen:
            seen.add(card.face)
            found.append(card)
    return found


def _physical(view: GameView, card: Card) -> Card:
    """The card of the viewer's hand that a discard naming ``card``'s face throws."""
    held = [c for c in view.hand if c.face == card.face]
    held.sort(key=lambda c: (c == view.no_discard, c != card))
    return held[0] if held else card


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    """``hand`` less one card of ``card``'s face (legal actions name faces, not copies)."""
    rest = list(hand)
    for i, held in enumerate(rest):
        if held.face == card.face:
            del rest[i]
            break
    return rest


def _used(arrangement: Arrangement, card: Card) -> bool:
    return any(card.face == c.face for p in arrangement.plays for c in p.cards)


def unseen_cards(view: GameView) -> list[Card]:
    """Cards the viewer cannot see: other hands, the stock and the hidden part of the pile."""
    players = len(view.seats)
    pack = full_pack(view.ruleset.decks_for(players), view.ruleset.jokers_per_deck)
    seen = set(view.hand) | set(view.discard) | {p.card for m in view.melds for p in m.cards}
    return [c for c in pack if c not in seen]


def _slot_key(slot: Slot) -> tuple[object, int, object]:
    face = None if slot.card.is_joker else slot.card.face
    return (face, slot.rank, slot.suit)


def _match(
    plan: Sequence[Play], plays: Sequence[Action], melds: Sequence[TableMeld], ruleset: Ruleset
) -> Action | None:
    """The legal action that carries out one play of ``plan`` (the first that can): the same
    cards standing for the same places, or failing that the same faces."""
    for play in plan:
        wanted = sorted(map(_slot_key, play.slots), key=repr)
        faces = sorted((c.face for c in play.cards), key=repr)
        fallback: Action | None = None
        for action in plays:
            if isinstance(action, Meld) and play.meld_id is None:
                got = _reading_keys(action.reading, action.cards, ruleset)
            elif isinstance(action, LayOff) and action.meld_id == play.meld_id:
                table = next((m for m in melds if m.id == action.meld_id), None)
                on_table = {_slot_key(p.slot) for p in table.cards} if table else set()
                got = _reading_keys(action.reading, None, ruleset)
                got = [k for k in got if k not in on_table] if got is not None else None
            else:
                continue
            if got is not None and sorted(got, key=repr) == wanted:
                return action
            if fallback is None and sorted((c.face for c in action.cards), key=repr) == faces:
                fallback = action
        if fallback is not None:
            return fallback
    return None


def _reading_keys(
    reading: Reading | int | None, meld_cards: Sequence[Card] | None, ruleset: Ruleset
) -> list[tuple[object, int, object]] | None:
    """What each card of a legal play stands for: its reading, or for a new meld without
    one, the reading the engine will choose (``meld_cards``' readings by index)."""
    if isinstance(reading, Reading):
        return [_slot_key(s) for s in reading.slots]
    if meld_cards is None:
        return None
    found = readings(meld_cards, ruleset)
    index = reading or 0
    if 0 <= index < len(found):
        return [_slot_key(s) for s in found[index].slots]
    return None


def _swapped(
    melds: Sequence[TableMeld], swap: SwapJoker
) -> tuple[tuple[TableMeld, ...], Card | None]:
    """The table after ``swap``, and the joker it brings to the hand."""
    result = []
    joker: Card | None = None
    for meld in melds:
        if meld.id != swap.meld_id:
            result.append(meld)
            continue
        cards = list(meld.cards)
        for i, placed in enumerate(cards):
            if not placed.card.is_joker or joker is not None:
                continue
            if meld.kind is MeldKind.SET:
                fits = swap.card.rank == meld.rank
            else:
                fits = placed.suit == swap.card.suit and (
                    placed.rank == swap.card.rank
                    or (placed.rank == HIGH_ACE and swap.card.rank == ACE)
                )
            if fits:
                joker = placed.card
                suit = swap.card.suit if placed.suit is None else placed.suit
                cards[i] = PlacedCard(swap.card, placed.rank, suit, placed.placed_by)
        result.append(TableMeld(meld.id, meld.owner, meld.kind, tuple(cards)))
    return tuple(result), joker


# --- hard ------------------------------------------------------------------------------------


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
        ranked = self.ranked_discards(discards)[: self.hard.candidates]
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
        only loose cards of its best arrangement are weighed as the discard."""
        key = (_hand_key(hand), no_discard)
        found = self._kept.get(key)
        if found is not None:
            return found
        arrangement = self.arrange(hand)
        if not arrangement.left and not self.ruleset.must_discard_to_go_out:
            value = arrangement.score + self.bonus()
        else:
            options = []
            for card in _distinct(arrangement.left):
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


# --- making players and choosing in a worker process ---------------------------------------


def make_player(level: Level | str, budget: float = DEFAULT_BUDGET) -> ComputerPlayer:
    """A fresh computer player of ``level`` (``budget``: seconds per move, hard level)."""
    match Level(level):
        case Level.EASY:
            return EasyPlayer()
        case Level.NORMAL:
            return NormalPlayer()
        case Level.HARD:
            return HardPlayer(budget=budget)


def catch_up(player: ComputerPlayer, game: Game, seat: str) -> None:
    """Teach ``player``, made in the middle of ``game`` (after a restart, or to stand in
    for someone absent), what it would have learnt had it held ``seat`` since the round
    began: the round is replayed from the log and the player shown the same views in the
    same order as a seated player (each of its own moves as a choice among that move
    alone, so it remembers its discards too)."""
    observe_view = getattr(player, "observe", None)
    if observe_view is None:
        return  # it learns nothing between moves
    watched = Game.new(game.ruleset, game.players, seed=game.seed, deck=game.state.deck)
    rng = random.Random(0)
    for action in game.log:
        watching = watched.round_no == game.round_no
        if watching and watched.current_player == seat:
            player.choose(watched.view(seat), [action], rng)
        watched.apply(action)
        if watching and watched.current_player != seat:
            observe_view(watched.view(seat))


def choose_in_process(
    player: ComputerPlayer | Level | str,
    view: GameView,
    legal: Sequence[Action],
    seed: int,
    budget: float = DEFAULT_BUDGET,
) -> tuple[Action, ComputerPlayer]:
    """Choose in a worker process (submit it to a ``ProcessPoolExecutor``): everything goes
    in and comes back by pickling, so the player, with what it learnt, is returned with the
    action for the caller to keep. A level instead of a player makes a fresh one."""
    chosen = player if not isinstance(player, str) else make_player(player, budget)
    action = chosen.choose(view, list(legal), random.Random(seed))
    return action, chosen
