"""What the table picture must show, checked on its layout."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bot.rummy.cards import Suit
from bot.rummy.rules import preset
from rendering import layout_table
from rendering.layout import CardItem, Dot, Label, Layout
from rendering.style import WIDTH
from rendering.table import CARD_WIDTHS, DOT, table_size
from rendering.text import ELLIPSIS
from rendering.theme import DARK, player_colour
from tests.rendering import scenes


def texts(layout: Layout) -> dict[str, str]:
    return {i.name: i.text for i in layout.items if isinstance(i, Label)}


def cards(layout: Layout) -> list[CardItem]:
    return [i for i in layout.items if isinstance(i, CardItem)]


def test_every_meld_is_labelled_with_its_number_on_a_badge() -> None:
    view = scenes.crowded_table()
    layout = layout_table(view, names=scenes.CROWDED_NAMES)
    badges = {i.name: i for i in layout.items if isinstance(i, Label) and i.kind == "meld"}
    assert set(badges) == {f"meld:{m.id}" for m in view.melds}
    for meld in view.melds:
        badge = badges[f"meld:{meld.id}"]
        assert badge.text == str(meld.id)
        assert badge.background == DARK.badge


def test_every_player_has_name_count_score_and_the_dealer_and_turn_are_tagged() -> None:
    view = scenes.classic_table()
    shown = texts(layout_table(view, names=scenes.NAMES))
    for seat in view.seats:
        assert shown[f"name:{seat.seat}"] == scenes.NAMES.get(seat.player, seat.player)
        assert shown[f"cards:{seat.seat}"].startswith(f"{seat.hand_size} card")
        assert shown[f"score:{seat.seat}"] == f"{seat.score} pts"
    assert "dealer:0" in shown
    assert "turn:1" in shown
    assert shown["turn"] == "▶ Bob"  # "to play" gives way before a name is cut
    assert shown["title"] == "Round 3"  # the game's name goes to the line under it
    assert shown["target"] == "Classic Rummy · Target 100"
    assert shown["stock"] == "Stock · 23"


def test_laid_off_cards_get_a_dot_in_the_colour_of_who_laid_them_off_in_500() -> None:
    view = replace(scenes.classic_table(), ruleset=preset("500"))
    layout = layout_table(view, names=scenes.NAMES)
    dots = [i for i in layout.items if isinstance(i, Dot) and i.box.width == DOT]
    seat_of = {s.player: s.seat for s in view.seats}
    expected = [
        player_colour(DARK, seat_of[p.placed_by])
        for m in view.melds
        for p in m.cards
        if p.placed_by != m.owner
    ]
    expected.append(DARK.muted)  # the legend's swatch
    assert sorted(d.colour for d in dots) == sorted(expected)
    assert "legend" in texts(layout)


def test_no_lay_offs_no_legend() -> None:
    view = scenes.benchmark_table()
    assert "legend" not in texts(layout_table(view))


def test_no_lay_off_dots_where_scoring_does_not_depend_on_who_laid_off() -> None:
    layout = layout_table(scenes.classic_table(), names=scenes.NAMES)  # classic has lay-offs
    assert not [i for i in layout.items if isinstance(i, Dot) and i.box.width == DOT]
    assert "legend" not in texts(layout)


def test_jokers_on_the_table_show_what_they_stand_for() -> None:
    view = scenes.crowded_table()
    faces = cards(layout_table(view, names=scenes.CROWDED_NAMES))
    on_table = [c.art for c in faces if c.art.rank == 0 and c.art.stands_for is not None]
    expected = [(p.rank, p.suit) for m in view.melds for p in m.cards if p.card.is_joker]
    assert Counter(a.stands_for for a in on_table) == Counter(expected)
    discard_joker = [
        c.art for c in faces if c.art.rank == 0 and not c.art.back and not c.art.stands_for
    ]
    assert len(discard_joker) == 1


def test_classic_shows_only_the_top_discard() -> None:
    view = replace(scenes.classic_table(), discard=scenes.cards("8s qd"), discard_size=2)
    faces = [c.art for c in cards(layout_table(view)) if not c.art.back]
    shown = {(a.rank, a.suit) for a in faces}
    assert (12, Suit.DIAMONDS) in shown
    assert (8, Suit.SPADES) not in shown


def test_rummy_500_fans_the_whole_pile_with_depths() -> None:
    view = scenes.deep_discard_table()
    layout = layout_table(view, names=scenes.NAMES)
    depth = {i.name: i for i in layout.items if isinstance(i, Label) and i.kind == "depth"}
    boxes = dict(layout.labels)
    pile = [c for c in cards(layout) if c.y < boxes["name:0"].y0]
    assert len(pile) == 40  # the stock is empty, so every card up there is the pile
    top = pile[-1]
    assert (top.art.rank, top.art.suit) == view.discard[-1].face
    assert boxes["depth:1"].x0 >= top.x  # depth 1 sits under the top card
    assert boxes["depth:40"].y0 < boxes["depth:1"].y0  # the deepest cards are in the header
    # Only the true top card is drawn whole: the card ending a row is cut to its strip like
    # every card under the top, so it cannot pass for the top.
    assert top.art.cut == 0
    assert all(c.art.cut > 0 for c in pile[:-1])
    # Forty cards are more than the two rows hold with a depth under each: every second one.
    assert {int(name.split(":")[1]) for name in depth} >= {1, 40, 30, 20, 10}
    assert depth["depth:1"].background == DARK.accent
    assert all(d.background is None for name, d in depth.items() if name != "depth:1")


def test_a_shallow_pile_keeps_to_the_row_in_the_header_with_every_depth() -> None:
    pile = scenes.deep_discard_table().discard
    shallow = layout_table(replace(scenes.deep_discard_table(), discard=pile[:4]))
    shown = texts(shallow)
    assert [shown[f"depth:{d}"] for d in range(1, 5)] == [str(d) for d in range(1, 5)]
    boxes = dict(shallow.labels)
    assert len({boxes[f"depth:{d}"].y0 for d in range(2, 5)}) == 1
    assert boxes["depth:2"].y1 < boxes["name:0"].y0
    deeper = layout_table(replace(scenes.deep_discard_table(), discard=pile[:20]))
    assert deeper.height > shallow.height  # the pile's own row, only when it needs one


def test_long_names_are_cut_with_an_ellipsis_and_ids_stand_in_for_missing_names() -> None:
    layout = layout_table(scenes.crowded_table(), names=scenes.CROWDED_NAMES)
    shown = texts(layout)
    assert shown["name:1"].endswith(ELLIPSIS)
    assert scenes.LONG_NAME.startswith(shown["name:1"][:-1].rstrip())
    assert shown["name:6"].rstrip(ELLIPSIS)  # an empty display name: the id, cut to fit
    assert "112233445566778899".startswith(shown["name:6"].rstrip(ELLIPSIS))
    assert shown["name:2"] == "cpu-1"  # no display name at all


def test_game_over_shows_the_winners() -> None:
    view = scenes.finished_game()
    shown = texts(layout_table(view, names=scenes.NAMES))
    assert shown["banner"] == "★ Game over · Bob wins!"
    assert "winner:1" in shown
    assert "turn" not in shown
    assert not any(name.startswith("nomelds") for name in shown)  # not "yet" at game over


def test_no_melds_yet_during_play() -> None:
    shown = texts(layout_table(scenes.classic_table(), names=scenes.NAMES))
    assert shown["nomelds:2"] == "no melds yet"


def test_a_crowded_table_shrinks_its_cards() -> None:
    players = [f"p{i}" for i in range(8)]
    melds = [  # both decks on the table
        scenes.run(i + 1, players[i % 8], Suit(i % 4), 1 + (i * 3) % 10, 3, copy=i % 2)
        for i in range(36)
    ]
    view = scenes.view(preset("parlett"), scenes.seats(players[:7]), melds=melds[:21])
    layout = layout_table(view)
    boxes = dict(layout.labels)
    widths = {c.art.size.width for c in cards(layout) if c.y > boxes["name:0"].y0}
    assert len(widths) == 1
    assert widths.pop() < CARD_WIDTHS[0]
    assert layout.height <= table_size(view)[1] == WIDTH  # at most as high as wide
    assert not [name for name in boxes if name.startswith("more:")]  # every meld shown


def test_a_table_too_full_for_its_frame_says_how_many_melds_it_leaves_out() -> None:
    melds = [scenes.run(i + 1, "ann", Suit(i % 4), 1, 13, copy=i % 2) for i in range(8)]
    view = scenes.view(preset("500"), scenes.seats(["ann", "bob"]), melds=melds)
    layout = layout_table(view)
    shown = texts(layout)
    badges = [name for name in shown if name.startswith("meld:")]
    assert shown["more:0"] == f"+{8 - len(badges)} more"
    assert 0 < len(badges) < 8
    assert layout.height <= table_size(view)[1]


def test_a_small_table_is_landscape_with_the_largest_cards_that_keep_it_so() -> None:
    layout = layout_table(scenes.classic_table(), names=scenes.NAMES)
    assert layout.height <= 0.65 * layout.width
    boxes = dict(layout.labels)
    melds = {c.art.size.width for c in cards(layout) if c.y > boxes["name:0"].y0}
    assert len(melds) == 1
    assert melds <= set(CARD_WIDTHS[:3])
    two = layout_table(scenes.two_player_table())
    assert {c.art.size.width for c in cards(two) if c.y > 160} == {CARD_WIDTHS[0]}


def test_scores_have_thousands_separators() -> None:
    view = scenes.classic_table()
    seats = (replace(view.seats[0], score=12345), *view.seats[1:])
    shown = texts(layout_table(replace(view, seats=seats), names=scenes.NAMES))
    assert shown["score:0"] == "12,345 pts"


def test_turn_line_fits_with_a_long_name() -> None:
    long = {**scenes.CROWDED_NAMES, "dee": scenes.LONG_NAME * 3}
    layout = layout_table(scenes.crowded_table(), names=long)
    turn = next(i for i in layout.items if isinstance(i, Label) and i.name == "turn")
    assert turn.text.endswith(ELLIPSIS)
    assert turn.box.x1 <= layout.width - 20
