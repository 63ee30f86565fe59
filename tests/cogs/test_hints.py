"""The hint, over a few hundred seeded positions of every preset: it never advises throwing a
joker while another card may go, every move it advises is legal (applied to a copy of the
game by the engine), what it says a move is for is legal right after it, and every advice is
a sentence with its verb and its cards, in English and in French.

Rigged deals check the sentences players meet most: the draw-phase hint with an unmelded
joker (it used to advise throwing the joker), a meld held back with its reason, a card taken
from the pile for a meld, and Rummy 500's deep take naming the card that must be used."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    EndRound,
    Game,
    GameView,
    LayOff,
    Meld,
    Phase,
    SwapJoker,
    TakeDiscard,
    parse_cards,
    preset,
)
from bot.rummy.computer import EasyPlayer, HardPlayer, NormalPlayer, safe_action
from bot.rummy.computer.advice import Advice, advise
from bot.rummy.solver import Play
from cogs.ui import hints, present
from tests.cogs.hint_positions import CASES, keeper_action, positions

SEEDS = 6
PER_GAME = 14
EVERY = 5
EXAMPLES = int(os.environ.get("RUMMY_PROPERTY_EXAMPLES", "20"))

VERBS: dict[type, str] = {
    DrawStock: "Draw from the stock.",
    TakeDiscard: "Take ",
    EndRound: "End the round.",
    Meld: "Meld ",
    LayOff: "Lay off ",
    SwapJoker: "Swap ",
    Discard: "Discard ",
}
"""How the advice for each kind of move begins: its verb."""


def _faces(cards: Sequence[Card]) -> list[str]:
    return [c.face_text for c in cards]


def _other_discards(legal: Sequence[Action]) -> bool:
    return any(isinstance(a, Discard) and not a.card.is_joker for a in legal)


def _play_action(play: Play) -> Meld | LayOff:
    if play.meld_id is None:
        return Meld(play.cards)
    return LayOff(play.cards, play.meld_id)


def _lay_down(game: Game, plays: Sequence[Play]) -> None:
    """Apply ``plays`` to ``game`` in an order the engine accepts (a lay-off may need the
    one before it), or fail."""
    waiting = list(plays)
    while waiting:
        ready = next((p for p in waiting if game.can(_play_action(p))), None)
        assert ready is not None, (waiting, game.hand(game.current_player or ""))
        game.apply(_play_action(ready))
        waiting.remove(ready)


def check_advice(game: Game, seen: Counter[str]) -> None:
    """Everything the hint promises, at the position ``game`` is in."""
    player = game.current_player
    assert player is not None
    view = game.view(player)
    legal = game.legal_actions(player)
    advice = advise(view, legal)
    action = advice.action
    assert action in legal
    if isinstance(action, Discard) and action.card.is_joker:
        assert not _other_discards(legal), (view.hand, legal)
    after = game.copy()
    after.apply(action)  # the engine refuses an illegal move
    seen[type(action).__name__] += 1
    if any(c.is_joker for c in view.hand):
        seen["holding a joker"] += 1
    if advice.held:  # held back: they could be laid down now instead
        if game.ruleset.limit_layoffs:  # a meld first, one lay-off a turn: the melds then
            _lay_down(game.copy(), [p for p in advice.held if p.meld_id is None])
        else:
            _lay_down(game.copy(), advice.held)
        seen["held"] += 1
    if advice.purpose is not None:  # what the cards taken are for, possible right after
        assert isinstance(action, TakeDiscard)
        deepest = view.discard[-action.depth]
        assert deepest.face in {c.face for c in advice.purpose.cards}
        assert after.can(advice.purpose), (advice.purpose, after.hand(player))
        seen["purpose"] += 1
    elif isinstance(action, TakeDiscard) and action.depth > 1:
        raise AssertionError("a deep take must say what its deepest card is for")
    if advice.then is not None:
        _check_then(advice, after, player, legal)
        seen["then"] += 1
    _check_words(advice, view, legal)


def _check_then(advice: Advice, after: Game, player: str, legal: Sequence[Action]) -> None:
    then = advice.then
    assert then is not None
    assert not isinstance(advice.action, Discard | EndRound)
    if then.is_joker:  # only the discard that wins the round, all else laid down
        assert advice.then_goes_out, advice
    if after.current_player == player and after.phase is Phase.PLAY:
        view = after.view(player)
        if view.must_use is None:
            assert after.can(Discard(then)), (then, view.hand)
        assert then in view.hand


def _check_words(advice: Advice, view: GameView, legal: Sequence[Action]) -> None:
    english = hints.hint_text(view, legal, "en")
    french = hints.hint_text(view, legal, "fr")
    assert len(english) <= present.MESSAGE_LIMIT
    assert len(french) <= present.MESSAGE_LIMIT
    moves = [line for line in english.splitlines() if line.startswith("Suggested move: ")]
    assert len(moves) == 1, english
    sentence = moves[0].removeprefix("Suggested move: ")
    assert sentence.startswith(VERBS[type(advice.action)]), sentence
    assert sentence.endswith("."), sentence
    for face in _named(advice, view):
        assert face in sentence, (face, sentence)
    if isinstance(advice.action, Discard) and advice.held:
        assert "to go out in one go" in sentence, sentence
    thens = [line for line in english.splitlines() if line.startswith("Then ")]
    if advice.lays_out:
        assert advice.then is None
        assert thens == ["Then lay down the rest: you go out."], english
    elif advice.then is None:
        assert not thens, english
    else:
        assert len(thens) == 1, english
        assert "discard " + advice.then.face_text in thens[0], english
    assert "Coup conseillé : " in french
    assert sentence not in french
    faces = {c.face for c in view.hand}
    for line in english.splitlines():
        if line.startswith(("Best melds: ", "Lay off: ")):  # cards of the hand only
            for token in line.split(": ", 1)[1].split():
                if token not in ("·", "→") and not token.startswith("#"):
                    card = parse_cards(token.split("=")[0].removesuffix("(high)"))[0]
                    assert card.face in faces, (token, english)


def _named(advice: Advice, view: GameView) -> list[str]:
    """The cards the advice must name."""
    match advice.action:
        case Discard(card=card) | SwapJoker(card=card):
            return [card.face_text, *(f for p in advice.held for f in _faces(p.cards))]
        case Meld(cards=cards) | LayOff(cards=cards):
            return _faces(cards)
        case TakeDiscard(depth=depth):
            deepest = view.discard[-depth]
            purpose = advice.purpose
            return [deepest.face_text, *(_faces(purpose.cards) if purpose else [])]
    return []


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_advice_over_seeded_positions(name: str, players: int, options: dict[str, object]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(SEEDS):
        for game in positions(name, players, seed, options, every=EVERY, most=PER_GAME):
            check_advice(game, seen)
            seen["positions"] += 1
    assert seen["positions"] >= 30, seen
    # The positions are not all alike: draws and discards, and reasons given.
    for kind in ("DrawStock", "Discard", "then"):
        assert seen[kind], seen
    if options.get("jokers", name == "parlett"):
        assert seen["holding a joker"] >= 3, seen


@st.composite
def _positions(draw: st.DrawFn) -> Game:
    name, players, options = draw(st.sampled_from(CASES))
    seats = [f"p{i}" for i in range(players)]
    game = Game.new(preset(name, **options), seats, seed=draw(st.integers(0, 2**32)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 80))):
        if game.is_over:
            break
        game.apply(keeper_action(game, rng))
    return game


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=_positions())
def test_no_player_throws_a_joker_while_another_card_may_go(game: Game) -> None:
    """The hint, every computer level and the turn timer's safe move alike."""
    if game.is_over:
        return
    player = game.current_player
    assert player is not None
    view = game.view(player)
    legal = game.legal_actions(player)
    check_advice(game, Counter())
    if not _other_discards(legal):
        return
    rng = random.Random(0)
    choices = [
        EasyPlayer().choose(view, legal, rng),
        NormalPlayer().choose(view, legal, rng),
        HardPlayer(budget=0.02).choose(view, legal, rng),
        safe_action(view, legal),
    ]
    for action in choices:
        assert not (isinstance(action, Discard) and action.card.is_joker), (action, view.hand)


