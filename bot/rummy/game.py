"""The game state machine: deal, turns, rounds and the end of the game.

Every action has three faces: :meth:`Game.why_not` explains a refusal, :meth:`Game.can`
answers yes or no for buttons, and :meth:`Game.apply` checks first and then changes the
state, so a refused action leaves the game exactly as it was. Every applied action goes to
the log; (ruleset, players, seed, deck, log) replays the game exactly.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

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
)
from bot.rummy.melds import (
    PlacedCard,
    Reading,
    TableMeld,
    canonical,
    layoff_readings,
    readings,
    swap_position,
)
from bot.rummy.rules import MAX_TURNOVERS, MAX_TURNS_PER_ROUND, Ruleset, StockOut
from bot.rummy.scoring import game_winners, hand_value, placed_values, round_points
from bot.rummy.views import GameView, Phase, RoundEnd, RoundResult, SeatView


class Game:
    """A game of Rummy from the deal to the final scores. Create it with :meth:`new`."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        seed: int,
        deck: tuple[Card, ...] | None,
    ) -> None:
        self.ruleset = ruleset
        self.players: tuple[str, ...] = tuple(players)
        self.seed = seed
        self.deck = deck
        n = len(self.players)
        self.round_no = 1
        self.dealer = n - 1
        self.current = 0
        self.phase = Phase.DRAW
        self.turn = 0
        self.turns_completed = 0
        self.turnovers = 0
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []  # the top card is the last one
        self.discard: list[Card] = []  # the top card is the last one
        self.melds: list[TableMeld] = []
        self.next_meld_id = 1
        self.scores = [0] * n
        self.has_melded = [False] * n
        self.no_discard: Card | None = None
        self.must_use: Card | None = None
        self.drawn: tuple[Card, ...] = ()
        self.layoff_cards = 0
        self.rounds: list[RoundResult] = []
        self.winner_seats: tuple[int, ...] = ()
        self.log: list[Action] = []
        self.log_json: list[dict[str, Any]] = []
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
            raise RulesError("every player may sit at the table only once")
        ruleset.check_players(len(names))
        if seed is None:
            seed = secrets.randbits(63)
        rigged = _rig(ruleset, len(names), deck) if deck is not None else None
        game = cls(ruleset, names, seed, rigged)
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

    # --- questions ------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        return None if self.phase is Phase.GAME_OVER else self.players[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(self.players[i] for i in self.winner_seats)

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self.hands[self._seat(player)])

    def meld(self, meld_id: int) -> TableMeld:
        for meld in self.melds:
            if meld.id == meld_id:
                return meld
        raise IllegalAction(f"There is no meld #{meld_id} on the table.")

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every action the generator offers ``player`` now (empty when it's not their turn)."""
        if self.phase is Phase.GAME_OVER:
            return []
        if player is not None and player != self.players[self.current]:
            return []
        if self.phase is Phase.DRAW:
            return self._draw_options()
        return list(play_options(self._context()))

    def why_not(self, action: Action, player: str | None = None) -> str | None:
        """Why ``action`` is refused now, in words for the player; None if it is allowed."""
        try:
            self._check(action, player)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def can(self, action: Action, player: str | None = None) -> bool:
        return self.why_not(action, player) is None

    # --- the action itself ----------------------------------------------------------------

    def apply(self, action: Action, player: str | None = None) -> None:
        """Check ``action`` and carry it out, or raise :class:`IllegalAction` changing nothing."""
        checked = self._check(action, player)
        self._do(checked)
        self.log.append(checked)
        self.log_json.append(action_to_json(checked))

    # --- checks ---------------------------------------------------------------------------

    def _check(self, action: Action, player: str | None) -> Action:
        """The action as it will be applied (cards resolved to the physical ones held)."""
        if self.phase is Phase.GAME_OVER:
            raise IllegalAction("The game is over.")
        if player is not None and player != self.players[self.current]:
            if player not in self.players:
                raise NotYourTurn("You are not playing in this game.")
            raise NotYourTurn("It is not your turn.", current=self.players[self.current])
        match action:
            case DrawStock() | TakeDiscard() | EndRound():
                self._require(Phase.DRAW, "You have already drawn this turn.")
                return self._check_draw(action)
        self._require(Phase.PLAY, "Draw a card first: from the stock or the discard pile.")
        match action:
            case Meld():
                return self._check_meld(action)
            case LayOff():
                return self._check_layoff(action)
            case SwapJoker():
                return self._check_swap(action)
            case Discard():
                return self._check_discard(action)
        raise IllegalAction(f"Unknown action: {action!r}")

    def _require(self, phase: Phase, message: str) -> None:
        if self.phase is not phase:
            raise IllegalAction(message)

    def _check_draw(self, action: DrawStock | TakeDiscard | EndRound) -> Action:
        match action:
            case DrawStock():
                if not self.stock:
                    raise IllegalAction(
                        "The stock is empty: take the discard or end the round."
                        if self.discard
                        else "The stock is empty: end the round."
                    )
            case TakeDiscard(depth=depth):
                self._check_take(depth)
            case EndRound():
                if self.ruleset.stock_out is not StockOut.END_ROUND:
                    raise IllegalAction("In this game the round does not end on an empty stock.")
                if self.stock:
                    raise IllegalAction("You may end the round only when the stock is empty.")
        return action

    def _check_take(self, depth: int) -> None:
        if not self.discard:
            raise IllegalAction("The discard pile is empty.")
        if depth < 1:
            raise IllegalAction("Take at least one card.")
        if depth > 1 and not self.ruleset.deep_discard:
            raise IllegalAction("Only the top card of the discard pile may be taken.")
        if depth > len(self.discard):
            raise IllegalAction(f"The discard pile has only {len(self.discard)} cards.")
        if depth > 1:
            taken = self.discard[-depth:]
            ctx = self._context(extra=taken, must_use=taken[0], no_discard=None)
            if not can_use(ctx, taken[0]):
                raise IllegalAction(
                    f"You could not meld or lay off {taken[0]} at once, so you may not take"
                    " the pile down to it."
                )

    def _check_meld(self, action: Meld) -> Meld:
        cards, mapping = self._resolve(action.cards)
        options = readings(cards, self.ruleset)
        if not options:
            raise IllegalAction(_why_no_meld(cards))
        reading = _choose(options, action.reading, mapping, ())
        ctx = self._context()
        self._check_must_use(cards)
        self._check_dead_end(ctx, cards)
        return Meld(cards, reading)

    def _check_layoff(self, action: LayOff) -> LayOff:
        meld = self.meld(action.meld_id)
        cards, mapping = self._resolve(action.cards)
        if not cards:
            raise IllegalAction("Name the cards to lay off.")
        ctx = self._context()
        refusal = layoff_refusal(ctx, len(cards))
        if refusal:
            raise IllegalAction(refusal)
        options = layoff_readings(meld, cards, self.ruleset)
        if not options:
            raise IllegalAction(f"{' '.join(map(str, cards))} cannot be laid off on meld {meld}.")
        on_table = [p.card for p in meld.cards]
        reading = _choose(options, action.reading, mapping, on_table)
        self._check_must_use(cards)
        self._check_dead_end(ctx, cards)
        return LayOff(cards, meld.id, reading)

    def _check_swap(self, action: SwapJoker) -> SwapJoker:
        if not self.ruleset.joker_swap:
            raise IllegalAction("Jokers cannot be swapped out of melds in this game.")
        if self.must_use is not None:
            raise IllegalAction(f"First meld or lay off {self.must_use}, which you took.")
        meld = self.meld(action.meld_id)
        (card,), _ = self._resolve((action.card,))
        if not any(p.card.is_joker for p in meld.cards):
            raise IllegalAction(f"Meld #{meld.id} has no joker.")
        if swap_position(meld, card) is None:
            raise IllegalAction(f"{card} is not the card a joker in meld #{meld.id} stands for.")
        if self.ruleset.limit_layoffs and self.layoff_cards >= 1:
            raise IllegalAction("You may lay off only one card per turn, and a swap counts.")
        return SwapJoker(meld.id, card)

    def _check_discard(self, action: Discard) -> Discard:
        if self.must_use is not None:
            raise IllegalAction(f"First meld or lay off {self.must_use}, which you took.")
        (card,), _ = self._resolve((action.card,), avoid=self.no_discard)
        if card == self.no_discard:
            raise IllegalAction(
                f"You took {card} from the discard pile this turn; discard another card."
            )
        return Discard(card)

    def _check_must_use(self, cards: Sequence[Card]) -> None:
        if self.must_use is not None and self.must_use not in cards:
            raise IllegalAction(f"Your next play must use {self.must_use}, which you took.")

    def _check_dead_end(self, ctx: TurnContext, cards: Sequence[Card]) -> None:
        refusal = dead_end(ctx, cards)
        if refusal:
            raise IllegalAction(refusal)

    def _resolve(
        self, cards: Sequence[Card], avoid: Card | None = None
    ) -> tuple[tuple[Card, ...], dict[Card, Card]]:
        """Match named cards to the physical cards in hand: the very card if it is held,
        else its twin from the other deck."""
        available = list(self.hands[self.current])
        resolved: list[Card] = []
        mapping: dict[Card, Card] = {}
        for card in cards:
            if card in available:
                pick = card
            else:
                twins = [c for c in available if c.face == card.face]
                twins.sort(key=lambda c: c == avoid)
                if not twins:
                    held = "more than one" if card in resolved else ""
                    raise IllegalAction(
                        f"You don't hold {held + ' ' if held else ''}{card.face_text}."
                    )
                pick = twins[0]
            available.remove(pick)
            resolved.append(pick)
            mapping[card] = pick
        return tuple(resolved), mapping

    # --- changes --------------------------------------------------------------------------

    def _do(self, action: Action) -> None:
        seat = self.current
        player = self.players[seat]
        hand = self.hands[seat]
        match action:
            case DrawStock():
                card = self.stock.pop()
                hand.append(card)
                self._drew((card,))
            case TakeDiscard(depth=depth):
                taken = self.discard[-depth:]
                del self.discard[-depth:]
                hand.extend(taken)
                self._drew(tuple(taken))
                if depth == 1:
                    self.no_discard = taken[0]
                else:
                    self.must_use = taken[0]
            case EndRound():
                self._end_round(RoundEnd.ENDED, seat)
            case Meld(cards=cards, reading=reading):
                reading = _checked_reading(reading)
                self._take_from_hand(cards)
                placed = tuple(PlacedCard(s.card, s.rank, s.suit, player) for s in reading.slots)
                self.melds.append(TableMeld(self.next_meld_id, player, reading.kind, placed))
                self.next_meld_id += 1
                self.has_melded[seat] = True
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
                self.layoff_cards += len(cards)
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
                self.layoff_cards += 1
            case Discard(card=card):
                self._take_from_hand((card,))
                self.discard.append(card)
                self.turns_completed += 1
                if not hand:
                    self._end_round(RoundEnd.WENT_OUT, seat)
                elif self.turns_completed >= MAX_TURNS_PER_ROUND:
                    self._end_round(RoundEnd.BLOCKED, None)
                else:
                    self.current = (seat + 1) % len(self.players)
                    self._start_turn()

    def _drew(self, cards: tuple[Card, ...]) -> None:
        self.drawn = cards
        self.phase = Phase.PLAY

    def _take_from_hand(self, cards: Iterable[Card]) -> None:
        hand = self.hands[self.current]
        for card in cards:
            hand.remove(card)

    def _after_play(self, cards: Sequence[Card]) -> None:
        if self.must_use in cards:
            self.must_use = None
        if not self.hands[self.current]:
            self._end_round(RoundEnd.WENT_OUT, self.current)

    def _replace_meld(self, meld: TableMeld) -> None:
        self.melds = [meld if m.id == meld.id else m for m in self.melds]

    # --- rounds ---------------------------------------------------------------------------

    def _deal(self) -> None:
        n = len(self.players)
        rng = random.Random(f"{self.seed}:{self.round_no}")
        pack = full_pack(self.ruleset.decks_for(n), self.ruleset.jokers_per_deck)
        if self.round_no == 1 and self.deck is not None:
            rest = [c for c in pack if c not in set(self.deck)]
            rng.shuffle(rest)
            order = [*self.deck, *rest]
        else:
            rng.shuffle(pack)
            order = pack
        size = self.ruleset.hand_size(n)
        self.hands = [[] for _ in range(n)]
        for k in range(size * n):
            self.hands[(self.dealer + 1 + k) % n].append(order[k])
        self.discard = [order[size * n]]
        self.stock = order[size * n + 1 :][::-1]
        self.melds = []
        self.next_meld_id = 1
        self.has_melded = [False] * n
        self.turns_completed = 0
        self.turnovers = 0
        self.current = (self.dealer + 1) % n
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = Phase.DRAW
        self.turn += 1
        self.no_discard = None
        self.must_use = None
        self.drawn = ()
        self.layoff_cards = 0
        if self.stock or self.ruleset.stock_out is not StockOut.TURN_OVER:
            return
        if len(self.discard) < 2 or self.turnovers >= MAX_TURNOVERS:
            self._end_round(RoundEnd.BLOCKED, None)
            return
        # The pile is turned face down as it lies: its bottom card becomes the stock's top,
        # and that card is turned up to start the new discard pile.
        self.stock = self.discard[::-1]
        self.discard = [self.stock.pop()]
        self.turnovers += 1

    def _end_round(self, reason: RoundEnd, ender: int | None) -> None:
        values = tuple(hand_value(h, self.ruleset) for h in self.hands)
        placed = placed_values(self.players, self.melds, self.ruleset)
        went_out = ender if reason is RoundEnd.WENT_OUT else None
        points = round_points(self.ruleset, values, placed, went_out)
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        self.rounds.append(
            RoundResult(
                round_no=self.round_no,
                reason=reason,
                ender=None if ender is None else self.players[ender],
                hands=tuple(tuple(h) for h in self.hands),
                hand_values=values,
                placed_values=placed,
                points=points,
                totals=tuple(self.scores),
            )
        )
        self.winner_seats = game_winners(self.ruleset, self.scores)
        if self.winner_seats:
            self.phase = Phase.GAME_OVER
            self.drawn = ()
            self.no_discard = None
            self.must_use = None
            return
        self.round_no += 1
        self.dealer = (self.dealer + 1) % len(self.players)
        self._deal()

    # --- what players see ----------------------------------------------------------------

    def _context(
        self,
        extra: Sequence[Card] = (),
        must_use: Card | None = None,
        no_discard: Card | None = None,
    ) -> TurnContext:
        seat = self.current
        probing = bool(extra)
        return TurnContext(
            ruleset=self.ruleset,
            hand=(*self.hands[seat], *extra),
            melds=tuple(self.melds),
            has_melded=self.has_melded[seat],
            layoff_cards=0 if probing else self.layoff_cards,
            no_discard=no_discard if probing else self.no_discard,
            must_use=must_use if probing else self.must_use,
        )

    def _draw_options(self) -> list[Action]:
        options: list[Action] = []
        if self.stock:
            options.append(DrawStock())
        if self.discard:
            options.append(TakeDiscard(1))
        if self.ruleset.deep_discard:
            for depth in range(2, len(self.discard) + 1):
                taken = self.discard[-depth:]
                ctx = self._context(extra=taken, must_use=taken[0])
                if can_use(ctx, taken[0]):
                    options.append(TakeDiscard(depth))
        if not self.stock and self.ruleset.stock_out is StockOut.END_ROUND:
            options.append(EndRound())
        return options

    def view(self, player: str | None = None) -> GameView:
        """The game as ``player`` may see it; None for a spectator."""
        seat = self.players.index(player) if player in self.players else None
        over = self.phase is Phase.GAME_OVER
        own_turn = seat is not None and seat == self.current and not over
        visible = self.discard if self.ruleset.deep_discard else self.discard[-1:]
        seats = tuple(
            SeatView(
                player=p,
                seat=i,
                hand_size=len(self.hands[i]),
                score=self.scores[i],
                is_dealer=i == self.dealer,
                is_current=i == self.current and not over,
                has_melded=self.has_melded[i],
            )
            for i, p in enumerate(self.players)
        )
        return GameView(
            viewer=player if seat is not None else None,
            ruleset=self.ruleset,
            seats=seats,
            phase=self.phase,
            current=self.current_player,
            dealer=self.players[self.dealer],
            round_no=self.round_no,
            turn=self.turn,
            turn_in_round=self.turns_completed + (0 if over else 1),
            hand=tuple(self.hands[seat]) if seat is not None else (),
            drawn=self.drawn if own_turn else (),
            must_use=self.must_use if own_turn else None,
            no_discard=self.no_discard if own_turn else None,
            melds=tuple(self.melds),
            discard=tuple(visible),
            discard_size=len(self.discard),
            stock_size=len(self.stock),
            target=self.ruleset.target,
            rounds=tuple(self.rounds),
            winners=self.winners,
        )

    # --- persistence ----------------------------------------------------------------------

    def to_dict(self, *, include_log: bool = True) -> dict[str, Any]:
        """The versioned JSON form as a dict. Without the log it is a snapshot: enough to
        go on playing, for storage that keeps the log apart."""
        from bot.rummy.serialize import game_to_dict

        return game_to_dict(self, include_log=include_log)

    def to_json(self, *, include_log: bool = True) -> str:
        from bot.rummy.serialize import dumps

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
        log from ``log`` (actions) or ``log_json`` (their JSON form, as stored)."""
        from bot.rummy.serialize import game_from_data

        return game_from_data(data, log, log_json)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.name} round {self.round_no} turn {self.turn}"
            f" {self.phase.value} players={list(self.players)}>"
        )

    def _seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalAction(f"{player} is not playing in this game.") from None


def _choose(
    options: list[Reading],
    wanted: Reading | int | None,
    mapping: dict[Card, Card],
    on_table: Sequence[Card],
) -> Reading:
    if wanted is None:
        return options[0]
    if isinstance(wanted, int):
        if 0 <= wanted < len(options):
            return options[wanted]
        raise IllegalAction(
            f"There are {len(options)} ways to read those cards; choose 1 to {len(options)}."
        )
    slots = tuple(type(s)(mapping.get(s.card, s.card), s.rank, s.suit) for s in wanted.slots)
    wanted = canonical(Reading(wanted.kind, slots), on_table)
    for option in options:
        if canonical(option, on_table) == wanted:
            return option
    choices = "; ".join(str(o) for o in options)
    raise IllegalAction(f"Those cards cannot be read that way. Choose one of: {choices}")


def _why_no_meld(cards: Sequence[Card]) -> str:
    shown = " ".join(map(str, cards))
    if len(cards) < 3:
        return "A meld needs at least three cards."
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers * 2 > len(cards):
        return "A meld needs at least as many natural cards as jokers."
    return (
        f"{shown} is no meld: a run is three or more cards of one suit in sequence, a set"
        " three or four cards of one rank in different suits."
    )


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
            raise RulesError(f"the deck has no more {card.face_text} for this game")
        available.discard(pick)
        cards.append(pick)
    return tuple(cards)


def _checked_reading(reading: Reading | int | None) -> Reading:
    """The reading of a checked meld or lay-off: the check always fills it in."""
    if not isinstance(reading, Reading):
        raise InvariantError(f"a checked play has no reading: {reading!r}")
    return reading
