"""The best arrangement of a hand into melds and lay-offs, exactly.

Greedy melding is wrong (``6♠7♠8♠ 6♣7♣8♣ 8♦`` leaves the 8♦, not a set of eights and two
loose pairs), so the solver searches every arrangement. It decides cards in a fixed order
(suit, then rank): the first undecided card is either left in hand, or it is the lowest
natural card of a new meld, or of a block laid off onto a meld on the table. Every
arrangement is reached that way exactly once, and what is left to decide depends only on
the cards still undecided, the jokers left and how far the table melds have grown, so
results are memoised on that (a multiset of faces: twins are interchangeable).

Jokers not used with natural cards go onto table melds at the end, as many as the rule
"at least as many natural cards as jokers" and the length of a meld allow.

What "best" means follows the ruleset's scoring: the least value left in hand (positive and
negative scoring), or the highest net of placed minus left (Rummy 500, where an ace placed
low in a run is worth less than an ace held). Both are the same search: each placed card
gains its value in hand, plus (hand scoring) what it is worth on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from bot.rummy.cards import ACE, HIGH_ACE, KING, Card, Suit
from bot.rummy.melds import MeldKind, Slot, TableMeld
from bot.rummy.rules import Ruleset, Scoring

JOKER = -1
"""The face index of a joker in the solver's slots (natural faces are 0-51)."""

_MEMO_LIMIT = 50_000
"""Entries per ruleset before the memo starts afresh (a few tens of MB at most)."""

# A table meld's growth state. Runs: (0, suit, low, high, naturals, jokers);
# sets: (1, rank, suit bit mask, naturals, jokers).
_TableState = tuple[int, int, int, int, int, int]
_Table = tuple[_TableState, ...]
# A group of one decision: (table index or -1 for a new meld, kind, slots as (face, pos, suit)).
_RawSlot = tuple[int, int, int]
_Group = tuple[int, MeldKind, tuple[_RawSlot, ...]]
_Choice = tuple[_Group | None, int, bytes, int, _Table] | None


def _index(suit: int, pos: int) -> int:
    return suit * 13 + (0 if pos == HIGH_ACE else pos - 1)


@dataclass(frozen=True, slots=True)
class Play:
    """One group of an arrangement: a new meld (``meld_id`` None) or cards laid off onto
    the table meld ``meld_id``; ``slots`` are the hand's cards and what each stands for."""

    kind: MeldKind
    slots: tuple[Slot, ...]
    meld_id: int | None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(s.card for s in self.slots)

    def __str__(self) -> str:
        where = "meld" if self.meld_id is None else f"layoff {self.meld_id}"
        return f"{where} " + " ".join(str(s) for s in self.slots)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The hand's cards as melds, lay-offs and cards left, with what that is worth."""

    plays: tuple[Play, ...]
    left: tuple[Card, ...]
    left_value: int
    placed_value: int
    """What the placed cards score on the table (Rummy 500's hand scoring)."""
    score: int
    """The figure the solver maximises: ``placed - left`` for hand scoring, ``-left``
    otherwise."""

    @property
    def melds(self) -> tuple[Play, ...]:
        return tuple(p for p in self.plays if p.meld_id is None)

    @property
    def layoffs(self) -> tuple[Play, ...]:
        return tuple(p for p in self.plays if p.meld_id is not None)


def solve(
    hand: Iterable[Card],
    ruleset: Ruleset,
    melds: Sequence[TableMeld] = (),
    *,
    must_place: Card | None = None,
) -> Arrangement:
    """The best arrangement of ``hand`` with the ``melds`` on the table.

    ``must_place`` (a card of ``hand``) must be placed, as after a deep take in Rummy 500;
    if no arrangement places it, :class:`ValueError` is raised.

    >>> from bot.rummy.rules import preset
    >>> from bot.rummy.cards import parse_cards
    >>> best = solve(parse_cards("6s 7s 8s 6c 7c 8c 8d"), preset("classic"))
    >>> [str(p) for p in best.plays], best.left_value
    (['meld 6♣ 7♣ 8♣', 'meld 6♠ 7♠ 8♠'], 8)
    """
    cards = list(hand)
    return _solver(ruleset).arrangement(cards, melds, must_place)


