"""Computer players: always legal, whole games at every level, preset and player count; they
decide from their own view only; the safe move for turn timers; choosing in a worker."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from bot.rummy import (
    Action,
    Card,
    Discard,
    DrawStock,
    Game,
    LayOff,
    Meld,
    Ruleset,
    TakeDiscard,
    full_pack,
    parse_cards,
    preset,
)
from bot.rummy.computer import (
    ComputerPlayer,
    EasyPlayer,
    HardPlayer,
    Level,
    Memory,
    NormalPlayer,
    _Lookahead,
    _without,
    catch_up,
    choose_in_process,
    make_player,
    normal_action,
    observe,
    safe_action,
)

BULK_GAMES = int(os.environ.get("RUMMY_BULK_GAMES", "16"))
NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
PLAYERS = {"classic": (2, 4), "parlett": (2, 7), "500": (2, 8)}
SHORT = {"classic": 40, "parlett": 40, "500": 150}
"""Low targets keep whole games short."""


def play_game(
    ruleset: Ruleset, seats: list[ComputerPlayer], seed: int, max_actions: int = 20_000
) -> Game:
    """A whole game between ``seats``, checking that every choice is among the legal actions
    given, that the player was shown only its own view, and that the game ends."""
    names = list(NAMES[: len(seats)])
    game = Game.new(ruleset, names, seed=seed)
    by_name = dict(zip(names, seats, strict=True))
    rng = random.Random(seed)
    for _ in range(max_actions):
        current = game.current_player
        if current is None:
            return game
        legal = game.legal_actions()
        view = game.view(current)
        action = by_name[current].choose(view, tuple(legal), rng)
        assert action in legal, f"{by_name[current].level} chose {action}, not in {legal}"
        game.apply(action)
    raise AssertionError("the game did not end")


def option_sets(name: str, count: int) -> list[Ruleset]:
    """Rulesets of a preset with its options varied, each with a low target."""
    varied: dict[str, list[dict[str, Any]]] = {
        "classic": [
            {},
            {"limit_layoffs": True, "must_discard_to_go_out": True},
            {"scoring": "negative", "simple_scoring": True},
        ],
        "parlett": [{}, {"ace_high": True, "two_decks": True}, {"jokers": False}],
        "500": [
            {},
            {"jokers": True, "limit_layoffs": True},
            {"ace_always_low": True, "must_discard_to_go_out": True},
        ],
    }
    return [
        preset(name, target=SHORT[name], **varied[name][i % len(varied[name])])
        for i in range(count)
    ]


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
def test_easy_and_normal_play_whole_games_legally(name: str, level: Level) -> None:
    low, high = PLAYERS[name]
    games = max(3, BULK_GAMES // 3)
    for i, ruleset in enumerate(option_sets(name, games)):
        players = low + i % (high - low + 1)
        seats: list[ComputerPlayer] = [make_player(level) for _ in range(players)]
        if i % 2:  # mixed tables too
            seats[0] = make_player(Level.EASY if level is Level.NORMAL else Level.NORMAL)
        game = play_game(ruleset, seats, seed=1000 + i)
        assert game.is_over
        assert game.winners


@pytest.mark.parametrize("name", ["classic", "parlett", "500"])
def test_hard_with_a_tiny_budget_plays_a_whole_game_legally(name: str) -> None:
    ruleset = preset(name, target=SHORT[name] // 2)
    seats: list[ComputerPlayer] = [HardPlayer(budget=0.02), make_player(Level.NORMAL)]
    game = play_game(ruleset, seats, seed=7)
    assert game.is_over


def _hard_turns(
    game: Game, hard: HardPlayer, rng: random.Random, actions: int
) -> Iterator[tuple[Action, Action]]:
    """Play ``actions`` actions: ann is ``hard``, everyone else one *normal* player. Each of
    ann's moves is yielded, before it is applied, with what *normal* would have chosen from
    ann's memory."""
    others = NormalPlayer()
    for _ in range(actions):
        current = game.current_player
        assert current is not None
        legal = game.legal_actions()
        view = game.view(current)
        if current != "ann":
            game.apply(others.choose(view, legal, rng))
            continue
        normal = normal_action(NormalPlayer(memory=observe(hard.memory, view)), view, legal)
        action = hard.choose(view, legal, rng)
        assert action in legal
        yield action, normal
        game.apply(action)