# --- rigged deals -----------------------------------------------------------------------


def _rigged(name: str, mine: str, theirs: str, up: str, stock: str, **options: object) -> Game:
    """A two-player game whose first player holds ``mine`` (the other ``theirs``), with
    ``up`` on the discard pile and ``stock`` the first cards of the stock."""
    deck: list[Card] = []
    for a, b in zip(parse_cards(mine), parse_cards(theirs), strict=True):
        deck += [a, b]
    deck += [*parse_cards(up), *parse_cards(stock)]
    return Game.new(preset(name, **options), ["ann", "bob"], seed=1, deck=deck)


def _hint(game: Game, loc: str = "en") -> str:
    player = game.current_player
    assert player is not None
    return hints.hint_text(game.view(player), game.legal_actions(player), loc)


def test_an_unmelded_joker_is_kept_and_a_natural_card_goes() -> None:
    game = _rigged(
        "parlett", "JK Kh 9s 5d 2c Qd 7h 3s 10c 6c", "2h 3h 4h 5h 6h 7s 8s 9h 10h Jh", "8d", "8c"
    )
    text = _hint(game)
    assert "Suggested move: Draw from the stock." in text, text
    assert "Then discard K♥, unless the card you draw changes the plan." in text, text
    french = _hint(game, "fr")
    assert "Coup conseillé : Pioche dans le talon." in french, french
    assert "Ensuite, défausse K♥, sauf si la carte piochée change le plan." in french, french


