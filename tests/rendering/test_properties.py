"""Random tables and hands: whatever the game looks like, labels stay inside and apart."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rummy.cards import Card, Suit
from bot.rummy.melds import TableMeld
from bot.rummy.rules import preset
from bot.rummy.views import GameView
from rendering import layout_hand, layout_table
from rendering.layout import Layout
from tests.rendering import scenes

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=0, max_size=40
)


def assert_labels_inside_and_apart(layout: Layout) -> None:
    labels = layout.labels
    for name, box in labels:
        assert box.inside(*layout.size), name
    for i, (a, box_a) in enumerate(labels):
        for b, box_b in labels[i + 1 :]:
            assert not box_a.overlaps(box_b), (a, b)


@st.composite
def tables(draw: st.DrawFn) -> tuple[GameView, dict[str, str]]:
    count = draw(st.integers(2, 8))
    players = [f"{100000 + i}" if i % 2 else f"cpu-{i}" for i in range(count)]
    melds: list[TableMeld] = []
    for meld_id in range(1, draw(st.integers(0, 30)) + 1):
        owner = draw(st.sampled_from(players))
        helper = draw(st.sampled_from(players))
        if draw(st.booleans()):
            length = draw(st.integers(3, 13))
            start = draw(st.integers(1, 14 - length + 1))
            jokers = draw(st.sets(st.integers(0, length - 1), max_size=length // 2))
            laid = {length - 1: helper} if draw(st.booleans()) else {}
            suit = draw(st.sampled_from(list(Suit)))
            melds.append(
                scenes.run(meld_id * 7, owner, suit, start, length, jokers=jokers, laid_off=laid)
            )
        else:
            suits = draw(st.lists(st.sampled_from([*Suit, None]), min_size=3, max_size=4))
            melds.append(scenes.group(meld_id * 7, owner, draw(st.integers(1, 13)), suits))
    rules = preset(draw(st.sampled_from(["classic", "parlett", "500"])))
    pile = [Card(1 + i % 13, Suit(i % 4)) for i in range(draw(st.integers(0, 45)))]
    table_seats = scenes.seats(
        players,
        hand_sizes=draw(st.lists(st.integers(0, 40), min_size=count, max_size=count)),
        scores=draw(st.lists(st.integers(-9999, 99999), min_size=count, max_size=count)),
        dealer=draw(st.integers(0, count - 1)),
        current=draw(st.integers(0, count - 1)),
    )
    winners = draw(st.lists(st.sampled_from(players), max_size=2, unique=True))
    view = scenes.view(
        rules,
        table_seats,
        melds=melds,
        discard=pile,
        stock_size=draw(st.integers(0, 100)),
        winners=winners,
        round_no=draw(st.integers(1, 999)),
    )
    display = {p: draw(names) for p in players}
    return view, display


@SETTINGS
@given(tables(), st.sampled_from(["dark", "light"]))
def test_any_table_keeps_labels_inside_and_apart(
    table: tuple[GameView, dict[str, str]], theme: str
) -> None:
    view, display = table
    assert_labels_inside_and_apart(layout_table(view, names=display, theme=theme))


deck = [Card(rank, suit, copy) for copy in (0, 1) for suit in Suit for rank in range(1, 14)]
deck += [Card.joker(n) for n in range(4)]


@SETTINGS
@given(
    st.lists(st.sampled_from(deck), max_size=34, unique=True),
    st.data(),
    st.sampled_from(["suit", "rank"]),
)
def test_any_hand_keeps_labels_inside_and_apart(
    hand: list[Card], data: st.DataObject, sort_by: str
) -> None:
    marked = st.sampled_from(hand) if hand else st.none()
    view = scenes.view(
        preset("500"),
        scenes.seats(scenes.FOUR),
        hand=hand,
        drawn=data.draw(st.lists(st.sampled_from(hand), max_size=3)) if hand else (),
        no_discard=data.draw(st.one_of(st.none(), marked)),
        must_use=data.draw(st.one_of(st.none(), marked)),
    )
    assert_labels_inside_and_apart(layout_hand(view, sort_by=sort_by))