def test_hard_searches_its_candidates_and_says_when_it_left_the_normal_choice() -> None:
    """With room to think, a few turns of a three-player 500 game: moves are searched, none
    is cut short, some choices differ from *normal*'s and every one that does says so (the
    benchmark counts them). With no time at all, every search is cut short at once and
    hard plays exactly as *normal*."""
    for budget in (60.0, 0.0):
        game = Game.new(preset("500", jokers=True), ["ann", "bob", "cat"], seed=3)
        hard = HardPlayer(budget=budget)
        searched = departed = cut_short = 0
        for action, normal in _hard_turns(game, hard, random.Random(3), 60):
            assert hard.last_departed or action == normal
            searched += hard.last_searched > 0
            departed += hard.last_departed
            cut_short += hard.last_cut_short
        if budget:
            assert searched
            assert departed
            assert not cut_short
        else:
            assert cut_short
            assert not searched
            assert not departed


def test_hard_counts_its_budget_on_the_clock_it_is_given() -> None:
    ticks = iter(range(10**6))
    slow = HardPlayer(budget=3.0, clock=lambda: float(next(ticks)))  # a second a call
    game = Game.new(preset("classic"), ["ann", "bob"], seed=5)
    cut_short = 0
    for action, normal in _hard_turns(game, slow, random.Random(5), 16):
        assert slow.last_searched == 0
        assert action == normal
        cut_short += slow.last_cut_short
    assert cut_short


# --- they decide from their own view only ------------------------------------------------


def twin_games() -> tuple[Game, Game]:
    """Two classic games in which ann's view is the same but everything hidden differs."""
    ruleset = preset("classic")
    ann = parse_cards("3h 4h 5h 9c 9d 9s Kc 2d 6s 8c Jh Qs 7d")
    pack = full_pack()
    rest = [c for c in pack if c not in ann and c != Card.parse("10c")]
    decks = []
    for shift in (0, 13):
        bob = rest[shift : shift + 13]
        stock = [c for c in rest if c not in bob]
        order: list[Card] = []
        for a, b in zip(ann, bob, strict=True):
            order += [a, b]
        order.append(Card.parse("10c"))
        order += stock[::-1] if shift else stock
        decks.append(order)
    first = Game.new(ruleset, ["ann", "bob"], seed=1, deck=decks[0])
    second = Game.new(ruleset, ["ann", "bob"], seed=2, deck=decks[1])
    assert first.view("ann") == second.view("ann")
    assert first.hand("bob") != second.hand("bob")
    return first, second


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
def test_choices_depend_on_the_view_only(level: Level) -> None:
    first, second = twin_games()
    for game in (first, second):
        assert game.current_player == "ann"
    for phase_step in range(2):
        choices = []
        for game in (first, second):
            player = HardPlayer(budget=5.0) if level is Level.HARD else make_player(level)
            choices.append(player.choose(game.view("ann"), game.legal_actions(), random.Random(9)))
        assert choices[0] == choices[1]
        if phase_step == 0:
            first.apply(DrawStock())
            second.apply(DrawStock())
            if first.view("ann") != second.view("ann"):
                break  # different stock cards: the views differ from here on


# --- what normal does on purpose -------------------------------------------------------------


def rigged(ruleset: Ruleset, ann: str, up: str, stock: str, bob: str = "") -> Game:
    """A three-player game (seven cards each) dealt from a deck built by hand: ann's and
    bob's named cards, filled up with cards that meld with nothing near them, the up card,
    then the stock's top cards."""
    size = ruleset.hand_size(3)
    hands = [parse_cards(ann), parse_cards(bob), []]
    named = [*hands[0], *hands[1], *parse_cards(up), *parse_cards(stock)]
    ranks = {c.rank for c in named}
    spare = [
        c
        for c in full_pack(ruleset.decks_for(3), ruleset.jokers_per_deck)
        if not c.is_joker and c not in named
    ]
    for hand in hands:
        while len(hand) < size:
            card = next(
                c
                for c in spare
                if c.rank not in ranks
                and all(c.suit != h.suit or abs(c.rank - h.rank) >= 4 for h in hand)
            )
            spare.remove(card)
            ranks.add(card.rank)
            hand.append(card)
            if len(ranks) == 13:
                ranks = {c.rank for c in named}
    order: list[Card] = []
    for cards in zip(*hands, strict=True):
        order += cards
    order += parse_cards(up) + parse_cards(stock)
    return Game.new(ruleset, ["ann", "bob", "cat"], seed=5, deck=order)


