"""What the hand picture must show, checked on its layout."""

from __future__ import annotations

import pytest

from bot.rummy.cards import Card
from rendering import layout_hand, sorted_hand
from rendering.hand import SIZE, STEP
from rendering.layout import CardItem, Label, Layout, Rect
from rendering.sprites import CardArt, sprite
from rendering.theme import DARK
from tests.rendering import scenes


def labels(layout: Layout) -> dict[str, Label]:
    return {i.name: i for i in layout.items if isinstance(i, Label)}


def faces(layout: Layout) -> list[tuple[int, object]]:
    return [(i.art.rank, i.art.suit) for i in layout.items if isinstance(i, CardItem)]


@pytest.mark.parametrize("sort_by", ["suit", "rank"])
def test_cards_are_drawn_in_sorted_order_with_an_index_under_each(sort_by: str) -> None:
    view = scenes.thirteen_card_hand()
    layout = layout_hand(view, sort_by=sort_by)
    ordered = sorted_hand(view.hand, sort_by)
    assert faces(layout) == [c.face for c in ordered]
    shown = labels(layout)
    assert [shown[f"index:{n}"].text for n in range(1, 14)] == [str(n) for n in range(1, 14)]


def test_suit_and_rank_orders_differ_as_documented() -> None:
    hand = scenes.cards("kc jk 2d 2c")
    assert [str(c) for c in sorted_hand(hand, "suit")] == ["2♣", "K♣", "2♦", "JK"]
    assert [str(c) for c in sorted_hand(hand, "rank")] == ["2♣", "2♦", "K♣", "JK"]


def test_unknown_sort_is_refused() -> None:
    with pytest.raises(ValueError, match="sort_by"):
        layout_hand(scenes.thirteen_card_hand(), sort_by="colour")


def test_drawn_kept_and_must_use_cards_are_marked_distinctly() -> None:
    view = scenes.thirteen_card_hand()
    layout = layout_hand(view)
    ordered = sorted_hand(view.hand)
    position = {card: n for n, card in enumerate(ordered, start=1)}
    shown = labels(layout)
    marks = {name for name in shown if name.startswith("mark:")}
    three, nine = Card.parse("3h"), Card.parse("9s")
    assert marks == {
        f"mark:{position[three]}:NEW",
        f"mark:{position[three]}:KEEP",
        f"mark:{position[nine]}:NEW",
        f"mark:{position[nine]}:USE",
    }
    colours = {shown[m].background for m in marks}
    assert len(colours) == 3
    for tag in ("NEW", "KEEP", "USE"):
        assert f"legend:{tag}" in shown


def test_marks_follow_the_physical_card_not_its_twin() -> None:
    view = scenes.thirty_card_hand()  # holds K♠ and its twin K♠#2; only the twin was drawn
    layout = layout_hand(view)
    ordered = sorted_hand(view.hand)
    twin = next(n for n, c in enumerate(ordered, start=1) if c == Card.parse("ks#2"))
    assert [n for n in labels(layout) if n.startswith("mark:")] == [f"mark:{twin}:NEW"]


def test_thirty_cards_wrap_onto_two_rows() -> None:
    layout = layout_hand(scenes.thirty_card_hand())
    shown = labels(layout)
    rows = {shown[f"index:{n}"].box.y0 for n in range(1, 31)}
    assert len(rows) == 2
    assert layout.width <= 960


def test_an_empty_hand_says_so() -> None:
    layout = layout_hand(scenes.hand_view(""))
    assert labels(layout)["empty"].text == "no cards in hand"
    assert faces(layout) == []


@pytest.mark.parametrize("text", ["7h", "10s", "kd", "ac", "jk"])
def test_a_covered_card_shows_no_sliver_of_its_big_mark(text: str) -> None:
    """Between the corner strip and the next card of the fan, a card is plain face."""
    card = Card.parse(text)
    art = CardArt.of(card, SIZE, "dark", False)
    picture = sprite(art).image
    edge = 3
    seen = picture.crop((SIZE.strip + 1, edge, STEP, SIZE.height - edge))
    face = DARK.joker_face if card.is_joker else DARK.card_face
    colours = [tuple(c) for _, c in seen.getcolors(maxcolors=4096) or [] if isinstance(c, tuple)]
    inked = [c for c in colours if max(abs(a - b) for a, b in zip(c, face, strict=True)) > 12]
    assert not inked, f"{text}: {inked[:5]}"  # resampling leaves only invisible ripples


def test_a_big_take_is_marked_calmly() -> None:
    view = scenes.deep_take_hand()
    layout = layout_hand(view)
    shown = labels(layout)
    assert not [n for n in shown if n.startswith("mark:") and n.endswith(":NEW")]
    bars = [i for i in layout.items if isinstance(i, Rect) and i.fill == DARK.mark_new]
    assert len(bars) == len(view.drawn) == 20
    cards = [i for i in layout.items if isinstance(i, CardItem)]
    assert len({c.y for c in cards if c.art.rank != 1}) == 2  # only the USE card stands up
    assert "20 cards" in shown["legend:NEW:text"].text
