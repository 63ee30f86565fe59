"""The game state machine: deal, turns, rounds and the end of the game.

Every action has three faces: :meth:`Game.why_not` explains a refusal, :meth:`Game.can`
answers yes or no for buttons, and :meth:`Game.apply` checks first and then changes the
state, so a refused action leaves the game exactly as it was. Every applied action goes to
the log; (ruleset, players, seed, deck, log) replays the game exactly.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice, product
from typing import Any, TypeVar

from bot.rummy.actions import (
    Action,
    Discard,
    DrawStock,
    EndRound,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
    action_to_json,
)
from bot.rummy.cards import Card, as_cards, full_pack
from bot.rummy.errors import IllegalAction, InvariantError, NotYourTurn, RulesError
from bot.rummy.legal import (
    TurnContext,
    can_use,
    dead_end,
    layoff_refusal,
    play_options,
    swap_dead_end,
)
from bot.rummy.melds import (
    PlacedCard,
    Reading,
    Slot,
    TableMeld,
    layoff_readings,
    readings,
    slot_shape,
    swap_position,
)
from bot.rummy.refusals import Cards, Choices, Face
from bot.rummy.rules import MAX_TURNOVERS, MAX_TURNS_PER_ROUND, Ruleset, StockOut
from bot.rummy.scoring import game_winners, hand_value, placed_values, round_points
from bot.rummy.serialize import dumps, state_from_data, state_to_dict
from bot.rummy.state import GameState
from bot.rummy.views import GameView, Phase, RoundEnd, RoundResult, SeatView

MAX_COPY_CHOICES = 256
"""How many ways to match named cards to twins in hand are tried before giving up."""

CheckedT = TypeVar("CheckedT", Meld, LayOff, SwapJoker, Discard)


class _RefusedForAnyCopy(Exception):
    """Carries a refusal that another choice of twins cannot change (the faces are no meld),
    so that :meth:`Game._first_fit` raises it at once instead of trying the next copies."""

    def __init__(self, refusal: IllegalAction) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class Game:
    """A game of Rummy from the deal to the final scores. Create it with :meth:`new`."""

    def __init__(self, state: GameState, log_json: list[dict[str, Any]] | None = None) -> None:
        self.state = state
        self.log_json: list[dict[str, Any]] = (
            log_json if log_json is not None else [action_to_json(a) for a in state.log]
        )
        """The log in its JSON form, kept beside it so saving never re-encodes old actions."""

    # --- creation ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        players: Sequence[str],
        seed: int | None = None,
        deck: str | Iterable[Card] | None = None,
    ) -> Game:
        """Seat ``players`` in order and deal the first round.

        The shuffle of round ``r`` comes from ``random.Random(f"{seed}:{r}")``. ``deck``
        rigs the first round: its cards come off the top in order, then the rest of the
        packs, shuffled. Cards are dealt one at a time, starting with the player after the
        dealer; the next card is turned up to start the discard pile; the rest is the stock.
        """
        names = tuple(str(p) for p in players)
        if len(set(names)) != len(names):
            raise RulesError("refusal.rules.seat_twice")
        ruleset.check_players(len(names))
        if seed is None:
            seed = secrets.randbits(63)
        rigged = _rig(ruleset, len(names), deck) if deck is not None else None
        n = len(names)
        state = GameState(
            ruleset=ruleset,
            players=names,
            seed=seed,
            deck=rigged,
            dealer=n - 1,
            scores=[0] * n,
            has_melded=[False] * n,
        )
        game = cls(state, [])
        game._deal()
        return game

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset,
        players: Sequence[str],
        seed: int,
        log: Iterable[Action],
        deck: str | Iterable[Card] | None = None,
    ) -> Game:
        game = cls.new(ruleset, players, seed=seed, deck=deck)
        for action in log:
            game.apply(action)
        return game

    def copy(self) -> Game:
        """An independent copy: callers apply to a copy and keep it only once committed."""
        return Game(self.state.copy(), list(self.log_json))

    # --- the state, read-only -------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self.state.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round_no(self) -> int:
        return self.state.round_no

    @property
    def turn(self) -> int:
        """Turns started in the whole game (what :attr:`GameView.turn` shows)."""
        return self.state.turn

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        return tuple(self.state.rounds)

    @property
    def log(self) -> tuple[Action, ...]:
        return tuple(self.state.log)

    # --- questions ------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        return (
            None if self.state.phase is Phase.GAME_OVER else self.state.players[self.state.current]
        )

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(self.state.players[i] for i in self.state.winner_seats)

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self.state.hands[self._seat(player)])

    def meld(self, meld_id: int) -> TableMeld:
        for meld in self.state.melds:
            if meld.id == meld_id:
                return meld
        raise IllegalAction("refusal.meld.missing", meld=meld_id)

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every legal move of ``player`` now (empty when it's not their turn), once each.

        Moves are listed as people type them: faces rather than copies (a two-deck twin is
        offered once; :meth:`apply` picks the copy that makes it legal, :meth:`resolve`
        tells which), and a reading only where the cards have more than one. So
        ``parse_action(str(action)) == action`` for every listed action.
        """
        if self.state.phase is Phase.GAME_OVER:
            return []
        if player is not None and player != self.state.players[self.state.current]:
            return []
        if self.state.phase is Phase.DRAW:
            return self._draw_options()
        return list(play_options(self._context()))

    def why_not(self, action: Action, player: str | None = None) -> str | None:
        """Why ``action`` is refused now, in words for the player; None if it is allowed."""
        try:
            self._check(action, player)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def resolve(self, action: Action, player: str | None = None) -> Action:
        """``action`` as :meth:`apply` would carry it out: the physical copies of the named
        cards that make it legal (people type faces, and in a two-deck game either twin may
        be the one the rules allow) and the chosen reading. Unchanged when the move is
        refused, so that :meth:`apply` then gives the usual refusal."""
        try:
            return self._check(action, player)
        except IllegalAction:
            return action

    def can(self, action: Action, player: str | None = None) -> bool:
        return self.why_not(action, player) is None

    # --- the action itself ----------------------------------------------------------------

    def apply(self, action: Action, player: str | None = None) -> None:
        """Check ``action`` and carry it out, or raise :class:`IllegalAction` changing nothing."""
        checked = self._check(action, player)
        self._do(checked)
        self.state.log.append(checked)
        self.log_json.append(action_to_json(checked))

    # --- checks ---------------------------------------------------------------------------

    def _check(self, action: Action, player: str | None) -> Action:
        """The action as it will be applied (cards resolved to the physical ones held)."""
        if self.state.phase is Phase.GAME_OVER:
            raise IllegalAction("refusal.game.over")
        if player is not None and player != self.state.players[self.state.current]:
            if player not in self.state.players:
                raise NotYourTurn("refusal.turn.not_playing")
            raise NotYourTurn(
                "refusal.turn.not_yours", current=self.state.players[self.state.current]
            )
        match action:
            case DrawStock() | TakeDiscard() | EndRound():
                if self.state.phase is not Phase.DRAW:
                    raise IllegalAction("refusal.turn.drawn")
                return self._check_draw(action)
        if self.state.phase is not Phase.PLAY:
            raise IllegalAction("refusal.turn.draw_first")
        match action:
            case Meld():
                return self._check_meld(action)
            case LayOff():
                return self._check_layoff(action)
            case SwapJoker():
                return self._check_swap(action)
            case Discard():
                return self._check_discard(action)
        raise IllegalAction("refusal.move.unknown_action", action=action)

    def _check_draw(self, action: DrawStock | TakeDiscard | EndRound) -> Action:
        match action:
            case DrawStock():
                if not self.state.stock and self.state.discard:
                    raise IllegalAction("refusal.stock.empty_take")
                if not self.state.stock:
                    raise IllegalAction("refusal.stock.empty")
            case TakeDiscard(depth=depth):
                self._check_take(depth)
            case EndRound():
                if self.state.ruleset.stock_out is not StockOut.END_ROUND:
                    raise IllegalAction("refusal.end.not_this_game")
                if self.state.stock:
                    raise IllegalAction("refusal.end.stock_left")
        return action

    def _check_take(self, depth: int) -> None:
        if not self.state.discard:
            raise IllegalAction("refusal.take.empty")
        if depth < 1:
            raise IllegalAction("refusal.take.none")
        if depth > 1 and not self.state.ruleset.deep_discard:
            raise IllegalAction("refusal.take.top_only")
        if depth > len(self.state.discard):
            raise IllegalAction("refusal.take.too_deep", count=len(self.state.discard))
        if depth > 1:
            taken = self.state.discard[-depth:]
            ctx = self._context(extra=taken, must_use=taken[0], no_discard=None)
            if not can_use(ctx, taken[0]):
                raise IllegalAction("refusal.take.unusable", card=taken[0])

    def _check_meld(self, action: Meld) -> Meld:
        return self._first_fit(action.cards, lambda cards: self._check_meld_of(cards, action))

    def _check_meld_of(self, cards: tuple[Card, ...], action: Meld) -> Meld:
        options = readings(cards, self.state.ruleset)
        if not options:
            raise _RefusedForAnyCopy(_why_no_meld(cards))
        reading = _choose(options, action.reading, ())
        ctx = self._context()
        self._check_must_use(cards)
        self._check_dead_end(ctx, cards)
        return Meld(reading.cards, reading)  # in the reading's order, as its text shows them

    def _check_layoff(self, action: LayOff) -> LayOff:
        meld = self.meld(action.meld_id)
        if not action.cards:
            raise IllegalAction("refusal.layoff.no_cards")
        refusal = layoff_refusal(self._context(), len(action.cards))
        if refusal:
            raise refusal
        return self._first_fit(
            action.cards, lambda cards: self._check_layoff_of(cards, meld, action)
        )

    def _check_layoff_of(self, cards: tuple[Card, ...], meld: TableMeld, action: LayOff) -> LayOff:
        options = layoff_readings(meld, cards, self.state.ruleset)
        if not options:
            faces = Cards(tuple(map(Face, cards)))
            raise _RefusedForAnyCopy(IllegalAction("refusal.layoff.no_fit", cards=faces, meld=meld))
        reading = _choose(options, action.reading, meld.slots)
        self._check_must_use(cards)
        self._check_dead_end(self._context(), cards)
        in_order = tuple(s.card for s in reading.slots if s.card in cards)
        return LayOff(in_order, meld.id, reading)

    def _check_swap(self, action: SwapJoker) -> SwapJoker:
        if not self.state.ruleset.joker_swap:
            raise IllegalAction("refusal.swap.not_this_game")
        if self.state.must_use is not None:
            raise IllegalAction("refusal.must_use.first", card=self.state.must_use)
        meld = self.meld(action.meld_id)
        if not any(p.card.is_joker for p in meld.cards):
            raise IllegalAction("refusal.swap.no_joker", meld=meld.id)
        if self.state.ruleset.limit_layoffs and self.state.layoff_cards >= 1:
            raise IllegalAction("refusal.swap.one_per_turn")

        def check(cards: tuple[Card, ...]) -> SwapJoker:
            (card,) = cards
            position = swap_position(meld, card)
            if position is None:
                raise _RefusedForAnyCopy(
                    IllegalAction("refusal.swap.wrong_card", card=Face(card), meld=meld.id)
                )
            refusal = swap_dead_end(self._context(), meld.cards[position].card)
            if refusal:
                raise refusal
            return SwapJoker(meld.id, card)

        return self._first_fit((action.card,), check)

    def _check_discard(self, action: Discard) -> Discard:
        if self.state.must_use is not None:
            raise IllegalAction("refusal.must_use.first", card=self.state.must_use)

        def check(cards: tuple[Card, ...]) -> Discard:
            (card,) = cards
            if card == self.state.no_discard:
                raise IllegalAction("refusal.discard.just_taken", card=Face(card))
            return Discard(card)

        return self._first_fit((action.card,), check, play=False)

    def _check_must_use(self, cards: Sequence[Card]) -> None:
        if self.state.must_use is not None and self.state.must_use not in cards:
            raise IllegalAction("refusal.must_use.next", card=self.state.must_use)

    def _check_dead_end(self, ctx: TurnContext, cards: Sequence[Card]) -> None:
        refusal = dead_end(ctx, cards)
        if refusal:
            raise refusal

    def _first_fit(
        self,
        named: Sequence[Card],
        check: Callable[[tuple[Card, ...]], CheckedT],
        *,
        play: bool = True,
    ) -> CheckedT:
        """The play checked with the first choice of physical copies that makes it legal:
        people name faces (``10h``), and in a two-deck game either twin may be the one the
        rules allow. Copies are tried in the order of :meth:`_copies`; the first refusal is
        the one shown."""
        first: IllegalAction | None = None
        for cards in self._copies(named, play):
            try:
                return check(cards)
            except _RefusedForAnyCopy as final:
                raise final.refusal from None
            except IllegalAction as refusal:
                first = first or refusal
        if first is None:
            raise InvariantError(f"no choice of copies was tried for {named}")
        raise first

    @staticmethod
    def _candidates(hand: Sequence[Card], named: Card, taken: set[Card]) -> list[Card]:
        twins = [c for c in hand if c.face == named.face]
        return sorted(twins, key=lambda c: (c not in taken, c != named))

    def _copies(self, named: Sequence[Card], play: bool) -> Iterator[tuple[Card, ...]]:
        """Every way to match the named cards to distinct cards in hand with the same
        faces (at most ``MAX_COPY_CHOICES``): the named copies first, except that a play
        tries the card just taken first (playing it never hurts: its twin stays free to
        be discarded, and a card that must be used is used)."""
        hand = self.state.hands[self.state.current]
        wanted = Counter(card.face for card in named)
        for card in named:
            held = sum(1 for c in hand if c.face == card.face)
            if held < wanted[card.face]:
                if held == 0:
                    raise IllegalAction("refusal.card.not_held", card=Face(card))
                raise IllegalAction(
                    "refusal.card.not_held_count", count=wanted[card.face], card=Face(card)
                )
        taken = {c for c in (self.state.must_use, self.state.no_discard) if c is not None}
        choices = [self._candidates(hand, n, taken if play else set()) for n in named]
        seen: set[frozenset[Card]] = set()
        for combo in islice(product(*choices), MAX_COPY_CHOICES):
            key = frozenset(combo)
            if len(key) == len(combo) and key not in seen:
                seen.add(key)
                yield combo

    # --- changes --------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        seat = self.state.current
        player = self.state.players[seat]
        hand = self.state.hands[seat]
        match action:
            case DrawStock():
                card = self.state.stock.pop()
                hand.append(card)
                self._drew((card,))
            case TakeDiscard(depth=depth):
                taken = self.state.discard[-depth:]
                del self.state.discard[-depth:]
                hand.extend(taken)
                self._drew(tuple(taken))
                if depth == 1:
                    self.state.no_discard = taken[0]
                else:
                    self.state.must_use = taken[0]
            case EndRound():
                self._end_round(RoundEnd.ENDED, seat)
            case Meld(cards=cards, reading=reading):
                reading = _checked_reading(reading)
                self._take_from_hand(cards)
                placed = tuple(PlacedCard(s.card, s.rank, s.suit, player) for s in reading.slots)
                self.state.melds.append(
                    TableMeld(self.state.next_meld_id, player, reading.kind, placed)
                )
                self.state.next_meld_id += 1
                self.state.has_melded[seat] = True
                self._after_play(cards)
            case LayOff(cards=cards, meld_id=meld_id, reading=reading):
                reading = _checked_reading(reading)
                self._take_from_hand(cards)
                meld = self.meld(meld_id)
                owners = {p.card: p.placed_by for p in meld.cards}
                placed = tuple(
                    PlacedCard(s.card, s.rank, s.suit, owners.get(s.card, player))
                    for s in reading.slots
                )
                self._replace_meld(TableMeld(meld.id, meld.owner, meld.kind, placed))
                self.state.layoff_cards += len(cards)
                self._after_play(cards)
            case SwapJoker(meld_id=meld_id, card=card):
                meld = self.meld(meld_id)
                index = swap_position(meld, card)
                if index is None:
                    raise InvariantError(f"swap of {card} into {meld} passed its check")
                joker = meld.cards[index]
                placed_cards = list(meld.cards)
                suit = card.suit if joker.suit is None else joker.suit
                placed_cards[index] = PlacedCard(card, joker.rank, suit, player)
                swapped = TableMeld(meld.id, meld.owner, meld.kind, tuple(placed_cards))
                self._replace_meld(swapped)
                self._take_from_hand((card,))
                hand.append(joker.card)
                self.state.layoff_cards += 1
            case Discard(card=card):
                self._take_from_hand((card,))
                self.state.discard.append(card)
                self.state.turns_completed += 1
                if not hand:
                    self._end_round(RoundEnd.WENT_OUT, seat)
                elif self.state.turns_completed >= MAX_TURNS_PER_ROUND:
                    self._end_round(RoundEnd.BLOCKED, None)
                else:
                    self.state.current = (seat + 1) % len(self.state.players)
                    self._start_turn()

    def _drew(self, cards: tuple[Card, ...]) -> None:
        self.state.drawn = cards
        self.state.phase = Phase.PLAY

    def _take_from_hand(self, cards: Iterable[Card]) -> None:
        hand = self.state.hands[self.state.current]
        for card in cards:
            hand.remove(card)

    def _after_play(self, cards: Sequence[Card]) -> None:
        if self.state.must_use in cards:
            self.state.must_use = None
        if not self.state.hands[self.state.current]:
            self._end_round(RoundEnd.WENT_OUT, self.state.current)

    def _replace_meld(self, meld: TableMeld) -> None:
        self.state.melds = [meld if m.id == meld.id else m for m in self.state.melds]

    # --- rounds ---------------------------------------------------------------------------

    def _deal(self) -> None:
        n = len(self.state.players)
        rng = random.Random(f"{self.state.seed}:{self.state.round_no}")
        pack = full_pack(self.state.ruleset.decks_for(n), self.state.ruleset.jokers_per_deck)
        if self.state.round_no == 1 and self.state.deck is not None:
            rest = [c for c in pack if c not in set(self.state.deck)]
            rng.shuffle(rest)
            order = [*self.state.deck, *rest]
        else:
            rng.shuffle(pack)
            order = pack
        size = self.state.ruleset.hand_size(n)
        self.state.hands = [[] for _ in range(n)]
        for k in range(size * n):
            self.state.hands[(self.state.dealer + 1 + k) % n].append(order[k])
        self.state.discard = [order[size * n]]
        self.state.stock = order[size * n + 1 :][::-1]
        self.state.melds = []
        self.state.next_meld_id = 1
        self.state.has_melded = [False] * n
        self.state.turns_completed = 0
        self.state.turnovers = 0
        self.state.current = (self.state.dealer + 1) % n
        self._start_turn()

    def _start_turn(self) -> None:
        self.state.phase = Phase.DRAW
        self.state.turn += 1
        self.state.no_discard = None
        self.state.must_use = None
        self.state.drawn = ()
        self.state.layoff_cards = 0
        if self.state.stock or self.state.ruleset.stock_out is not StockOut.TURN_OVER:
            return
        if len(self.state.discard) < 2 or self.state.turnovers >= MAX_TURNOVERS:
            self._end_round(RoundEnd.BLOCKED, None)
            return
        # The pile is turned face down as it lies: its bottom card becomes the stock's top,
        # and that card is turned up to start the new discard pile.
        self.state.stock = self.state.discard[::-1]
        self.state.discard = [self.state.stock.pop()]
        self.state.turnovers += 1

    def _end_round(self, reason: RoundEnd, ender: int | None) -> None:
        values = tuple(hand_value(h, self.state.ruleset) for h in self.state.hands)
        placed = placed_values(self.state.players, self.state.melds, self.state.ruleset)
        went_out = ender if reason is RoundEnd.WENT_OUT else None
        points = round_points(self.state.ruleset, values, placed, went_out)
        self.state.scores = [s + p for s, p in zip(self.state.scores, points, strict=True)]
        self.state.rounds.append(
            RoundResult(
                round_no=self.state.round_no,
                reason=reason,
                ender=None if ender is None else self.state.players[ender],
                hands=tuple(tuple(h) for h in self.state.hands),
                hand_values=values,
                placed_values=placed,
                points=points,
                totals=tuple(self.state.scores),
            )
        )
        self.state.winner_seats = game_winners(self.state.ruleset, self.state.scores)
        if self.state.winner_seats:
            self.state.phase = Phase.GAME_OVER
            self.state.drawn = ()
            self.state.no_discard = None
            self.state.must_use = None
            return
        self.state.round_no += 1
        self.state.dealer = (self.state.dealer + 1) % len(self.state.players)
        self._deal()

    # --- what players see ----------------------------------------------------------------

    def _context(
        self,
        extra: Sequence[Card] = (),
        must_use: Card | None = None,
        no_discard: Card | None = None,
    ) -> TurnContext:
        seat = self.state.current
        probing = bool(extra)
        return TurnContext(
            ruleset=self.state.ruleset,
            hand=(*self.state.hands[seat], *extra),
            melds=tuple(self.state.melds),
            has_melded=self.state.has_melded[seat],
            layoff_cards=0 if probing else self.state.layoff_cards,
            no_discard=no_discard if probing else self.state.no_discard,
            must_use=must_use if probing else self.state.must_use,
        )

    def _draw_options(self) -> list[Action]:
        options: list[Action] = []
        if self.state.stock:
            options.append(DrawStock())
        if self.state.discard:
            options.append(TakeDiscard(1))
        if self.state.ruleset.deep_discard:
            for depth in range(2, len(self.state.discard) + 1):
                taken = self.state.discard[-depth:]
                ctx = self._context(extra=taken, must_use=taken[0])
                if can_use(ctx, taken[0]):
                    options.append(TakeDiscard(depth))
        if not self.state.stock and self.state.ruleset.stock_out is StockOut.END_ROUND:
            options.append(EndRound())
        return options

    def view(self, player: str | None = None) -> GameView:
        """The game as ``player`` may see it; None for a spectator."""
        seat = self.state.players.index(player) if player in self.state.players else None
        over = self.state.phase is Phase.GAME_OVER
        own_turn = seat is not None and seat == self.state.current and not over
        visible = self.state.discard if self.state.ruleset.deep_discard else self.state.discard[-1:]
        seats = tuple(
            SeatView(
                player=p,
                seat=i,
                hand_size=len(self.state.hands[i]),
                score=self.state.scores[i],
                is_dealer=i == self.state.dealer,
                is_current=i == self.state.current and not over,
                has_melded=self.state.has_melded[i],
            )
            for i, p in enumerate(self.state.players)
        )
        return GameView(
            viewer=player if seat is not None else None,
            ruleset=self.state.ruleset,
            seats=seats,
            phase=self.state.phase,
            current=self.current_player,
            dealer=self.state.players[self.state.dealer],
            round_no=self.state.round_no,
            turn=self.state.turn,
            turn_in_round=self.state.turns_completed + (0 if over else 1),
            hand=tuple(self.state.hands[seat]) if seat is not None else (),
            drawn=self.state.drawn if own_turn else (),
            must_use=self.state.must_use if own_turn else None,
            no_discard=self.state.no_discard if own_turn else None,
            melds=tuple(self.state.melds),
            discard=tuple(visible),
            discard_size=len(self.state.discard),
            stock_size=len(self.state.stock),
            target=self.state.ruleset.target,
            rounds=tuple(self.state.rounds),
            winners=self.winners,
        )

    # --- persistence ----------------------------------------------------------------------

    def to_dict(self, *, include_log: bool = True) -> dict[str, Any]:
        """The versioned JSON form as a dict. Without the log it is a snapshot: enough to
        go on playing, for storage that keeps the log apart."""
        return state_to_dict(self.state, include_log=include_log, log_json=self.log_json)

    def to_json(self, *, include_log: bool = True) -> str:
        return dumps(self.to_dict(include_log=include_log))

    @classmethod
    def from_json(
        cls,
        data: str | bytes | dict[str, Any],
        *,
        log: Iterable[Action] | None = None,
        log_json: Sequence[dict[str, Any]] | None = None,
    ) -> Game:
        """Load a game saved by :meth:`to_json`. A snapshot saved without its log takes the
        log from ``log`` (actions) or ``log_json`` (their JSON form, as stored).

        Damaged data of any kind raises :class:`SnapshotError`.
        """
        state, stored_log = state_from_data(data, log, log_json)
        return cls(state, stored_log)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.state == other.state

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self.state.ruleset.name} round {self.state.round_no} turn {self.state.turn}"
            f" {self.state.phase.value} players={list(self.state.players)}>"
        )

    def _seat(self, player: str) -> int:
        try:
            return self.state.players.index(player)
        except ValueError:
            raise IllegalAction("refusal.game.not_player", player=player) from None


