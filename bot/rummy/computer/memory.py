"""What a player remembers of the others between its own turns, learnt only from views.

*normal* and *hard* keep a :class:`Memory` per round: which cards each opponent took from
the discard pile and has not shown since, and the pile as far as it was seen (its lower
cards are hidden in classic and parlett). Both :func:`observe` and :func:`remember` return a
new value, so a player's memory can travel to a worker process and back by pickling."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.rummy.actions import Action, Discard
from bot.rummy.cards import Card
from bot.rummy.computer.hands import _physical
from bot.rummy.views import GameView, Phase


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
