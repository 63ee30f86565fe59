"""Titles and banners never cut a name: the longest names the bot keeps (Discord's 32
characters), in every script it draws, in every title that names a player — the round
summary's "went out" and "ended the round" titles, the game's result on the summary and on
the table — in every language the bot speaks. The layout makes room (another line) first;
what a title shows, read line after line, holds the whole name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import rendering
from bot.i18n import available_locales
from bot.rummy.rules import preset
from bot.rummy.views import GameView, RoundEnd, RoundResult
from cogs.ui.picture_words import picture_words
from rendering.layout import Label, Layout
from rendering.text import ELLIPSIS
from tests.rendering import scenes
from tests.rendering.test_phone import LONGEST

PLAYERS = ("ann", "bob", "cat", "dan")
TITLES = ("title", "banner")


def _round(reason: RoundEnd, ender: str, over: bool) -> tuple[GameView, RoundResult]:
    hand = scenes.cards("2c 5d 9h ks")
    result = RoundResult(
        round_no=12,
        reason=reason,
        ender=ender,
        hands=((), hand, hand, hand),
        hand_values=(0, 26, 26, 26),
        placed_values=(0, 0, 0, 0),
        points=(78, 0, 0, 0),
        totals=(178, 40, 30, 20),
    )
    winners = (ender,) if over else ()
    table = scenes.view(
        preset("classic"),
        scenes.seats(PLAYERS, scores=(178, 40, 30, 20), current=None if over else 1),
        rounds=(result,),
        winners=winners,
        round_no=12,
    )
    return table, result


def titles(layout: Layout) -> list[str]:
    return [i.text for i in layout.items if isinstance(i, Label) and i.name.split(":")[0] in TITLES]


def cases(name: str) -> Iterator[tuple[str, Layout]]:
    names = {"ann": name, "bob": "Bob", "cat": "Cat", "dan": "Dan"}
    for loc in available_locales():
        words = picture_words(loc)
        for reason in (RoundEnd.WENT_OUT, RoundEnd.ENDED):
            for over in (False, True):
                view, result = _round(reason, "ann", over)
                summary = rendering.layout_round_summary(view, result, names=names, words=words)
                yield f"summary {loc} {reason.value} over={over}", summary
                if over:
                    table = rendering.layout_table(view, names=names, words=words)
                    yield f"table {loc} over", table


@pytest.mark.parametrize("name", LONGEST)
def test_no_title_cuts_a_name(name: str) -> None:
    for case, layout in cases(name):
        shown = titles(layout)
        assert not any(text.endswith(ELLIPSIS) for text in shown), (case, shown)
        assert name.replace(" ", "") in "".join(shown).replace(" ", ""), (case, shown)
        assert all(i.box.inside(*layout.size) for i in layout.items if isinstance(i, Label))


def test_a_title_too_long_for_its_lines_would_be_cut() -> None:
    """The check sees a cut: a name far longer than the bot keeps does not fit four lines."""
    view, result = _round(RoundEnd.WENT_OUT, "ann", False)
    layout = rendering.layout_round_summary(view, result, names={"ann": "Ann" + "x" * 400})
    assert any(text.endswith(ELLIPSIS) for text in titles(layout))