def test_normal_takes_the_discard_that_completes_a_meld_and_easy_too() -> None:
    game = rigged(preset("classic"), "5h 6h", "7h", "")
    for player in (NormalPlayer(), EasyPlayer()):
        action = player.choose(game.view("ann"), game.legal_actions(), random.Random(1))
        assert action == TakeDiscard(1)


def test_normal_takes_deep_in_500_when_it_pays_easy_does_not() -> None:
    ruleset = preset("500")
    game = rigged(ruleset, "5s 6s", "7s", "2d 3c 4h")
    for card in ("2d", "3c", "4h"):  # ann, bob and cat each draw a low card and throw it
        game.apply(DrawStock())
        game.apply(Discard(Card.parse(card)))
    legal = game.legal_actions()
    assert TakeDiscard(4) in legal
    view = game.view("ann")
    assert NormalPlayer().choose(view, legal, random.Random(1)) == TakeDiscard(4)
    assert EasyPlayer().choose(view, legal, random.Random(1)) == DrawStock()


def test_normal_melds_the_best_arrangement_not_the_greedy_one() -> None:
    game = rigged(preset("classic"), "6s 7s 8s 6c 7c 8c 8d", "Kh", "2h")
    game.apply(DrawStock())
    player = NormalPlayer(hold=0)
    rng = random.Random(1)
    melded = []
    while game.current_player == "ann":
        action = player.choose(game.view("ann"), game.legal_actions(), rng)
        game.apply(action)
        if isinstance(action, Meld | LayOff):
            melded.append(sorted(c.face_text for c in action.cards))
    assert sorted(melded) == [["6♠", "7♠", "8♠"], ["6♣", "7♣", "8♣"]]
    assert [c.face_text for c in game.hand("ann")] == ["2♥"]  # the 8♦ went


def test_normal_holds_its_melds_until_it_can_go_out_or_an_opponent_is_close() -> None:
    game = rigged(preset("classic"), "6s 7s 8s 6c 7c 8c 8d", "Kh", "2h")
    game.apply(DrawStock())
    rng = random.Random(1)
    action = NormalPlayer().choose(game.view("ann"), game.legal_actions(), rng)
    assert action == Discard(Card.parse("8d"))  # bob and cat hold seven cards each
    going_out = rigged(preset("classic"), "6s 7s 8s 6c 7c 8c 9c", "2h", "Kh")
    going_out.apply(DrawStock())
    action = NormalPlayer().choose(going_out.view("ann"), going_out.legal_actions(), rng)
    assert not isinstance(action, Discard)


@pytest.mark.parametrize(("bob_melds", "holds"), [(1, True), (2, False)])
def test_normal_melds_down_once_an_opponent_holds_three_cards_or_fewer(
    bob_melds: int, holds: bool
) -> None:
    """bob melds one meld (four cards left) or two (one card left) before ann's second
    turn; ann keeps her two melds in hand only while bob is far from going out."""
    game = rigged(
        preset("classic"), "6s 7s 8s 6c 7c 8c 8d", "2d", "Qd Kc 2c Ks", bob="3h 4h 5h 9d 9s 9h Jc"
    )
    game.apply(DrawStock())
    game.apply(Discard(Card.parse("Qd")))
    game.apply(DrawStock())
    for meld in ("3h 4h 5h", "9d 9s 9h")[:bob_melds]:
        game.apply(Meld(tuple(parse_cards(meld))))
    game.apply(Discard(Card.parse("Kc")))
    game.apply(DrawStock())
    game.apply(Discard(Card.parse("2c")))
    game.apply(DrawStock())
    bob = next(s for s in game.view("ann").seats if s.player == "bob")
    assert bob.hand_size == 7 + 1 - 3 * bob_melds - 1
    action = NormalPlayer().choose(game.view("ann"), game.legal_actions(), random.Random(1))
    assert isinstance(action, Discard) is holds


def test_normal_avoids_feeding_the_next_player() -> None:
    """Two equal loose nines: with bob known to have taken the 8♦, normal throws the 9♣;
    not knowing it, the 9♦."""
    choices = []
    for taken in ([], [Card.parse("8d")]):
        game = rigged(preset("classic"), "9c 9d 2s 3s 4s Kh Kd", "Qh", "Kc")
        game.apply(DrawStock())
        player = NormalPlayer(hold=0, memory=Memory(round_no=1, taken={"bob": taken}))
        rng = random.Random(1)
        while True:
            action = player.choose(game.view("ann"), game.legal_actions(), rng)
            if isinstance(action, Discard):
                break
            game.apply(action)
        assert sorted(c.face_text for c in game.hand("ann")) == ["9♣", "9♦"]
        choices.append(action.card.face_text)
    assert choices == ["9♦", "9♣"]