def _choose(options: list[Reading], wanted: Reading | int | None, table: Sequence[Slot]) -> Reading:
    """The option ``wanted`` names: by number, or by a reading of the new cards alone or of
    the whole meld, compared by what each card stands for (which twin or which physical
    joker stands where does not matter)."""
    if wanted is None:
        return options[0]
    if isinstance(wanted, int):
        if 0 <= wanted < len(options):
            return options[wanted]
        raise IllegalAction("refusal.reading.choose_number", count=len(options))
    whole = len(wanted.slots) > len(options[0].slots) - len(table) and bool(table)
    target = slot_shape(wanted.slots, table if whole else ())
    for option in options:
        if slot_shape(option.slots, table) == target:
            return option
    choices = Choices(tuple(options))
    raise _RefusedForAnyCopy(IllegalAction("refusal.reading.no_match", choices=choices))


def _why_no_meld(cards: Sequence[Card]) -> IllegalAction:
    if len(cards) < 3:
        return IllegalAction("refusal.meld.too_short")
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers * 2 > len(cards):
        return IllegalAction("refusal.meld.jokers")
    return IllegalAction("refusal.meld.invalid", cards=Cards(tuple(map(Face, cards))))


def _rig(ruleset: Ruleset, players: int, deck: str | Iterable[Card]) -> tuple[Card, ...]:
    """A rigged deck's cards as physical cards: a face named twice is the second copy."""
    pack = full_pack(ruleset.decks_for(players), ruleset.jokers_per_deck)
    available = set(pack)
    cards: list[Card] = []
    for card in as_cards(deck):
        pick = card if card in available else None
        if pick is None:
            pick = next((c for c in pack if c.face == card.face and c in available), None)
        if pick is None:
            raise RulesError("refusal.rules.deck_used_up", card=Face(card))
        available.discard(pick)
        cards.append(pick)
    return tuple(cards)


def _checked_reading(reading: Reading | int | None) -> Reading:
    """The reading of a checked meld or lay-off: the check always fills it in."""
    if not isinstance(reading, Reading):
        raise InvariantError(f"a checked play has no reading: {reading!r}")
    return reading
