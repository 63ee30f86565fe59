"""The pictures in docs/pictures/, which the README and docs/ show, made by the bot's own
picture code so they cannot drift from what a player sees.

``python -m tests.rendering.readme_pictures DIR`` (``make readme-pictures`` writes them into
docs/pictures/) renders:

- one seeded classic game of four, played from the deal by the engine's *normal* computer
  players: the table as Ann's turn begins in the second round, her hand once she has drawn,
  and the summary of the first round;
- a Russian and a Czech table, hand, round summary and standings, from the preview's scenes.

Each is scaled as Discord shows it (the 550 x 350 desktop box, or a phone's 360 px width).
``tests/rendering/test_readme_pictures.py`` renders them again and compares.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.rummy.computer import make_player
from bot.rummy.game import Game
from bot.rummy.rules import preset
from bot.rummy.views import GameView, Phase, RoundResult
from rendering import render_hand, render_round_summary, render_table
from tests.rendering import preview

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "pictures"
COMMAND = "make readme-pictures"
"""What rewrites the pictures after an intended change (named by the test that fails)."""

SEED = 27
LEVEL = "normal"
NAMES = {"ann": "Ann", "bob": "Bob", "cpu-1": "Computer 1", "dee": "Dee"}
ANN_TURN_OF_ROUND_TWO = 6
"""Which of Ann's turns in the second round the table and her hand show."""

TRANSLATED = {
    "table-4-players-dark-550": ("table4", "dark", "550"),
    "hand-13-cards-light-360": ("hand13", "light", "360"),
    "round-summary-rummy500-dark-550": ("summary", "dark", "550"),
    "league-standings-light-550": ("standings", "light", "550"),
}
"""A translated picture's name (after its locale) and the preview's picture, theme and size."""


@dataclass(frozen=True, slots=True)
class Moments:
    """What the README shows of the seeded game."""

    table: GameView
    hand: GameView
    summary: tuple[GameView, RoundResult]


def played() -> Moments:
    """Play the seeded game to the end of its second round, keeping Ann's chosen turn."""
    players = list(NAMES)
    game = Game.new(preset("classic"), players, seed=SEED)
    computers = {player: make_player(LEVEL) for player in players}
    turn_of_ann: tuple[GameView, GameView] | None = None
    ann_turns = 0
    for turn in range(1000):
        player = game.current_player
        assert player is not None, "the game ended within two rounds"
        seen = game.view(player)
        table = game.view(None)
        action = computers[player].choose(seen, game.legal_actions(player), random.Random(turn))
        game.apply(action, player)
        after = game.view(None)
        if len(after.rounds) == 2:
            assert turn_of_ann is not None, "the second round ended before Ann's chosen turn"
            return Moments(*turn_of_ann, summary=(after, after.rounds[-1]))
        if len(table.rounds) == 1 and player == "ann" and seen.phase is Phase.DRAW:
            ann_turns += 1
            if ann_turns == ANN_TURN_OF_ROUND_TWO:
                turn_of_ann = (table, game.view("ann"))
    raise AssertionError("the seeded game's second round never ended")


def as_discord_shows(png: bytes, size: str) -> bytes:
    """``png`` scaled as Discord shows it: ``size`` is "550" (desktop) or "360" (phone)."""
    out = io.BytesIO()
    preview.as_seen(png)[size].save(out, format="PNG")
    return out.getvalue()


def pictures() -> Mapping[str, bytes]:
    """Every picture of docs/pictures/, by file name."""
    moments = played()
    view, result = moments.summary
    found = {
        "en-table-classic-dark-550.png": as_discord_shows(
            render_table(moments.table, names=NAMES), "550"
        ),
        "en-hand-dark-550.png": as_discord_shows(render_hand(moments.hand), "550"),
        "en-round-summary-dark-550.png": as_discord_shows(
            render_round_summary(view, result, names=NAMES), "550"
        ),
    }
    for locale in ("ru", "cs"):
        themes = {theme: preview.pictures(theme, locale) for theme in ("dark", "light")}
        for name, (picture, theme, size) in TRANSLATED.items():
            found[f"{locale}-{name}.png"] = as_discord_shows(themes[theme][picture], size)
    return found


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, png in pictures().items():
        path = folder / name
        path.write_bytes(png)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.rendering.readme_pictures DIR", file=sys.stderr)
        return 2
    for path in write(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