def test_normal_remembers_what_the_opponent_took() -> None:
    game = Game.new(preset("classic"), ["ann", "bob"], seed=12)
    player = NormalPlayer()
    rng = random.Random(1)
    while game.current_player == "ann":
        game.apply(player.choose(game.view("ann"), game.legal_actions(), rng))
    thrown = game.view("bob").discard[-1]
    game.apply(TakeDiscard(1))  # bob takes what ann threw
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    player.choose(game.view("ann"), game.legal_actions(), rng)
    assert [c.face for c in player.memory.taken["bob"]] == [thrown.face]


def test_watching_every_action_tells_who_took_what_at_a_bigger_table() -> None:
    game = Game.new(preset("classic"), ["ann", "bob", "cat"], seed=12)
    watcher = NormalPlayer()
    game.apply(DrawStock())  # ann
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    watcher.observe(game.view("cat"))
    thrown = game.view("cat").discard[-1]
    game.apply(TakeDiscard(1))  # bob takes ann's card
    watcher.observe(game.view("cat"))
    assert [c.face for c in watcher.memory.taken["bob"]] == [thrown.face]


def watched_game(players: int, seed: int, seat: str) -> tuple[Game, NormalPlayer]:
    """A seeded game of normal players stopped a few turns into its second round, and the
    player of ``seat``, which was shown views the way a session shows them: at each of its
    choices, and after every move that leaves someone else to play."""
    game = Game.new(preset("classic"), list(NAMES[:players]), seed=seed)
    seated = {name: NormalPlayer() for name in game.players}
    rng = random.Random(seed)
    while game.round_no < 2 or game.view(None).turn_in_round < 6:
        current = game.current_player
        assert current is not None, "the game ended in its first round"
        game.apply(seated[current].choose(game.view(current), game.legal_actions(), rng))
        if game.current_player != seat:
            seated[seat].observe(game.view(seat))
    return game, seated[seat]


@pytest.mark.parametrize("players", [2, 3])
def test_a_player_made_mid_round_learns_what_one_seated_all_along_knows(players: int) -> None:
    for seed in range(3):
        game, seated = watched_game(players, seed, "bob")
        late = NormalPlayer()
        catch_up(late, game, "bob")
        assert late.memory == seated.memory
        assert late.memory.round_no == 2


def test_a_player_made_after_an_opponent_took_a_card_knows_it() -> None:
    game = Game.new(preset("classic"), ["ann", "bob"], seed=12)
    game.apply(DrawStock())
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    thrown = game.view("ann").discard[-1]
    game.apply(TakeDiscard(1))  # bob takes what ann threw
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    for late in (NormalPlayer(), HardPlayer(budget=0.01)):
        assert not late.memory.taken
        catch_up(late, game, "ann")
        assert [c.face for c in late.memory.taken["bob"]] == [thrown.face]


# --- the safe move, pickling and the worker process -------------------------------------------


def test_safe_action_draws_from_the_stock_then_throws_the_highest_loose_card() -> None:
    game = rigged(preset("classic"), "3h 4h 5h Kh Qs 2c", "5c", "9d")
    view = game.view("ann")
    assert safe_action(view, game.legal_actions()) == DrawStock()
    game.apply(DrawStock())
    action = safe_action(game.view("ann"), game.legal_actions())
    assert isinstance(action, Discard)
    # 3-4-5♥ is a meld; the highest loose cards are worth 10 (K♥, Q♠, maybe a filler).
    assert preset("classic").card_value(action.card) == 10


def test_safe_action_takes_the_discard_or_ends_when_the_stock_is_empty() -> None:
    game = Game.new(preset("classic"), ["ann", "bob"], seed=4)
    while game.view().stock_size:
        game.apply(DrawStock())
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    action = safe_action(game.view(game.current_player), game.legal_actions())
    assert action in game.legal_actions()
    assert not isinstance(action, DrawStock)


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
def test_players_pickle_and_choose_in_process(level: Level) -> None:
    game = Game.new(preset("parlett"), ["ann", "bob"], seed=8)
    player = make_player(level, budget=0.05)
    clone = pickle.loads(pickle.dumps(player))
    action, updated = choose_in_process(clone, game.view("ann"), game.legal_actions(), seed=3)
    assert action in game.legal_actions()
    assert updated.level is level