def best_score(
    hand: Iterable[Card],
    ruleset: Ruleset,
    melds: Sequence[TableMeld] = (),
    *,
    must_place: Card | None = None,
) -> int | None:
    """:attr:`Arrangement.score` of the best arrangement, without building it (faster);
    None when ``must_place`` cannot be placed."""
    solver = _solver(ruleset)
    counts, jokers = _counts(hand)
    must = solver.must_index(must_place)
    gain = solver.best(counts, jokers, solver.table(melds), must)
    if gain is None:
        return None
    return solver.score_of(gain, counts, jokers)


def clear_memo(ruleset: Ruleset) -> None:
    """Forget what the solver remembers for ``ruleset`` (for timing a cold solve)."""
    _solver(ruleset).memo.clear()


def hand_total(hand: Iterable[Card], ruleset: Ruleset) -> int:
    """The value of every card of ``hand`` held loose."""
    return sum(ruleset.card_value(c) for c in hand)


def can_use_now(
    card: Card,
    hand: Sequence[Card],
    melds: Sequence[TableMeld],
    ruleset: Ruleset,
    *,
    has_melded: bool,
) -> bool:
    """Whether ``card`` (one of ``hand``) can be melded or laid off as the very next play,
    the Rummy 500 deep-take rule: a meld or lay-off holding it, with the limit-lay-offs and
    must-discard-to-go-out options applied as the engine applies them."""
    solver = _solver(ruleset)
    counts, jokers = _counts(hand)
    table = solver.table(melds)
    target = solver.must_index(card)

    def allowed(table_index: int, size: int) -> bool:
        if table_index >= 0 and ruleset.limit_layoffs and (not has_melded or size > 1):
            return False
        return not (ruleset.must_discard_to_go_out and size == len(hand))

    if target == JOKER and any(allowed(k, 1) for k in solver.joker_layoffs(table)):
        return True
    for first in range(52):
        if not counts[first] or (target != JOKER and first > target):
            continue
        lowest = bytearray(counts)
        lowest[:first] = bytes(first)
        for (table_index, _, slots), _, used, wild, _ in solver.groups_with(
            lowest, jokers, table, first
        ):
            holds = wild > 0 if target == JOKER else target in used
            if holds and allowed(table_index, len(slots)):
                return True
    return False


def _counts(hand: Iterable[Card]) -> tuple[bytearray, int]:
    counts = bytearray(52)
    jokers = 0
    for card in hand:
        if card.suit is None:
            jokers += 1
        else:
            counts[_index(int(card.suit), card.rank)] += 1
    return counts, jokers


@lru_cache(maxsize=8)
def _solver(ruleset: Ruleset) -> _Solver:
    return _Solver(ruleset)


