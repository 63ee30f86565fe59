"""Write the pictures as people see them, to look at before a change lands.

``python -m tests.rendering.preview DIR [LOCALE]`` (or ``make pictures DEST=DIR LOCALE=fr``)
renders the test scenes with 2, 4 and 7 players and a Rummy 500 table, two hands (one also as
a person may choose it: four-colour deck, sorted by rank), a round summary, the score chart,
the standings and a player card, in both themes, with names in several scripts and the words
of the catalog ``LOCALE`` (English by default), each three times: full size, scaled into
Discord's desktop box (550 x 350) and to a phone's 360 px width. Discord scales a picture
down, never up, so the first two of a small picture can be the same.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from pathlib import Path

from PIL import Image

from bot.i18n import t
from cogs.ui.picture_words import picture_words
from rendering import (
    render_hand,
    render_player_card,
    render_round_summary,
    render_score_chart,
    render_standings,
    render_table,
)
from tests.rendering import scenes

DESKTOP = (550, 350)
PHONE_WIDTH = 360

TWO = {"ann": "Zoë Ångström", "bob": "Дмитрий Шостакович"}
FOUR = {"ann": "Šárka Čechová", "bob": "李小龙", "cpu-1": "سارا", "dee": "🤖 Renée 🔥"}
"""(with a seat a computer plays for a person who left or missed turns: its mark)"""
SEVEN = {
    "ann": "Zoë Ångström",
    "bob": "Дмитрий",
    "cpu-1": "Šárka Čechová",
    "dee": "李小龙",
    "cpu-2": "سارا",
    "eve": "Renée 🔥",
    "112233445566778899": "山田 はなこ",
}


def as_seen(png: bytes) -> dict[str, Image.Image]:
    """The picture full size, in the desktop box and at phone width."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    desktop = min(DESKTOP[0] / width, DESKTOP[1] / height, 1.0)
    phone = PHONE_WIDTH / width
    return {
        "full": image,
        "550": image.resize(
            (round(width * desktop), round(height * desktop)), Image.Resampling.LANCZOS
        ),
        "360": image.resize((PHONE_WIDTH, round(height * phone)), Image.Resampling.LANCZOS),
    }


def pictures(theme: str, locale: str = "en") -> Mapping[str, bytes]:
    words = picture_words(locale)
    view, result = scenes.hand_scoring_round()
    over = scenes.finished_game()
    return {
        "table2": render_table(scenes.two_player_table(), names=TWO, theme=theme, words=words),
        "table4": render_table(scenes.classic_table(), names=FOUR, theme=theme, words=words),
        "table4_500": render_table(
            scenes.deep_discard_table(), names=FOUR, theme=theme, words=words
        ),
        "table7": render_table(scenes.crowded_table(), names=SEVEN, theme=theme, words=words),
        "hand13": render_hand(scenes.thirteen_card_hand(), theme=theme, words=words),
        "hand13_four_rank": render_hand(
            scenes.thirteen_card_hand(), theme=theme, words=words, four_colour=True, sort_by="rank"
        ),
        "hand_take": render_hand(scenes.deep_take_hand(), theme=theme, words=words),
        "summary": render_round_summary(view, result, names=scenes.NAMES, theme=theme, words=words),
        "chart": render_score_chart(over, names=scenes.NAMES, theme=theme, words=words),
        "standings": render_standings(
            scenes.standings(),
            title=t("league.title_picture", locale, season=3),  # as /rummy league has it
            page=1,
            pages=2,
            theme=theme,
            words=words,
        ),
        "player_card": render_player_card(scenes.player_card(), theme=theme, words=words),
    }


def write(folder: Path, locale: str = "en") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for theme in ("dark", "light"):
        for name, png in pictures(theme, locale).items():
            for size, image in as_seen(png).items():
                path = folder / f"{name}_{theme}_{size}.png"
                image.save(path)
                written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: python -m tests.rendering.preview DIR [LOCALE]", file=sys.stderr)
        return 2
    for path in write(Path(argv[0]), *argv[1:]):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
