"""The session keeps the table; its turn timer and computer seats act on it only through its
operations (the timer works against a table offering nothing else)."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import bot.sessions
from bot.rummy import Action, Game, preset
from bot.sessions.events import Committed
from bot.sessions.timers import Timing, TurnTimer
from bot.values.clock import utc_now
from bot.values.seats import Deadline

SESSIONS = Path(bot.sessions.__file__).parent


def _private_reads_of_the_table(module: str) -> list[str]:
    """``table._x`` (or ``self._table._x``) in ``module``: a private part of the session."""
    tree = ast.parse((SESSIONS / module).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        owner = node.value
        named = isinstance(owner, ast.Name) and owner.id == "table"
        held = isinstance(owner, ast.Attribute) and owner.attr == "_table"
        if named or held:
            found.append(f"{module}:{node.lineno} .{node.attr}")
    return found


def test_the_timer_and_the_computer_seats_use_no_private_part_of_the_session() -> None:
    assert _private_reads_of_the_table("timers.py") == []
    assert _private_reads_of_the_table("computers.py") == []


def test_the_session_module_neither_plays_computers_nor_waits_on_turns() -> None:
    tree = ast.parse((SESSIONS / "session.py").read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "bot.rummy.computer" not in imported
    sleeps = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "sleep"
    ]
    assert sleeps == []


class _Table:
    """Only what a turn timer may read and do, to show it needs no more."""

    def __init__(self, game: Game | None, *, turn_timer: int = 1, level: str | None = None):
        self.game_id = 1
        self.game = game
        self.closed = False
        self.turn_timer = turn_timer
        self.level = level
        self.tasks: list[asyncio.Task[Any]] = []

    def computer_level(self, player: str) -> str | None:
        return self.level

    def start_task(
        self, coro: Coroutine[Any, Any, Any], name: str | None = None
    ) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self.tasks.append(task)
        return task

    async def play_for(
        self, player: str, action: Action, turn: int, *, by: Literal["computer", "timer"]
    ) -> Committed:
        raise AssertionError("not in these tests")

    async def remind(self, deadline: Deadline) -> Committed | None:
        raise AssertionError("not in these tests")

    async def miss_turn(self, player: str, *, limit: int, stand_in: str) -> Committed | None:
        raise AssertionError("not in these tests")


def _game() -> Game:
    return Game.new(preset("classic"), ["ann", "bob"], seed=3)


def test_a_persons_turn_keeps_its_deadline_and_a_new_turn_gets_a_new_one() -> None:
    game = _game()
    timer = TurnTimer(_Table(game), Timing(minute=60.0))
    before = utc_now()
    first = timer.due(None)
    assert first is not None
    assert (first.turn, first.player) == (game.turn, game.current_player)
    assert before + timedelta(seconds=59) < first.at <= utc_now() + timedelta(seconds=60)
    assert timer.due(first) is first
    assert timer.due(Deadline(game.turn - 1, "bob", first.at)) != first


def test_no_deadline_without_a_timer_on_a_computers_turn_or_before_the_deal() -> None:
    game = _game()
    assert TurnTimer(_Table(game, turn_timer=0), Timing()).due(None) is None
    assert TurnTimer(_Table(game, level="easy"), Timing()).due(None) is None
    assert TurnTimer(_Table(None), Timing()).due(None) is None


async def test_the_timer_waits_on_one_deadline_at_a_time() -> None:
    table = _Table(_game())
    timer = TurnTimer(table, Timing(minute=60.0))
    deadline = timer.due(None)
    timer.follow(deadline)
    timer.follow(deadline)
    assert len(table.tasks) == 1
    timer.follow(None)
    await asyncio.sleep(0)
    assert table.tasks[0].cancelled()
