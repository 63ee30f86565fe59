"""The answer to /hint: the best arrangement of the asker's hand and the move to make, said
as a sentence with its verb and its cards.

The move and its reasons come from :func:`bot.rummy.computer.advice.advise` (the *normal*
level in the asker's seat, from their own view only); this module only puts them into
words. A card standing in a meld is shown as the table shows it, a joker with what it stands
for (``JK=7♥``), but by its face: the hint speaks of cards in the asker's hand, where twins
look alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import t, tn
from bot.rummy import Action, Card, GameView, LayOff, Meld, Reading, SwapJoker, TakeDiscard
from bot.rummy.actions import Discard, DrawStock, EndRound
from bot.rummy.computer.advice import Advice, advise
from bot.rummy.melds import Slot, layoff_readings, readings
from bot.rummy.solver import Play, solve
from cogs.ui.present import card_text, cards_text, fit, slots_text


def hint_text(view: GameView, legal: Sequence[Action], loc: str) -> str:
    """A hint for the player whose view this is, whose turn it is (``legal`` not empty)."""
    best = solve(view.hand, view.ruleset, view.melds)
    lines = [f"**{t('hint.title', loc)}**"]
    melds = plays_text(best.melds, loc)
    lines.append(t("hint.melds", loc, melds=melds) if melds else t("hint.no_melds", loc))
    if best.layoffs:
        lines.append(t("hint.layoffs", loc, layoffs=plays_text(best.layoffs, loc)))
    lines.append(
        t(
            "hint.left",
            loc,
            cards=cards_text(best.left) or "—",
            value=tn("unit.points", best.left_value, loc),
        )
    )
    advice = advise(view, legal)
    lines.append(t("hint.next", loc, move=move_sentence(advice, view, loc)))
    then = then_sentence(advice, loc)
    if then is not None:
        lines.append(then)
    return fit(lines)


def move_sentence(advice: Advice, view: GameView, loc: str) -> str:
    """The advised move as a sentence: its verb, its cards, and what it is for."""
    match advice.action:
        case DrawStock():
            return t("hint.move.draw", loc)
        case TakeDiscard(depth=depth):
            return _take_sentence(depth, advice.purpose, view, loc)
        case EndRound():
            return t("hint.move.end", loc)
        case Meld() | LayOff() as play:
            return _play_sentence(play, view, loc)
        case SwapJoker(meld_id=meld_id, card=card):
            return t("hint.move.swap", loc, card=card_text(card), meld=meld_id)
        case Discard(card=card):
            return _discard_sentence(card, advice.held, loc)


def then_sentence(advice: Advice, loc: str) -> str | None:
    """The discard the turn leads to, when the move is not the discard itself; or that
    the rest of the hand goes down."""
    if advice.lays_out:
        return t("hint.then_lay_out", loc)
    if advice.then is None:
        return None
    card = card_text(advice.then)
    if isinstance(advice.action, DrawStock):
        return t("hint.then_draw", loc, card=card)
    return t("hint.then_out" if advice.then_goes_out else "hint.then", loc, card=card)


def _take_sentence(depth: int, purpose: Meld | LayOff | None, view: GameView, loc: str) -> str:
    taken = view.discard[-depth:] if depth <= len(view.discard) else ()
    card = card_text(taken[0]) if taken else "?"
    if purpose is None:
        return t(
            "hint.move.take" if depth == 1 else "hint.move.dig",
            loc,
            card=card,
            count=tn("unit.cards", depth, loc),
        )
    cards = slots_text(_slots_of(purpose, view), loc) or cards_text(purpose.cards)
    if isinstance(purpose, Meld):
        key = "hint.move.take_meld" if depth == 1 else "hint.move.dig_meld"
        return t(key, loc, card=card, count=tn("unit.cards", depth, loc), meld=cards)
    key = "hint.move.take_layoff" if depth == 1 else "hint.move.dig_layoff"
    count = tn("unit.cards", depth, loc)
    return t(key, loc, card=card, count=count, cards=cards, meld=purpose.meld_id)


def _play_sentence(play: Meld | LayOff, view: GameView, loc: str) -> str:
    cards = slots_text(_slots_of(play, view), loc) or cards_text(play.cards)
    if isinstance(play, Meld):
        return t("hint.move.meld", loc, cards=cards)
    return t("hint.move.layoff", loc, cards=cards, meld=play.meld_id)


def _slots_of(play: Meld | LayOff, view: GameView) -> tuple[Slot, ...]:
    """What each card of the play will stand for: its reading, or the engine's choice when
    the play names none (the first reading, or the one numbered)."""
    reading = play.reading
    if isinstance(reading, Reading):
        found: Sequence[Reading] = [reading]
        index = 0
    else:
        index = reading or 0
        if isinstance(play, Meld):
            found = readings(play.cards, view.ruleset)
        else:
            meld = next((m for m in view.melds if m.id == play.meld_id), None)
            found = layoff_readings(meld, play.cards, view.ruleset) if meld is not None else []
    if not 0 <= index < len(found):
        return ()
    return tuple(s for s in found[index].slots if s.card in play.cards)


def plays_text(plays: Iterable[Play], loc: str | None = None) -> str:
    """Melds and lay-offs of an arrangement on one line: ``6♦ 6♥ 6♠ · 4♥ 5♥ → #2`` (the
    solver lays off one card at a time; the cards for one meld are shown together)."""
    shown: list[str] = []
    layoffs: dict[int, list[Slot]] = {}
    for play in plays:
        if play.meld_id is None:
            shown.append(slots_text(play.slots, loc))
        else:
            layoffs.setdefault(play.meld_id, []).extend(play.slots)
    for meld_id, slots in layoffs.items():
        ordered = sorted(slots, key=lambda s: (s.rank, s.card.sort_key))
        shown.append(f"{slots_text(ordered, loc)} → #{meld_id}")
    return " · ".join(shown)


def _discard_sentence(card: Card, held: Sequence[Play], loc: str) -> str:
    """A discard; when melds are kept in hand rather than laid down, which and why."""
    if not held:
        return t("hint.move.discard", loc, card=card_text(card))
    if any(p.meld_id is None for p in held):
        return t("hint.move.hold", loc, card=card_text(card), plays=plays_text(held, loc))
    cards = " ".join(slots_text(p.slots, loc) for p in held)
    return t("hint.move.hold_layoffs", loc, card=card_text(card), cards=cards)
