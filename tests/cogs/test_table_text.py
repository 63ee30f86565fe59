"""The table's text, as a phone shows it: about 600 characters whatever the number of
players, and nothing in it that the picture shows left out when it is told shorter.

Rounds are played through the engine with seeded random moves (eager to meld), and the
text is built after every action with the moves since the current player's last turn,
worded as the table message words them (one line a turn, in full and brief words).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.rummy import Game, GameView
from bot.rummy.cards import Suit
from bot.rummy.players import random_action
from bot.rummy.rules import preset
from cogs.ui import present
from tests.rendering import scenes

NAMES = {p: p.capitalize() for p in ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")}


def texts(name: str, players: int, seed: int) -> Iterator[tuple[GameView, str]]:
    """Each state of a seeded first round, and its table text."""
    game = Game.new(preset(name), list(NAMES)[:players], seed=seed)
    rng = random.Random(seed)
    turns: list[tuple[str, list[str], list[str]]] = []
    while not game.is_over and game.round_no == 1:
        player = game.current_player
        assert player is not None
        action = random_action(game, rng, eagerness=0.9)
        game.apply(action)
        if not turns or turns[-1][0] != player:
            turns.append((player, [], []))
        turns[-1][1].append(present.move_phrase(action, game.view(player), "en"))
        turns[-1][2].append(present.brief_phrase(action, game.view(player), "en"))
        current = game.current_player
        if current is None:
            return
        recent: list[str] = []
        brief: list[str] = []
        for who, phrases, short in reversed(turns):
            if who == current:
                break
            recent.insert(0, present.turn_line(who, phrases, NAMES, "en"))
            brief.insert(0, present.turn_line(who, present.brief_moves(short, "en"), NAMES, "en"))
        view = game.view(None)
        yield view, present.table_text(view, NAMES, "en", recent=recent, recent_brief=brief)


@pytest.mark.parametrize(
    ("name", "players"),
    [("classic", 4), ("parlett", 4), ("500", 4), ("parlett", 7), ("500", 8)],
)
def test_the_table_text_stays_about_phone_length(name: str, players: int) -> None:
    lengths = sorted(len(text) for seed in (1, 2) for _, text in texts(name, players, seed))
    assert lengths[len(lengths) * 9 // 10] <= present.PHONE_TEXT
    assert lengths[-1] <= present.PHONE_TEXT * 11 // 10


@pytest.mark.parametrize(("name", "players"), [("parlett", 7), ("500", 4), ("500", 8)])
def test_a_shorter_table_text_keeps_what_the_picture_shows(name: str, players: int) -> None:
    brief = 0
    for view, text in texts(name, players, 3):
        for seat in view.seats:
            assert f"{NAMES[seat.player]} {seat.score} (" in text
        assert f"Stock: {view.stock_size} card" in text
        assert f"Discard pile: {view.discard_size} card" in text
        assert f"Dealer: {next(NAMES[s.player] for s in view.seats if s.is_dealer)}" in text
        if view.discard and not view.ruleset.deep_discard:
            assert present.card_text(view.discard[-1]) in text
        for meld in view.melds:
            assert f"#{meld.id} " in text
        if "Scores (cards held):" in text:  # told shorter
            brief += 1
            for meld in view.melds:  # by owner, each after its owner's name
                line = next(li for li in text.splitlines() if f"#{meld.id} " in li)
                assert line.startswith(f"{NAMES[meld.owner]}: ") or "•" in line
    assert brief, "no state long enough to be told shorter"


def test_a_run_is_told_by_its_ends_and_melds_by_their_owner() -> None:
    melds = [
        scenes.run(1, "ann", Suit.HEARTS, 4, 4),
        scenes.run(2, "bob", Suit.SPADES, 4, 3),
        scenes.run(3, "ann", Suit.CLUBS, 9, 4),
    ]
    table = scenes.view(preset("classic"), scenes.seats(["ann", "bob"]), melds=melds)
    assert present.melds_by_owner(table, NAMES) == [
        "Ann: #1 4♥–7♥ · #3 9♣–Q♣",
        "Bob: #2 4♠ 5♠ 6♠",  # three cards say it as short
    ]
