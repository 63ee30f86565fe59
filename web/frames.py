"""What a page is sent: the table as one person may see it, as plain JSON.

Everything here is built from a :class:`~bot.rummy.GameView`, the engine's view for that
person, so a spectator's frame has no hand and a player's holds theirs alone. The hands a
round's scoring shows are left out too: a frame carries the scores, never another hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rummy import Action, Card, DrawStock, EndRound, GameView, TakeDiscard
from bot.rummy.actions import Discard, LayOff, Meld, SwapJoker
from bot.rummy.melds import PlacedCard

Frame = dict[str, Any]


def card(c: Card) -> dict[str, Any]:
    """A card: its code (what a move names), rank (0: joker) and suit letter."""
    return {"c": c.code, "r": c.rank, "s": None if c.suit is None else c.suit.letter}


def placed(p: PlacedCard) -> dict[str, Any]:
    """A card on the table; a joker says what it stands for."""
    shown = card(p.card)
    if p.card.is_joker:
        shown["as"] = [p.rank if p.rank <= 13 else 1, None if p.suit is None else p.suit.letter]
    return shown


def choices(legal: Sequence[Action]) -> dict[str, Any]:
    """What the player may do now, as the page's controls need it: the draws, and whether
    melding, laying off and discarding are open (the session checks each move anyway)."""
    return {
        "stock": any(isinstance(a, DrawStock) for a in legal),
        "take": sorted({a.depth for a in legal if isinstance(a, TakeDiscard)}),
        "end": any(isinstance(a, EndRound) for a in legal),
        "meld": any(isinstance(a, Meld) for a in legal),
        "layoff": any(isinstance(a, LayOff) for a in legal),
        "swap": any(isinstance(a, SwapJoker) for a in legal),
        "discard": sorted({a.card.code for a in legal if isinstance(a, Discard)}),
    }


def table_frame(
    view: GameView,
    names: Mapping[str, str],
    legal: Sequence[Action],
    recent: Sequence[str],
    *,
    status: str,
    seq: int,
    by_rank: bool = False,
) -> Frame:
    """The table for ``view.viewer`` (None: a spectator) after ``seq`` committed actions:
    a page drops a frame older than the one it shows."""
    frame: Frame = {
        "t": "table",
        "seq": seq,
        "status": status,
        "turn": view.turn,
        "round": view.round_no,
        "phase": view.phase.value,
        "current": view.current,
        "dealer": view.dealer,
        "me": view.viewer,
        "seats": [
            {
                "id": s.player,
                "name": names.get(s.player, "?"),
                "cards": s.hand_size,
                "score": s.score,
                "current": s.is_current,
                "dealer": s.is_dealer,
            }
            for s in view.seats
        ],
        "stock": view.stock_size,
        "pile": [card(c) for c in view.discard],
        "pileSize": view.discard_size,
        "melds": [
            {
                "id": m.id,
                "owner": names.get(m.owner, "?"),
                "kind": m.kind.value,
                "cards": [placed(p) for p in m.cards],
            }
            for m in view.melds
        ],
        "target": view.target,
        "winners": [names.get(w, "?") for w in view.winners],
        "recent": list(recent),
        "hand": [],
        "can": choices(()),
    }
    if view.viewer is not None:
        order = (lambda c: c.rank_sort_key) if by_rank else (lambda c: c.sort_key)
        frame["hand"] = [card(c) for c in sorted(view.hand, key=order)]
        frame["drawn"] = [c.code for c in view.drawn]
        frame["mustUse"] = None if view.must_use is None else view.must_use.code
        frame["can"] = choices(legal)
    return frame