class _Solver:
    """The search for one ruleset's card values, with its memo."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.ace_high = ruleset.ace_high
        self.top = HIGH_ACE if ruleset.ace_high else KING
        hand_scoring = ruleset.scoring is Scoring.HAND
        self.hand_scoring = hand_scoring
        self.value = [ruleset.card_value(Card(i % 13 + 1, Suit(i // 13))) for i in range(52)]
        self.joker_value = 15
        twice = 2 if hand_scoring else 1
        self.gain = [v * twice for v in self.value]
        """What placing a face gains anywhere but as the low ace of a run."""
        low = ruleset.placed_value(Card(ACE, Suit.CLUBS), low_ace_of_run=True)
        self.low_ace_gain = self.value[0] + (low if hand_scoring else 0)
        self.joker_gain = self.joker_value * twice
        self.memo: dict[tuple[bytes, int, _Table, int], tuple[int | None, _Choice]] = {}

    # --- set-up ------------------------------------------------------------------------------

    def table(self, melds: Sequence[TableMeld]) -> _Table:
        states: list[_TableState] = []
        for meld in melds:
            naturals = sum(1 for p in meld.cards if not p.card.is_joker)
            jokers = len(meld.cards) - naturals
            if meld.kind is MeldKind.SET:
                mask = 0
                for p in meld.cards:
                    if p.suit is not None:
                        mask |= 1 << int(p.suit)
                states.append((1, meld.rank, mask, naturals, jokers, 0))
            else:
                ranks = [p.rank for p in meld.cards]
                suit = int(meld.suit or 0)
                states.append((0, suit, min(ranks), max(ranks), naturals, jokers))
        return tuple(states)

    def must_index(self, card: Card | None) -> int:
        """-2: nothing to place; -1: a joker; else the face index."""
        if card is None:
            return -2
        return JOKER if card.is_joker else _index(int(card.suit or 0), card.rank)

    def score_of(self, gain: int, counts: bytearray, jokers: int) -> int:
        total = sum(self.value[i] * c for i, c in enumerate(counts) if c)
        total += jokers * self.joker_value
        # positive/negative: gain is the value placed, so -left = gain - total; hand scoring:
        # gain = placed + value of placed cards, so placed - left = gain - total.
        return gain - total

    # --- the search --------------------------------------------------------------------------

    def best(self, counts: bytearray, jokers: int, table: _Table, must: int) -> int | None:
        """The highest gain for the undecided ``counts`` and ``jokers`` (None: the card that
        must be placed cannot be)."""
        key = (bytes(counts), jokers, table, must)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if len(self.memo) > _MEMO_LIMIT:
            self.memo.clear()
        stripped = key[0].lstrip(b"\x00")
        if not stripped:
            result = self._jokers_only(jokers, table, must)
            self.memo[key] = result
            return result[0]
        first = 52 - len(stripped)
        best_gain: int | None = None
        best_choice: _Choice = None
        # Leave the first card in hand (unless it is the card that must be placed and no twin
        # is left to place instead).
        if first != must or counts[first] > 1:
            counts[first] -= 1
            sub = self.best(counts, jokers, table, must)
            counts[first] += 1
            if sub is not None:
                best_gain = sub
                best_choice = (None, 0, key[0], jokers, table)
        for group, gain, used, jokers_used, new_table in self.groups_with(
            counts, jokers, table, first
        ):
            for i in used:
                counts[i] -= 1
            placed_must = must != -2 and (must in used or (must == JOKER and jokers_used > 0))
            sub = self.best(counts, jokers - jokers_used, new_table, -2 if placed_must else must)
            for i in used:
                counts[i] += 1
            if sub is not None and (best_gain is None or sub + gain > best_gain):
                best_gain = sub + gain
                best_choice = (group, gain, key[0], jokers, new_table)
        self.memo[key] = (best_gain, best_choice)
        return best_gain

    def _jokers_only(self, jokers: int, table: _Table, must: int) -> tuple[int | None, _Choice]:
        room = 0
        for state in table:
            room += self._joker_room(state)
        placed = min(jokers, room)
        if must == JOKER and placed == 0:
            return None, None
        return placed * self.joker_gain, None

    def _joker_room(self, state: _TableState) -> int:
        if state[0] == 1:
            _, _, _, naturals, jokers, _ = state
            return max(0, min(4 - naturals - jokers, naturals - jokers))
        _, _, low, high, naturals, jokers = state
        return max(0, min(13 - (high - low + 1), naturals - jokers))

    def groups_with(
        self, counts: bytearray, jokers: int, table: _Table, first: int
    ) -> list[tuple[_Group, int, tuple[int, ...], int, _Table]]:
        """Every group whose lowest natural card is the face ``first``, as (group, gain,
        faces used, jokers used, table after it). Faces before ``first`` must be absent."""
        if counts[first] == 0:
            return []
        counts[first] -= 1
        seen: dict[tuple[tuple[int, ...], int], int] = {}
        found: list[tuple[_Group, int, tuple[int, ...], int, _Table]] = []
        try:
            for kind, slots in self._new_melds(counts, jokers, first):
                gain, used, wild = self._tally(slots, kind)
                entry = ((-1, kind, slots), gain, used, wild, table)
                known = seen.get((used, wild))
                if known is None:
                    seen[(used, wild)] = len(found)
                    found.append(entry)
                elif gain > found[known][1]:
                    found[known] = entry
            for k, state in enumerate(table):
                kind = MeldKind.SET if state[0] == 1 else MeldKind.RUN
                for slots, new_state in self._layoffs(counts, jokers, first, state):
                    gain, used, wild = self._tally(slots, kind)
                    new_table = (*table[:k], new_state, *table[k + 1 :])
                    found.append(((k, kind, slots), gain, used, wild, new_table))
        finally:
            counts[first] += 1
        return found

    def _tally(
        self, slots: tuple[_RawSlot, ...], kind: MeldKind
    ) -> tuple[int, tuple[int, ...], int]:
        used = tuple(sorted(f for f, _, _ in slots if f != JOKER))
        wild = len(slots) - len(used)
        gain = wild * self.joker_gain
        for face, pos, _ in slots:
            if face == JOKER:
                continue
            if kind is MeldKind.RUN and pos == ACE:
                gain += self.low_ace_gain
            else:
                gain += self.gain[face]
        return gain, used, wild

    def _new_melds(
        self, counts: bytearray, jokers: int, first: int
    ) -> Iterator[tuple[MeldKind, tuple[_RawSlot, ...]]]:
        """New melds with ``first`` as their lowest natural (``first`` already taken out of
        ``counts``)."""
        suit, rank = divmod(first, 13)
        rank += 1
        # Sets: other suits of the rank, and jokers.
        others = [s for s in range(4) if s != suit and counts[s * 13 + rank - 1]]
        for n in range(len(others) + 1):
            for chosen in combinations(others, n):
                naturals = n + 1
                for wild in range(max(0, 3 - naturals), min(jokers, 4 - naturals, naturals) + 1):
                    slots = [(first, rank, -1)]
                    slots += [(s * 13 + rank - 1, rank, -1) for s in chosen]
                    slots += [(JOKER, rank, -1)] * wild
                    yield MeldKind.SET, tuple(slots)
        # Runs: jokers below the card, then naturals or jokers above it.
        positions = [rank] + ([HIGH_ACE] if rank == ACE and self.ace_high else [])
        for pos in positions:
            if pos == HIGH_ACE:
                base: tuple[_RawSlot, ...] = ((first, HIGH_ACE, suit),)
                for chain, nat, wild in self._chain(counts, jokers, suit, KING, -1, 2, 0):
                    if nat + 1 >= wild and len(chain) >= 2:
                        yield MeldKind.RUN, tuple(reversed(chain)) + base
                continue
            for below in range(min(jokers, pos - 1) + 1):
                start = pos - below
                top = KING if start == ACE else self.top
                base = (*tuple((JOKER, p, suit) for p in range(start, pos)), (first, pos, suit))
                for chain, nat, wild in self._chain(counts, jokers, suit, pos + 1, 1, top, below):
                    if nat + 1 >= wild + below and len(base) + len(chain) >= 3:
                        yield MeldKind.RUN, base + chain

    def _chain(
        self,
        counts: bytearray,
        jokers: int,
        suit: int,
        pos: int,
        step: int,
        limit: int,
        wild: int,
    ) -> Iterator[tuple[tuple[_RawSlot, ...], int, int]]:
        """Every way to continue a run from ``pos`` in direction ``step`` up to ``limit``
        (inclusive), stopping anywhere: (slots, naturals, jokers added)."""
        yield (), 0, 0
        if (step > 0 and pos > limit) or (step < 0 and pos < limit):
            return
        face = _index(suit, pos)
        if counts[face]:
            counts[face] -= 1
            for rest, nat, more in self._chain(counts, jokers, suit, pos + step, step, limit, wild):
                yield ((face, pos, suit), *rest), nat + 1, more
            counts[face] += 1
        if wild < jokers:
            for rest, nat, more in self._chain(
                counts, jokers, suit, pos + step, step, limit, wild + 1
            ):
                yield ((JOKER, pos, suit), *rest), nat, more + 1

    def _fill(
        self, counts: bytearray, jokers: int, suit: int, positions: Sequence[int], wild: int
    ) -> Iterator[tuple[tuple[_RawSlot, ...], int, int]]:
        """Every way to fill all of ``positions`` with naturals or jokers."""
        if not positions:
            yield (), 0, 0
            return
        pos = positions[0]
        face = _index(suit, pos)
        if counts[face]:
            counts[face] -= 1
            for rest, nat, more in self._fill(counts, jokers, suit, positions[1:], wild):
                yield ((face, pos, suit), *rest), nat + 1, more
            counts[face] += 1
        if wild < jokers:
            for rest, nat, more in self._fill(counts, jokers, suit, positions[1:], wild + 1):
                yield ((JOKER, pos, suit), *rest), nat, more + 1

    def _layoffs(
        self, counts: bytearray, jokers: int, first: int, state: _TableState
    ) -> Iterator[tuple[tuple[_RawSlot, ...], _TableState]]:
        """Blocks holding ``first`` (its lowest natural) that grow the table meld ``state``."""
        suit, rank = divmod(first, 13)
        rank += 1
        if state[0] == 1:
            _, set_rank, mask, naturals, wild, _ = state
            if set_rank != rank or mask >> suit & 1:
                return
            others = [
                s for s in range(4) if s != suit and not mask >> s & 1 and counts[s * 13 + rank - 1]
            ]
            room = 4 - naturals - wild
            for n in range(min(len(others), room - 1) + 1):
                for chosen in combinations(others, n):
                    added = n + 1
                    for extra in range(min(jokers, room - added) + 1):
                        if wild + extra > naturals + added:
                            break
                        bits = mask | 1 << suit
                        slots = [(first, rank, suit)]
                        for s in chosen:
                            bits |= 1 << s
                            slots.append((s * 13 + rank - 1, rank, s))
                        slots += [(JOKER, rank, -1)] * extra
                        yield tuple(slots), (1, rank, bits, naturals + added, wild + extra, 0)
            return
        _, run_suit, low, high, naturals, wild = state
        if run_suit != suit:
            return
        positions = [rank] + ([HIGH_ACE] if rank == ACE and self.ace_high else [])
        for pos in positions:
            if pos < low:
                if pos == ACE and high == HIGH_ACE:
                    continue
                for below in range(min(jokers, pos - 1) + 1):
                    start = pos - below
                    if start == ACE and high == HIGH_ACE:
                        continue
                    base = tuple((JOKER, p, suit) for p in range(start, pos))
                    base += ((first, pos, suit),)
                    between = range(pos + 1, low)
                    for fill, nat, more in self._fill(counts, jokers, suit, between, below):
                        extra = below + more
                        if wild + extra > naturals + nat + 1:
                            continue
                        new = (0, suit, start, high, naturals + nat + 1, wild + extra)
                        yield base + fill, new
            elif pos > high:
                top = KING if low == ACE else self.top
                if pos > top:
                    continue
                between = range(high + 1, pos)
                for fill, nat, more in self._fill(counts, jokers, suit, between, 0):
                    base = (*fill, (first, pos, suit))
                    for chain, nat2, more2 in self._chain(
                        counts, jokers, suit, pos + 1, 1, top, more
                    ):
                        extra = more + more2
                        added = nat + nat2 + 1
                        if wild + extra > naturals + added:
                            continue
                        end = pos + len(chain)
                        new = (0, suit, low, end, naturals + added, wild + extra)
                        yield base + chain, new

    def joker_layoffs(self, table: _Table) -> list[int]:
        """The table melds (by index) that can take one more joker."""
        return [k for k, state in enumerate(table) if self._joker_room(state) > 0]

    # --- building the answer -----------------------------------------------------------------

    def arrangement(
        self, hand: list[Card], melds: Sequence[TableMeld], must_place: Card | None
    ) -> Arrangement:
        counts, jokers = _counts(hand)
        table = self.table(melds)
        must = self.must_index(must_place)
        gain = self.best(counts, jokers, table, must)
        if gain is None:
            raise ValueError(f"{must_place} cannot be placed")
        groups: list[tuple[_Group, _Table]] = []
        state_counts, state_jokers, state_table, state_must = counts, jokers, table, must
        while True:
            key = (bytes(state_counts), state_jokers, state_table, state_must)
            entry = self.memo.get(key)
            while entry is None:  # evicted meanwhile (the memo was full): search it again
                self.best(state_counts, state_jokers, state_table, state_must)
                entry = self.memo.get(key)
            choice = entry[1]
            if choice is None:
                break
            group, _, _, _, new_table = choice
            if group is None:
                first = 52 - len(key[0].lstrip(b"\x00"))
                state_counts = bytearray(key[0])
                state_counts[first] -= 1
                continue
            state_counts = bytearray(key[0])
            used = [f for f, _, _ in group[2] if f != JOKER]
            for face in used:
                state_counts[face] -= 1
            wild = len(group[2]) - len(used)
            if state_must != -2 and (state_must in used or (state_must == JOKER and wild)):
                state_must = -2
            groups.append((group, state_table))
            state_jokers -= wild
            state_table = new_table
        return self._build(hand, melds, groups, state_jokers, state_table)

    def _build(
        self,
        hand: list[Card],
        melds: Sequence[TableMeld],
        groups: list[tuple[_Group, _Table]],
        jokers_left: int,
        table: _Table,
    ) -> Arrangement:
        by_face: dict[int, list[Card]] = {}
        joker_cards: list[Card] = []
        for card in sorted(hand, key=lambda c: c.sort_key):
            if card.suit is None:
                joker_cards.append(card)
            else:
                by_face.setdefault(_index(int(card.suit), card.rank), []).append(card)
        plays: list[Play] = []
        placed_value = 0
        for (table_index, kind, raw), _ in groups:
            slots: list[Slot] = []
            for face, pos, suit in raw:
                card = joker_cards.pop(0) if face == JOKER else by_face[face].pop(0)
                stands = None if suit < 0 or kind is MeldKind.SET else Suit(suit)
                if kind is MeldKind.SET and not card.is_joker:
                    stands = card.suit
                slots.append(Slot(card, pos, stands))
                low_ace = kind is MeldKind.RUN and pos == ACE
                placed_value += self.ruleset.placed_value(card, low_ace_of_run=low_ace)
            meld_id = None if table_index < 0 else melds[table_index].id
            plays.append(Play(kind, tuple(slots), meld_id))
        # Jokers left over go onto table melds with room, in table order.
        for k, state in enumerate(table):
            while joker_cards and self._joker_room(state) > 0 and jokers_left > 0:
                card = joker_cards.pop(0)
                jokers_left -= 1
                if state[0] == 1:
                    slot = Slot(card, state[1], None)
                    state = (1, state[1], state[2], state[3], state[4] + 1, 0)
                    kind = MeldKind.SET
                else:
                    _, suit, low, high, naturals, wild = state
                    top = KING if low == ACE else self.top
                    pos = high + 1 if high < top else low - 1
                    slot = Slot(card, pos, Suit(suit))
                    state = (0, suit, min(low, pos), max(high, pos), naturals, wild + 1)
                    kind = MeldKind.RUN
                placed_value += self.ruleset.placed_value(card, low_ace_of_run=False)
                plays.append(Play(kind, (slot,), melds[k].id))
        left = tuple(joker_cards) + tuple(c for cards in by_face.values() for c in cards)
        left = tuple(sorted(left, key=lambda c: c.sort_key))
        left_value = hand_total(left, self.ruleset)
        score = placed_value - left_value if self.hand_scoring else -left_value
        return Arrangement(tuple(plays), left, left_value, placed_value, score)


def _is_set(slots: tuple[_RawSlot, ...]) -> bool:
    return all(suit == -1 for _, _, suit in slots)