def test_choose_in_a_process_pool() -> None:
    game = Game.new(preset("500"), ["ann", "bob"], seed=8)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        future = pool.submit(
            choose_in_process,
            HardPlayer(budget=0.05),
            game.view("ann"),
            game.legal_actions(),
            11,
        )
        action, player = future.result(timeout=60)
    assert action in game.legal_actions()
    assert isinstance(player, HardPlayer)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="grandmaster"):
        make_player("grandmaster")


def test_a_choice_needs_legal_actions() -> None:
    game = Game.new(preset("classic"), ["ann", "bob"], seed=1)
    with pytest.raises(ValueError, match="no legal action"):
        safe_action(game.view("ann"), [])
    actions: list[Action] = []
    with pytest.raises(ValueError, match="no legal action"):
        NormalPlayer().choose(game.view("ann"), actions, random.Random(1))


# --- the hard level's look one draw ahead ----------------------------------------------------


def lookahead(game: Game, player: str, memory: Memory | None = None) -> _Lookahead:
    hard = HardPlayer(budget=60.0, memory=memory or Memory())
    return _Lookahead(game.view(player), hard, deadline=float("inf"))


@pytest.mark.parametrize(
    "ruleset",
    [preset("classic"), preset("parlett", two_decks=True), preset("500", jokers=True)],
    ids=["classic", "parlett-2-decks", "500-jokers"],
)
def test_the_look_ahead_averages_every_card_the_stock_may_give(ruleset: Ruleset) -> None:
    """Its shortcut (one card of each value stands for all the cards that meld with
    nothing) gives the plain average over every physical card it has not seen."""
    players = 4 if ruleset.two_decks_for_four_five else 3
    game = Game.new(ruleset, list(NAMES[:players]), seed=21)
    seats = {p: NormalPlayer() for p in game.players}
    rng = random.Random(21)
    checked = 0
    for step in range(120):
        current = game.current_player
        if current is None:
            break
        view = game.view(current)
        if step % 5 == 0 and len(view.hand) > 1:
            planner = lookahead(game, current, seats[current].memory)
            hand = list(view.hand[1:])
            cards = [c for c, copies in planner.odds() for _ in range(copies)]
            plain = sum(planner.kept([*hand, c], None) for c in cards) / len(cards)
            assert planner.expected(hand) == pytest.approx(plain)
            checked += 1
        game.apply(seats[current].choose(view, game.legal_actions(), rng))
    assert checked >= 5


def test_the_look_ahead_leaves_out_cards_it_knows_are_not_in_the_stock() -> None:
    """What an opponent took from the pile is in their hand, not the stock."""
    game = Game.new(preset("classic"), ["ann", "bob"], seed=12)
    ann = HardPlayer(budget=60.0)
    game.apply(DrawStock())
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    thrown = game.view("ann").discard[-1]
    game.apply(TakeDiscard(1))  # bob takes what ann threw
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    catch_up(ann, game, "ann")
    odds = lookahead(game, "ann", ann.memory).odds()
    assert thrown.face not in {c.face for c, _ in odds}
    view = game.view("ann")
    pile = set(view.discard) | set(ann.memory.pile)  # the hidden part as remembered
    assert sum(copies for _, copies in odds) == 52 - len(view.hand) - len(pile) - 1


def test_hard_keeps_the_cards_with_more_ways_to_meld() -> None:
    """7♥ 7♣ 9♣ J♣ beside a run: throwing the jack keeps three draws that meld (7♦, 7♠,
    8♣) and leaves the least if caught; throwing a seven keeps two (8♣, 10♣)."""
    game = rigged(preset("classic"), "2s 3s 4s 7h 7c 9c Jc", "Kd", "5s")
    assert game.current_player == "ann"
    game.apply(DrawStock())
    view, legal = game.view("ann"), game.legal_actions()
    planner = lookahead(game, "ann")
    hand = list(view.hand)
    worth = {c: planner.expected(_without(hand, c)) for c in parse_cards("7h 7c 9c Jc")}
    assert max(worth, key=worth.__getitem__) == Card.parse("Jc")
    assert HardPlayer(budget=60.0).choose(view, legal, random.Random(1)) == Discard(
        Card.parse("Jc")
    )


