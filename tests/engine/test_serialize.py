"""Saving and loading games: a restored game is the same game, plays on the same way, and
damaged data is refused with one typed error.

The round trip is checked by behaviour, not by comparing saved text: a restored copy and
the live game play on side by side, and every view and every list of legal actions must
agree at every move. A serializer that forgot a field (say, the card a Rummy 500 player
must use) would let the copy offer a move the live game refuses.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rummy import Game, SnapshotError, TakeDiscard, preset
from bot.rummy.players import random_action
from bot.rummy.state import GameState
from tests.engine.invariants import random_probe

SNAPSHOTS = Path(__file__).parent / "snapshots"
STORED = sorted(SNAPSHOTS.glob("v1-*.json"))

CASES = [
    ("classic", 3, {}),
    ("parlett", 6, {}),
    ("parlett", 4, {"two_decks": True, "ace_high": True}),
    ("500", 3, {"jokers": True}),
    ("500", 6, {"limit_layoffs": True}),
]


def assert_same_behaviour(live: Game, restored: Game, steps: int, rng: random.Random) -> None:
    """Play ``live`` and ``restored`` on side by side with the same actions, comparing what
    every player sees, what the current player may do, and one refusal, at every move."""
    for _ in range(steps):
        assert restored == live
        for viewer in [*live.players, None]:
            assert restored.view(viewer) == live.view(viewer)
        player = live.current_player
        if player is None:
            return
        assert restored.legal_actions(player) == live.legal_actions(player)
        probe = random_probe(live, rng)
        assert restored.why_not(probe) == live.why_not(probe)
        action = random_action(live, rng)
        live.apply(action, player)
        restored.apply(action, player)


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=lambda c: str(c))
def test_a_restored_game_plays_on_like_the_live_one(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """From states all through a game (a full save, and a snapshot whose log is stored
    apart, as the sessions do), the restored copy behaves like the live game."""
    ruleset = preset(name, target=100, **options) if name != "500" else preset(name, **options)
    seen_must_use = False
    for seed in range(3):
        game = Game.new(ruleset, [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        for step in range(400):
            if game.is_over:
                break
            seen_must_use |= game.state.must_use is not None
            if step % 9 == 0 or game.state.must_use is not None:
                full = Game.from_json(game.to_json())
                apart = Game.from_json(game.to_json(include_log=False), log_json=game.log_json)
                branch = random.Random(step)
                assert_same_behaviour(game.copy(), full, 6, branch)
                assert_same_behaviour(game.copy(), apart, 1, branch)
            game.apply(random_action(game, rng))
    if name == "500":
        assert seen_must_use, "no deep take happened: the must-use card went untested"


def test_a_deep_take_survives_a_save() -> None:
    """The must-use card of a Rummy 500 deep take is part of what is saved."""
    game = stored_game("v1-500-must-use")
    assert game.state.must_use is not None
    restored = Game.from_json(game.to_json())
    assert restored.state.must_use == game.state.must_use
    assert_same_behaviour(game, restored, 4, random.Random(1))


def test_equality_is_on_the_state_not_on_the_text() -> None:
    game = Game.new(preset("parlett"), ["ann", "bob"], seed=3)
    other = game.copy()
    assert other == game
    assert repr(other) == repr(game) == "<Game parlett round 1 turn 1 draw players=['ann', 'bob']>"
    other.state.must_use = other.state.hands[0][0]
    assert other != game
    assert game.copy() == game
    assert game.copy().state is not game.state


def test_every_field_of_the_state_is_saved() -> None:
    """Changing any one field of the state changes the saved form, and loads back."""
    game = stored_game("v1-500-must-use")
    state = game.state
    changed: dict[str, Any] = {
        "ruleset": preset("500", jokers=True, target=400),
        "players": ("p0", "p1", "px"),
        "seed": state.seed + 1,
        "deck": tuple(state.stock[:2]),
        "round_no": state.round_no + 1,
        "dealer": (state.dealer + 1) % 3,
        "current": (state.current + 1) % 3,
        "phase": type(state.phase)("draw"),
        "turn": state.turn + 1,
        "turns_completed": state.turns_completed + 1,
        "turnovers": state.turnovers + 1,
        "hands": [state.hands[0], state.hands[1], [*state.hands[2], *state.stock[:1]]],
        "stock": state.stock[1:],
        "discard": [*state.discard, *state.stock[:1]],
        "melds": [dataclasses.replace(m, owner="p2") for m in state.melds],
        "next_meld_id": state.next_meld_id + 1,
        "scores": [s + 1 for s in state.scores],
        "has_melded": [not h for h in state.has_melded],
        "no_discard": state.hands[state.current][0],
        "must_use": None,
        "drawn": (),
        "layoff_cards": state.layoff_cards + 1,
        "rounds": state.rounds[:-1],
        "winner_seats": (1,),
        "log": state.log[:-1],
    }
    assert set(changed) == {f.name for f in dataclasses.fields(GameState)}
    for name, value in changed.items():
        assert getattr(state, name) != value, name
        other = Game(dataclasses.replace(state, **{name: value}))
        saved = other.to_dict()
        assert saved != game.to_dict(), name
        if name not in ("hands", "stock", "discard", "players", "current"):  # refused: unsound
            assert getattr(Game.from_json(saved).state, name) == value, name


# --- snapshots stored by earlier versions --------------------------------------------------


def stored_game(stem: str) -> Game:
    return Game.from_json((SNAPSHOTS / f"{stem}.json").read_text())


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_stored_snapshots_load_and_save_unchanged(path: Path) -> None:
    text = path.read_text()
    game = Game.from_json(text)
    assert game.to_json() == text
    without_log = json.loads(text)
    without_log["log"] = None
    assert Game.from_json(without_log, log_json=game.log_json) == game
    replayed = Game.replay(game.ruleset, game.players, game.seed, game.log, game.state.deck)
    assert replayed == game
    assert_same_behaviour(replayed, game, 10, random.Random(0))


def test_stored_snapshots_exist() -> None:
    assert len(STORED) >= 2


# --- damaged data --------------------------------------------------------------------------


def test_every_truncation_of_a_save_is_refused_with_one_error() -> None:
    text = (SNAPSHOTS / "v1-500-must-use.json").read_text()
    for end in range(0, len(text), 7):
        with pytest.raises(SnapshotError):
            Game.from_json(text[:end])
    with pytest.raises(SnapshotError):
        Game.from_json(text.encode()[:-3])


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("state"),
        lambda d: d.pop("ruleset"),
        lambda d: d["state"].pop("hands"),
        lambda d: d["state"].pop("must_use") and d.update(version=7),
        lambda d: d.update(version="1"),
        lambda d: d.update(format="chess"),
        lambda d: d.update(players="p0 p1 p2"),
        lambda d: d.update(seed=None),
        lambda d: d["ruleset"].update(target="lots"),
        lambda d: d["ruleset"].update(max_players=-1),
        lambda d: d["ruleset"].update(colour="red"),
        lambda d: d["state"].update(phase="nap"),
        lambda d: d["state"].update(current=9),
        lambda d: d["state"].update(turn=True),
        lambda d: d["state"].update(scores=[1, 2]),
        lambda d: d["state"]["hands"][0].append("11h"),
        lambda d: d["state"]["hands"][0].append("Zz"),
        lambda d: d["state"]["hands"][0].append("10h#" + "9" * 5000),
        lambda d: d["state"]["hands"][0].append(["10h"]),
        lambda d: d["state"]["hands"][0].pop(),
        lambda d: d["state"]["stock"].append(d["state"]["discard"][0]),
        lambda d: d["state"]["melds"][0]["cards"].pop(),
        lambda d: d["state"]["melds"][0]["cards"][0].pop(),
        lambda d: d["state"]["melds"][0].update(kind="pair"),
        lambda d: d["state"]["melds"][0]["cards"][0].__setitem__(2, "x"),
        lambda d: d["state"]["rounds"][0].pop("totals"),
        lambda d: d["state"]["rounds"][0].update(reason=3),
        lambda d: d["log"].append({"type": "fly"}),
        lambda d: d["log"].append({"type": "meld", "cards": "7h 8h 9h"}),
        lambda d: d["log"].append({"type": "take", "depth": "2"}),
        lambda d: d["log"].append({"type": "meld", "cards": [], "reading": {"slots": 3}}),
        lambda d: d["log"].append(None),
        lambda d: d.update(log={}),
    ],
)
def test_damaged_saves_are_refused_with_one_error(damage: Any) -> None:
    data = json.loads((SNAPSHOTS / "v1-500-must-use.json").read_text())
    damage(data)
    with pytest.raises(SnapshotError):
        Game.from_json(data)


def test_json_that_is_no_object_is_refused() -> None:
    texts: list[str | bytes] = ["[]", "null", "3", '"game"', "[" * 100_000, b"\xff\xfe", "{}"]
    for text in texts:
        with pytest.raises(SnapshotError):
            Game.from_json(text)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_damage_to_a_save_loads_a_sound_game_or_raises_snapshot_error(
    data: st.DataObject,
) -> None:
    """Replace or delete any part of a save: the result is a game that works, or a
    SnapshotError; never another exception."""
    saved = json.loads((SNAPSHOTS / "v1-500-must-use.json").read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(saved)[1:]))
        parent = saved
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()):
            parent[path[-1]] = data.draw(JSON)
        elif isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    try:
        game = Game.from_json(saved)
    except SnapshotError:
        return
    game.view(game.current_player)
    for action in game.legal_actions()[:20]:
        game.why_not(action)
    game.why_not(TakeDiscard(2))


def test_the_serializer_does_not_import_the_game() -> None:
    """The game uses the serializer, never the other way round: no import cycle."""
    for module in ("serialize", "state"):
        source = (Path(__file__).parents[2] / "bot" / "rummy" / f"{module}.py").read_text()
        imported = {
            alias.name if isinstance(node, ast.Import) else str(node.module)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        assert "bot.rummy.game" not in imported, module


def test_a_damaged_log_stored_apart_is_refused_with_one_error() -> None:
    game = stored_game("v1-500-must-use")
    snapshot = game.to_json(include_log=False)
    damaged = [
        {"type": "zzz"},
        {"type": "discard", "card": 7},
        {"type": "discard", "card": "Zz"},
        {"type": "meld", "cards": ["7h", "8h", "9x"]},
        "draw",
        {"type": "take"},
    ]
    for entry in damaged:
        if entry == {"type": "take"}:
            assert Game.from_json(snapshot, log_json=[entry]).log == (TakeDiscard(1),)
            continue
        with pytest.raises(SnapshotError):
            Game.from_json(snapshot, log_json=[*game.log_json, entry])  # type: ignore[list-item]
