"""Hand-built game views for the rendering tests and the benchmark.

Built directly from the engine's value types, not by playing a game, so the pictures stay
the same whatever the engine's dealing or move logic does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from bot.rummy.cards import Card, Suit, parse_cards
from bot.rummy.melds import MeldKind, PlacedCard, TableMeld
from bot.rummy.rules import Ruleset, preset
from bot.rummy.views import GameView, Phase, RoundEnd, RoundResult, SeatView
from rendering.league import PlayerCard, RecentGame, StandingRow


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def seats(
    players: Sequence[str],
    *,
    hand_sizes: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    dealer: int = 0,
    current: int | None = 1,
) -> tuple[SeatView, ...]:
    return tuple(
        SeatView(
            player=p,
            seat=i,
            hand_size=hand_sizes[i] if hand_sizes else 7,
            score=scores[i] if scores else 0,
            is_dealer=i == dealer,
            is_current=i == current,
            has_melded=True,
        )
        for i, p in enumerate(players)
    )


def run(
    meld_id: int,
    owner: str,
    suit: Suit,
    start: int,
    length: int,
    *,
    jokers: Iterable[int] = (),
    laid_off: Mapping[int, str] | None = None,
    copy: int = 0,
) -> TableMeld:
    """A run from ``start``; positions in ``jokers`` are jokers; ``laid_off`` maps a
    position index to the player who laid that card off."""
    joker_at = set(jokers)
    placed = []
    for i in range(length):
        rank = start + i
        card = Card.joker(i % 4) if i in joker_at else Card(1 if rank == 14 else rank, suit, copy)
        by = (laid_off or {}).get(i, owner)
        placed.append(PlacedCard(card, rank, suit, by))
    return TableMeld(meld_id, owner, MeldKind.RUN, tuple(placed))


def group(
    meld_id: int,
    owner: str,
    rank: int,
    suits: Sequence[Suit | None],
    *,
    laid_off: Mapping[int, str] | None = None,
    copy: int = 0,
) -> TableMeld:
    """A set; a None suit is a joker standing for the rank."""
    placed = []
    for i, suit in enumerate(suits):
        card = Card.joker(i) if suit is None else Card(rank, suit, copy)
        by = (laid_off or {}).get(i, owner)
        placed.append(PlacedCard(card, rank, suit, by))
    return TableMeld(meld_id, owner, MeldKind.SET, tuple(placed))


def view(
    ruleset: Ruleset,
    table_seats: tuple[SeatView, ...],
    *,
    melds: Sequence[TableMeld] = (),
    discard: Sequence[Card] = (),
    discard_size: int | None = None,
    stock_size: int = 20,
    hand: Sequence[Card] = (),
    drawn: Sequence[Card] = (),
    must_use: Card | None = None,
    no_discard: Card | None = None,
    rounds: Sequence[RoundResult] = (),
    winners: Sequence[str] = (),
    round_no: int = 1,
    viewer: str | None = None,
) -> GameView:
    over = bool(winners)
    current = next((s.player for s in table_seats if s.is_current), None)
    dealer = next((s.player for s in table_seats if s.is_dealer), table_seats[0].player)
    return GameView(
        viewer=viewer,
        ruleset=ruleset,
        seats=table_seats,
        phase=Phase.GAME_OVER if over else Phase.PLAY,
        current=None if over else current,
        dealer=dealer,
        round_no=round_no,
        turn=17,
        turn_in_round=5,
        hand=tuple(hand),
        drawn=tuple(drawn),
        must_use=must_use,
        no_discard=no_discard,
        melds=tuple(melds),
        discard=tuple(discard),
        discard_size=len(discard) if discard_size is None else discard_size,
        stock_size=stock_size,
        target=ruleset.target,
        rounds=tuple(rounds),
        winners=tuple(winners),
    )


# --- the scenes ----------------------------------------------------------------------------

FOUR = ("ann", "bob", "cpu-1", "dee")
NAMES = {"ann": "Ann", "bob": "Bob", "dee": "Dee"}
LONG_NAME = "Maximiliana Bartholomew-Featherstonehaugh the Third"

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def classic_table() -> GameView:
    """Four players, a few melds, cards laid off by others."""
    melds = [
        run(1, "ann", H, 4, 4, laid_off={3: "bob"}),
        group(2, "ann", 9, (C, D, S)),
        run(3, "bob", S, 10, 4, laid_off={0: "cpu-1", 1: "dee"}),
        group(4, "dee", 13, (C, H, D, S), laid_off={3: "ann"}),
        run(5, "dee", C, 1, 3),
    ]
    return view(
        preset("classic"),
        seats(FOUR, hand_sizes=(3, 7, 6, 2), scores=(42, 17, 0, 63), dealer=0, current=1),
        melds=melds,
        discard=cards("qd"),
        discard_size=9,
        stock_size=23,
        round_no=3,
    )


def two_player_table() -> GameView:
    """Two players in classic Rummy, one of them with four melds."""
    melds = [
        run(1, "ann", H, 4, 5),
        group(2, "bob", 9, (C, D, S)),
        group(3, "ann", 12, (C, D, H, S), laid_off={3: "bob"}),
        run(4, "ann", S, 1, 3),
        run(5, "ann", D, 8, 4),
    ]
    return view(
        preset("classic"),
        seats(("ann", "bob"), hand_sizes=(2, 6), scores=(17, 48), dealer=1, current=0),
        melds=melds,
        discard=cards("7c"),
        discard_size=5,
        stock_size=18,
        round_no=2,
    )


def benchmark_table() -> GameView:
    """The benchmark's table: four players with four 4-card melds each, a 10-card pile."""
    melds = []
    for owner_i, owner in enumerate(FOUR):
        for j in range(4):
            meld_id = owner_i * 4 + j + 1
            suit = Suit((owner_i + j) % 4)
            melds.append(run(meld_id, owner, suit, 1 + (owner_i * 3 + j * 2) % 9, 4))
    pile = cards("2c 5d 9h ks 3h 7c jd 4s 8d qh")
    return view(
        preset("500"),
        seats(FOUR, hand_sizes=(5, 4, 6, 3), scores=(120, -15, 85, 230)),
        melds=melds,
        discard=pile,
        stock_size=12,
        round_no=2,
    )


