"""What a hint tells a person: the *normal* level's move in their seat, and what they need to
know to make sense of it.

A move alone ("take the top discard") leaves a beginner guessing why, so the advice carries
the reasons the planner had: the meld or lay-off a card from the pile is for (after a deep
take in Rummy 500, the one the deepest card must go into at once), the melds it keeps in
hand rather than lay down, and the discard the turn leads to. It reads only the person's own
view, like a computer player in their seat; the words are the Discord layer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.rummy.actions import (
    Action,
    Discard,
    DrawStock,
    LayOff,
    Meld,
    SwapJoker,
    TakeDiscard,
)
from bot.rummy.cards import Card
from bot.rummy.computer.hands import _distinct, _without
from bot.rummy.computer.normal import NormalPlayer, _planned, _Planner
from bot.rummy.computer.plans import _match, _swapped
from bot.rummy.legal import TurnContext, play_options
from bot.rummy.solver import Play, solve
from bot.rummy.views import GameView


@dataclass(frozen=True, slots=True)
class Advice:
    """The move to make now and why."""

    action: Action
    """One of the legal actions: what the *normal* level would play in this seat."""
    purpose: Meld | LayOff | None = None
    """For cards taken from the discard pile: the meld or lay-off (legal right after the
    take) the deepest one goes into, the card a deep take must use at once."""
    held: tuple[Play, ...] = ()
    """For a discard: the melds and lay-offs kept in hand this turn, to go out in one go."""
    then: Card | None = None
    """When the move is not the discard: the card to discard at the end of the turn as the
    hand stands (never a joker while another card may go, unless that discard goes out);
    None when the turn ends otherwise."""
    then_goes_out: bool = False
    """Whether that discard goes out (the rest of the hand melds and lays off entirely)."""
    lays_out: bool = False
    """Whether, after the move, the whole hand melds and lays off, going out without a
    discard (then ``then`` is None)."""


def advise(view: GameView, legal: Sequence[Action]) -> Advice:
    """The advice for the player whose view this is, among ``legal`` (not empty)."""
    planner = _Planner(view, NormalPlayer())
    action = _planned(planner, legal)
    if isinstance(action, Discard):
        return Advice(action, held=planner.held)
    purpose = _purpose(view, action) if isinstance(action, TakeDiscard) else None
    after = _hand_after(view, action)
    if after is None:
        return Advice(action, purpose=purpose)
    hand, forbidden = after
    # After a draw from the stock the hand holds one card more, not yet known: no promise.
    known = not isinstance(action, DrawStock)
    if known and not view.ruleset.must_discard_to_go_out and _goes_out(view, hand):
        return Advice(action, purpose=purpose, lays_out=True)
    then = _then(view, hand, forbidden)
    if then is None:
        return Advice(action, purpose=purpose)
    out = known and _goes_out(view, _without(hand, then))
    return Advice(action, purpose=purpose, then=then, then_goes_out=out)


def _goes_out(view: GameView, hand: Sequence[Card]) -> bool:
    """Whether ``hand`` melds and lays off entirely this turn. Under the limit-lay-offs
    option (one lay-off a turn) only melds are counted on: no promise it cannot keep."""
    arrangement = solve(hand, view.ruleset, view.melds)
    if arrangement.left:
        return False
    return not (view.ruleset.limit_layoffs and arrangement.layoffs)


def _purpose(view: GameView, take: TakeDiscard) -> Meld | LayOff | None:
    """The meld or lay-off that the deepest card taken goes into, as the engine will offer
    it right after the take (a deep take must use that card at once): the one that carries
    out the hand's best arrangement with what is taken, else any that uses the card. None
    when no play can use it this turn."""
    taken = view.discard[-take.depth :] if take.depth <= len(view.discard) else ()
    if not taken:
        return None
    deepest = taken[0]
    deep = take.depth > 1
    hand = (*view.hand, *taken)
    seat = view.seat_of_viewer
    after = TurnContext(
        ruleset=view.ruleset,
        hand=hand,
        melds=view.melds,
        has_melded=seat is not None and seat.has_melded,
        layoff_cards=0,
        no_discard=None if deep else deepest,
        must_use=deepest if deep else None,
    )
    plays = [
        a
        for a in play_options(after)
        if isinstance(a, Meld | LayOff) and any(c.face == deepest.face for c in a.cards)
    ]
    if not plays:
        return None
    try:
        arrangement = solve(hand, view.ruleset, view.melds, must_place=deepest if deep else None)
    except ValueError:
        return plays[0] if deep else None
    plan = [p for p in arrangement.plays if deepest in p.cards]
    action = _match(_gathered(arrangement.plays, plan) + plan, plays, view.melds, view.ruleset)
    if isinstance(action, Meld | LayOff):
        return action
    return plays[0] if deep else None


def _gathered(plays: Sequence[Play], chosen: Sequence[Play]) -> list[Play]:
    """For each lay-off of ``chosen``, every card ``plays`` lays off onto that meld as one
    play (the solver lays off one card at a time, though one may need another below it)."""
    found = []
    for play in chosen:
        if play.meld_id is None:
            continue
        slots = [s for p in plays if p.meld_id == play.meld_id for s in p.slots]
        slots.sort(key=lambda s: (s.rank, s.card.sort_key))
        found.append(Play(play.kind, tuple(slots), play.meld_id))
    return found


def _hand_after(view: GameView, action: Action) -> tuple[list[Card], set[Card]] | None:
    """The hand once ``action`` is made, with the cards it may then not discard (the card
    just taken from the top of the pile; the deepest of a deep take, which must be played);
    None when the turn ends without a discard."""
    hand = list(view.hand)
    forbidden = {c for c in (view.no_discard, view.must_use) if c is not None}
    match action:
        case DrawStock():
            return hand, forbidden
        case TakeDiscard(depth=depth):
            taken = view.discard[-depth:] if depth <= len(view.discard) else ()
            return [*hand, *taken], forbidden | set(taken[:1])
        case Meld(cards=cards) | LayOff(cards=cards):
            for card in cards:
                hand = _without(hand, card)
            return hand, forbidden
        case SwapJoker():
            _, joker = _swapped(view.melds, action)
            hand = _without(hand, action.card)
            return [*hand, joker] if joker is not None else hand, forbidden
    return None


def _then(view: GameView, hand: list[Card], forbidden: set[Card]) -> Card | None:
    """The card *normal* would discard from ``hand``: its first choice among every card it
    may throw (a joker last, unless throwing it goes out)."""
    allowed = _distinct([c for c in hand if c not in forbidden])
    if not allowed:
        return None
    planner = _Planner(replace(view, hand=tuple(hand), no_discard=None), NormalPlayer())
    return planner.ranked_discards([Discard(c) for c in allowed])[0].card
