"""A stored game back in memory: its snapshot with its log, else a replay of the log."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.rummy import Game, Ruleset, action_from_json
from bot.storage import GameRecord

log = logging.getLogger(__name__)


def restore_game(record: GameRecord, actions: Sequence[dict[str, Any]]) -> Game:
    """The engine's game of a stored, dealt record whose stored log is ``actions``.

    The snapshot holds the state after the last committed action but not the log, which is
    stored once, row by row; loading the snapshot is fast (no replay), and the replay is the
    fallback when a snapshot does not load, so a bad snapshot costs time, never the game.
    """
    if record.snapshot is not None:
        try:
            game = Game.from_json(record.snapshot, log_json=actions)
            if len(game.log) == record.action_count and game.players == record.players:
                return game
            log.warning("game %s: snapshot disagrees with its log; replaying the log", record.id)
        except Exception:
            log.exception("game %s: snapshot does not load; replaying the log", record.id)
    return Game.replay(
        Ruleset.from_json(record.ruleset),
        record.players,
        record.seed,
        [action_from_json(a) for a in actions],
    )