def test_a_meld_held_back_says_why() -> None:
    game = _rigged(
        "classic",
        "6d 6h 6s Kh 9c 2d 4s Jd 8h 3c Qs 10d 5c",
        "2h 3h 4h 5h 7h 7s 8s 9h 10h Jh Qh Kc Ac",
        "As",
        "Kd",
    )
    game.apply(DrawStock())
    text = _hint(game)
    move = next(line for line in text.splitlines() if line.startswith("Suggested move:"))
    assert move.startswith("Suggested move: Discard "), text
    assert "hold 6♦ 6♥ 6♠ back for now, to go out in one go: a meld on the table" in move, text


def test_a_card_from_the_pile_says_what_it_is_for() -> None:
    game = _rigged(
        "classic",
        "7d 7s Kh 9c 2d 4s Jd 8h 3c Qs 10d 5c Ah",
        "2h 3h 4h 5h 7h 6s 8s 9h 10h Jh Qh Kc Ac",
        "7c",
        "Kd",
    )
    assert "Suggested move: Take 7♣ from the discard pile to meld 7♣ 7♦ 7♠." in _hint(game)


def test_a_deep_take_names_the_card_that_must_be_used() -> None:
    game = _rigged(
        "500",
        "9d 9s Qh Qc 2d 4s 7h 3c Ks 6c Ah 8d Jh",
        "2h 3h 4h 5h 7s 6s 8s 9h 10h Jc Qd Kc Ac",
        "9c",
        "2s 3d",
    )
    game.apply(DrawStock())
    game.apply(Discard(parse_cards("Ks")[0]))
    game.apply(DrawStock())
    game.apply(Discard(parse_cards("Qd")[0]))  # the pile: 9♣ K♠ Q♦
    text = _hint(game)
    assert (
        "Suggested move: Take the discard pile down to 9♣ (3 cards), then meld 9♣ 9♦ 9♠: "
        "9♣ must be used at once." in text
    ), text
    french = _hint(game, "fr")
    assert "Prends la défausse jusqu'à 9♣ (3 cartes), puis pose la combinaison 9♣ 9♦ 9♠" in french
