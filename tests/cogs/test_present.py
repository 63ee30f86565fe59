"""The text forms and the menus, checked against the engine over many random game states:
menus respect Discord's limits and offer only legal moves, and every text a player may copy
or send back means what it showed."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterator

import discord
import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    Game,
    GameView,
    LayOff,
    Meld,
    PlayerError,
    full_pack,
    parse_cards,
    preset,
)
from bot.rummy.players import random_action
from cogs.ui import components, items, present, typed
from cogs.ui.seat_items import SeatButton

GAMES = int(os.environ.get("RUMMY_PROPERTY_EXAMPLES", "20"))
"""Random games per case (`make soak`: 100)."""
EVERY = 3
"""Which states of a game are checked: one move in three, each game from its own offset, so
both phases of a turn come in every game and the games together check every move number.
Next to each other, the states of one game differ by one move."""
NAMES = {p: p.upper() for p in ("ann", "bob", "cat", "dan", "eve", "fay", "gus")}


def states(name: str, players: int, seed: int, **options: object) -> Iterator[Game]:
    """Every third state of a random game (the game itself, changing between yields)."""
    game = Game.new(preset(name, **options), list(NAMES)[:players], seed=seed)
    rng = random.Random(seed)
    for step in range(400):
        if game.is_over:
            return
        if step % EVERY == seed % EVERY:
            yield game
        game.apply(random_action(game, rng))


CASES = [
    ("classic", 2, {}),
    ("classic", 4, {"limit_layoffs": True}),
    ("parlett", 2, {}),
    ("parlett", 7, {}),
    ("500", 3, {"jokers": True}),
    ("500", 8, {}),
]


def _items(view: discord.ui.View) -> list[discord.ui.Item[discord.ui.View]]:
    return list(view.children)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_hand_menus_respect_discord_limits_and_offer_only_legal_moves(
    name: str, players: int, options: dict[str, object]
) -> None:
    offered = 0
    for seed in range(GAMES):
        for game in states(name, players, seed, **options):
            player = game.current_player
            assert player is not None
            view = game.view(player)
            legal = game.legal_actions(player)
            built = components.hand_view(7, view, legal, "en")
            assert built is not None
            rows = {item.row for item in _items(built)}
            assert len(rows) <= components.MAX_ROWS
            for item in _items(built):
                data = item.to_component_dict()
                assert len(data["custom_id"]) <= 100
                if isinstance(item, SeatButton):  # Leave the game: asks first, for any turn
                    assert data["custom_id"] == "rummy:seat:leave:7"
                    continue
                assert data["custom_id"].endswith(f":7:{view.turn}")
                if isinstance(item, items.MoveSelect):
                    options_ = data["options"]
                    assert 1 <= len(options_) <= 25
                    for option in options_:
                        assert len(option["label"]) <= 100
                        assert len(option["value"]) <= 100
                        action = present.decode_action(option["value"])
                        assert game.why_not(action, player) is None, (option, game)
                        offered += 1
                elif isinstance(item, items.MoveButton):
                    assert len(data["label"]) <= 80
                    assert game.why_not(item.action(), player) is None
            # Nobody else gets move components.
            for other in game.players:
                if other != player:
                    assert components.hand_view(7, game.view(other), [], "en") is None
    assert offered > 0


def test_a_huge_hand_splits_its_discards_over_two_menus() -> None:
    game = Game.new(preset("500"), ["ann", "bob"], seed=1)
    view = game.view("ann")
    pack = [c for c in full_pack(2) if c.copy == 0][:30]
    big = dataclasses.replace(view, hand=tuple(pack), phase=view.phase.__class__("play"))
    legal: list[Action] = [Discard(c) for c in pack]
    built = components.hand_view(1, big, legal, "en")
    assert built is not None
    selects = [i for i in _items(built) if isinstance(i, items.MoveSelect)]
    sizes = [len(i.to_component_dict()["options"]) for i in selects]
    assert sizes == [25, 5]
    values = [o["value"] for i in selects for o in i.to_component_dict()["options"]]
    assert sorted(present.decode_action(v).card for v in values) == sorted(pack)  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_text_forms_read_back(name: str, players: int, options: dict[str, object]) -> None:
    for seed in range(max(1, GAMES // 2)):
        for game in states(name, players, seed, **options):
            player = game.current_player
            assert player is not None
            view = game.view(player)
            text = present.hand_text(view, NAMES, "en")
            assert len(text) <= 2000
            line = text.splitlines()[0]
            shown = line.split(": ", 1)[1]
            assert sorted(c.face for c in parse_cards(shown)) == sorted(c.face for c in view.hand)
            table = present.table_text(game.view(None), NAMES, "en", recent=["x"] * 3)
            assert len(table) <= 2000
            for meld in view.melds:
                if len(table) < 1900:  # in full, or by owner when that is too long
                    assert present.meld_line(meld, NAMES) in table or f"#{meld.id} " in table
            for action in game.legal_actions(player):
                code = present.action_code(action, view)
                assert code is not None
                assert present.decode_action(code) is not None
                _check_typed_value(game, player, view, action)


def _check_typed_value(game: Game, player: str, view: GameView, action: Action) -> None:
    """What autocomplete offers for a play, typed back, makes the same meld on the table."""
    if isinstance(action, Meld):
        again: Action = typed.meld_action(str(action).removeprefix("meld "))
    elif isinstance(action, LayOff):
        text = str(action).removeprefix(f"layoff {action.meld_id} ")
        again = typed.layoff_action(text, action.meld_id)
    else:
        return
    mine, theirs = game.copy(), game.copy()
    mine.apply(again, player)
    theirs.apply(action, player)
    assert _table(mine) == _table(theirs), (str(action), action)


def _table(game: Game) -> list[tuple[tuple[int, int, object], ...]]:
    return [tuple((p.card.face[0], p.rank, p.suit) for p in m.cards) for m in game.view(None).melds]


def test_typed_text_refuses_absurd_input_as_a_player_error() -> None:
    for text in ("\U0001f600" * 400, "7h" * 200, "jk=zz", "5h 6h jk=", "7h 8x 9h"):
        with pytest.raises(PlayerError):
            typed.meld_action(text)
    action = typed.meld_action("\u200b5h 6h JK=7h")
    assert [str(c) for c in action.cards] == ["5♥", "6♥", "JK"]
    assert str(action) == "meld 5♥ 6♥ JK=7♥"
    assert typed.meld_action("5h 6h jk", 2).reading == 1
    assert typed.reading_number("2: 5♥ 6♥ JK=7♥") == 2
    with pytest.raises(PlayerError):
        typed.reading_number("9" * 400)


def test_lobby_and_rules_text_name_the_options_in_both_languages() -> None:
    ruleset = preset("parlett", two_decks=True, target=250)
    english = present.lobby_text(ruleset, ["Ann", "Bob"], "Ann", "en")
    french = present.lobby_text(ruleset, ["Ann", "Bob"], "Ann", "fr")
    assert "250" in english
    assert "Two decks with four or five players, ten cards each" in english
    assert "Deux jeux à quatre ou cinq joueurs, dix cartes chacun" in french
    assert "Press Join" in english
    assert "Rejoindre" in french


def test_a_round_summary_names_every_hand_and_the_points() -> None:
    rng = random.Random(3)
    game = Game.new(preset("classic"), ["ann", "bob"], seed=3)
    while not game.view(None).rounds:
        game.apply(random_action(game, rng))
    view = game.view(None)
    result = view.rounds[0]
    text = present.round_text(result, game.players, NAMES, "en")
    assert "Round 1 is over." in text
    for i, player in enumerate(game.players):
        assert f"{NAMES[player]}: hand" in text
        assert f"total {result.totals[i]}" in text


def test_a_rummy_500_round_text_has_every_column_of_its_picture() -> None:
    """Hand, melded, round and total, as the round's picture shows them."""
    rng = random.Random(4)
    game = Game.new(preset("500"), ["ann", "bob", "cat"], seed=4)
    while not game.view(None).rounds:
        game.apply(random_action(game, rng, eagerness=0.9))
    result = game.view(None).rounds[0]
    assert any(result.placed_values)
    lines = present.round_text(result, game.players, NAMES, "en").splitlines()[1:]
    for i, line in enumerate(lines):
        assert f"= {result.hand_values[i]}; melded {result.placed_values[i]}; " in line
        assert line.endswith(f"round {result.points[i]}, total {result.totals[i]}")


def test_a_table_of_seven_players_with_many_melds_fits_in_one_message() -> None:
    game = Game.new(preset("parlett"), list(NAMES), seed=5)
    rng = random.Random(5)
    while not game.is_over and len(game.view(None).melds) < 30 and not game.view(None).rounds:
        game.apply(random_action(game, rng, eagerness=1.0))
    text = present.table_text(game.view(None), dict.fromkeys(NAMES, "N" * 32), "fr")
    assert len(text) <= 2000


def test_a_card_code_round_trips_for_every_physical_card() -> None:
    for card in full_pack(2, 2):
        view = Game.new(preset("parlett"), ["a", "b"], seed=1).view("a")
        code = present.action_code(Discard(card), view)
        assert code is not None
        assert present.decode_action(code) == Discard(card)
    with pytest.raises(PlayerError):
        present.decode_action("m:zz")
    assert isinstance(Card.parse("10h"), Card)