def _pile_around(name: str) -> Game:
    """ann holds a run, the 6♥ and low cards; the pile (bottom first) is 5♥ 2♦ 7♥ 3♥, and
    ann has just drawn the 4♣."""
    game = rigged(preset(name), "2s 3s 4s 6h 2c 3d 5c", "5h", "2d 4d 3h 4c", bob="7h")
    for thrown in ("2d", "7h", "3h"):
        game.apply(DrawStock())
        game.apply(Discard(Card.parse(thrown)))
    game.apply(DrawStock())
    assert game.current_player == "ann"
    assert game.view("ann").discard_size == 4
    return game


def test_hard_in_500_does_not_throw_what_lets_the_next_player_dig_the_pile() -> None:
    """The 6♥ melds with the 5♥ and 7♥ deep in the pile: thrown, it lets bob take the pile
    from the 5♥ up for sure and meld at once. *normal* sees only what bob may hold and
    throws it (the highest card that melds with nothing in ann's hand); *hard* keeps it.
    An 8♥ would need bob to hold the 9♥ as well: likelier than without the 7♥ in the pile,
    but not sure. In classic only the top card can be taken, and the pile adds nothing."""
    game = _pile_around("500")
    view, legal = game.view("ann"), game.legal_actions()
    assert [c.face_text for c in view.discard] == ["5♥", "2♦", "7♥", "3♥"]
    six = Card.parse("6h")
    planner = lookahead(game, "ann")
    interest = planner._interest()
    assert planner._danger(six, interest) < 1.0
    assert planner._danger(six, interest, pile=True) == 2.0
    eight = Card.parse("8h")
    assert planner._danger(eight, interest) < planner._danger(eight, interest, pile=True) < 1.0
    assert NormalPlayer().choose(view, legal, random.Random(1)) == Discard(six)
    hard = HardPlayer(budget=60.0).choose(view, legal, random.Random(1))
    assert isinstance(hard, Discard)
    assert hard.card != six
    classic = _pile_around("classic")
    planner = lookahead(classic, "ann")
    interest = planner._interest()
    assert planner._danger(six, interest, pile=True) == planner._danger(six, interest)


def _late_in(name: str, turns_each: int) -> Game:
    """ann holds a run and four cards that meld with nothing; every player has drawn and
    thrown back the same card ``turns_each`` times, and ann has just drawn."""
    game = rigged(preset(name), "6s 7s 8s 2h 5d Jc Kh", "Qd", "")
    for _ in range(turns_each * len(game.players)):
        game.apply(DrawStock())
        game.apply(Discard(game.view(game.current_player or "").drawn[0]))
    assert game.current_player == "ann"
    game.apply(DrawStock())
    return game


@pytest.mark.parametrize(
    ("name", "turns_each", "cut_left", "lays_down"),
    [
        ("parlett", 3, 4, False),
        ("parlett", 4, 4, True),
        ("parlett", 4, 6, False),
        ("500", 6, 4, False),
        ("500", 7, 4, True),
        ("500", 7, 6, False),
    ],
    ids=[
        "parlett-early",
        "parlett-late-and-far",
        "parlett-late-but-close-enough",
        "500-early",
        "500-late-and-far",
        "500-late-but-close-enough",
    ],
)
def test_hard_far_from_going_out_late_in_a_round_lays_its_melds_down(
    name: str, turns_each: int, cut_left: int, lays_down: bool
) -> None:
    """ann holds five loose cards with the card she drew. Caught holding the run, its cards
    would count against her; *normal* holds it all the same, and so does *hard* earlier in
    the round (four turns a player in parlett, seven in Rummy 500), or when five loose
    cards are not far from going out (``cut_left``)."""
    game = _late_in(name, turns_each)
    view, legal = game.view("ann"), game.legal_actions()
    hard = HardPlayer(budget=60.0, cut_left=cut_left).choose(view, legal, random.Random(1))
    normal = NormalPlayer().choose(view, legal, random.Random(1))
    assert isinstance(normal, Discard)
    assert isinstance(hard, Meld) is lays_down
    if isinstance(hard, Meld):
        assert sorted(c.face_text for c in hard.cards) == ["6♠", "7♠", "8♠"]


def test_hard_keeps_holding_late_in_a_classic_round() -> None:
    """The same hand in classic: the rule is kept to the presets where it was measured."""
    game = _late_in("classic", 4)
    view, legal = game.view("ann"), game.legal_actions()
    assert isinstance(HardPlayer(budget=60.0).choose(view, legal, random.Random(1)), Discard)