SEVEN = ("ann", "bob", "cpu-1", "dee", "cpu-2", "eve", "112233445566778899")


def crowded_table() -> GameView:
    """Parlett with seven players and two decks: jokers, twins, a 13-card run, long names."""
    melds = [
        run(1, "ann", H, 1, 13, jokers=(6,), laid_off={10: "bob", 11: "eve", 12: "cpu-2"}),
        group(2, "ann", 7, (C, None, S)),
        run(3, "bob", S, 3, 5, copy=1),
        run(4, "bob", S, 4, 4, jokers=(1, 2)),
        group(5, "cpu-1", 12, (H, D, S, None), copy=1, laid_off={3: "dee"}),
        run(6, "dee", D, 9, 5, jokers=(4,)),
        group(7, "dee", 2, (C, D, H)),
        run(8, "cpu-2", C, 5, 6, copy=1, laid_off={5: "ann"}),
        group(9, "eve", 10, (C, D, H, S)),
        run(10, "eve", D, 1, 4, copy=1),
        group(11, "112233445566778899", 5, (S, H, None)),
        run(12, "112233445566778899", C, 8, 4),
        group(13, "ann", 4, (D, H, S), copy=1),
        run(14, "cpu-1", H, 10, 4, copy=1),
    ]
    return view(
        preset("parlett"),
        seats(
            SEVEN,
            hand_sizes=(0, 3, 5, 1, 7, 10, 2),
            scores=(12, 30, 5, 0, 44, 9, 25),
            dealer=6,
            current=3,
        ),
        melds=melds,
        discard=cards("jk"),
        discard_size=4,
        stock_size=31,
        round_no=4,
    )


CROWDED_NAMES = {
    "ann": "Ann",
    "bob": LONG_NAME,
    "dee": "Dee 🃏 Ramírez",
    "eve": "Eve",
    "112233445566778899": "",
}


def deep_discard_table() -> GameView:
    """Rummy 500 with a 40-card discard pile."""
    pile = [Card(1 + (i * 5) % 13, Suit(i % 4), i // 26) for i in range(40)]
    melds = [
        run(1, "ann", D, 12, 3),  # Q K A, the ace above the king
        group(2, "bob", 1, (C, H, S)),
    ]
    return view(
        preset("500"),
        seats(FOUR, hand_sizes=(9, 4, 8, 7), scores=(310, 275, -40, 120), dealer=2, current=0),
        melds=melds,
        discard=pile,
        stock_size=0,
        round_no=5,
    )


def round_result(
    round_no: int,
    totals: Sequence[int],
    points: Sequence[int],
    reason: RoundEnd = RoundEnd.WENT_OUT,
    ender: str | None = "bob",
) -> RoundResult:
    hands = (cards("kd 7h"), (), cards("as 2s 3c jk 9d 9h 10s"), cards("4c"))
    return RoundResult(
        round_no=round_no,
        reason=reason,
        ender=ender,
        hands=hands,
        hand_values=(17, 0, 51, 4),
        placed_values=(35, 60, 12, 20),
        points=tuple(points),
        totals=tuple(totals),
    )


def finished_game() -> GameView:
    """A classic game over after five rounds, with its score history."""
    per_round = [(0, 34, 0, 12), (25, 0, 8, 0), (0, 0, 41, 3), (17, 28, 0, 0), (0, 61, 5, 0)]
    totals = [0, 0, 0, 0]
    rounds = []
    for no, points in enumerate(per_round, start=1):
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        rounds.append(round_result(no, totals, points))
    return view(
        preset("classic"),
        seats(FOUR, hand_sizes=(2, 0, 7, 1), scores=tuple(totals), dealer=3, current=None),
        melds=[run(1, "bob", C, 3, 5), group(2, "ann", 8, (C, D, H))],
        discard=cards("5h"),
        discard_size=14,
        stock_size=8,
        rounds=rounds,
        winners=("bob",),
        round_no=5,
    )


def hand_view(hand: str, *, drawn: str = "", no_discard: str = "", must_use: str = "") -> GameView:
    """A hand seen by ann in a Rummy 500 game; marks are given as card text."""
    base = classic_table()
    return view(
        preset("500"),
        base.seats,
        hand=cards(hand),
        drawn=cards(drawn),
        no_discard=cards(no_discard)[0] if no_discard else None,
        must_use=cards(must_use)[0] if must_use else None,
        viewer="ann",
    )


def thirteen_card_hand() -> GameView:
    """Just took two cards from the pile: one is the must-use card, the top one is kept."""
    return hand_view(
        "7h 2c 10s kd ah 7c jk 9d 9s 3h qs 5c 10d",
        drawn="9s 3h",
        no_discard="3h",
        must_use="9s",
    )


def thirty_card_hand() -> GameView:
    """A two-deck pile-up: twins, jokers, thirty cards wrapping onto two rows."""
    text = (
        "ac 2c 3c 3c#2 5c 9c kc 2d 4d 4d#2 7d 10d qd ah 5h 6h 6h#2 8h jh kh 2s 3s 7s 9s 10s "
        "qs ks ks#2 jk jk#2"
    )
    return hand_view(text, drawn="ks#2")


def deep_take_hand() -> GameView:
    """Rummy 500, just took twenty cards from the pile: the deepest one must be used now."""
    held = "2c 9c qc 5d jh ks"
    taken = "ac 3c 4c 7c 10c kc 2d 4d 7d 9d qd 3h 6h 8h 10h 2s 4s 6s 8s js"
    return hand_view(f"{held} {taken}", drawn=taken, must_use="ac")


def hand_scoring_round() -> tuple[GameView, RoundResult]:
    """A Rummy 500 round: points are what each melded minus what they still hold."""
    base = deep_discard_table()
    result = round_result(5, totals=(328, 335, -79, 136), points=(18, 60, -39, 16))
    return base, result


def blocked_round() -> tuple[GameView, RoundResult]:
    """Parlett, the round blocked: the lowest hand (Dee's 4) takes the difference from each."""
    base = finished_game()
    table = view(preset("parlett"), base.seats, stock_size=0, round_no=5)
    result = round_result(5, totals=(13, 100, 50, 63), points=(0, 0, 0, 13 + 47 + 0), ender=None)
    return table, replace(result, reason=RoundEnd.BLOCKED)


def ended_round() -> tuple[GameView, RoundResult]:
    """Classic, Ann ended the round on an empty stock; the lowest hand scores."""
    base = finished_game()
    table = view(preset("classic"), base.seats, stock_size=0, round_no=3)
    result = round_result(3, totals=(13, 100, 50, 63), points=(0, 0, 0, 60), ender="ann")
    return table, replace(result, reason=RoundEnd.ENDED)


WORLD_NAMES = {
    "ann": "🔥Blaze🔥",
    "bob": "李小龙",
    "cpu-1": "山田 はなこ",
    "dee": "김민준",
}


def standings() -> list[StandingRow]:
    """A page of standings: medals, a long name, a player yet to win."""
    names = ["Ann", LONG_NAME, "cpu-1", "Dee", "Eve", "112233445566778899", "Zoë", "Bob"]
    return [
        StandingRow(
            place=i + 1,
            name=name,
            games=40 - i * 4,
            wins=max(0, 18 - i * 3),
            win_rate=max(0, 18 - i * 3) / (40 - i * 4),
            rating=31.46 - i * 2.3,
            points_for=1520 - i * 130,
            points_against=610 + i * 95,
        )
        for i, name in enumerate(names)
    ]


def player_card() -> PlayerCard:
    recent = tuple(
        RecentGame(place, players)
        for place, players in (
            (1, 4),
            (3, 4),
            (2, 3),
            (1, 2),
            (4, 7),
            (1, 4),
            (2, 4),
            (5, 5),
            (1, 3),
            (2, 2),
            (3, 6),
            (1, 4),
        )
    )
    return PlayerCard(
        name=LONG_NAME,
        games=36,
        wins=14,
        win_rate=14 / 36,
        rounds_won=61,
        points_for=1412,
        points_against=-87,
        avg_place=1.9,
        rating=28.73,
        recent=recent,
    )
