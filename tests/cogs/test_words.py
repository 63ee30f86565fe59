"""The words players read: cards by their number in the hand, the rules in sentences,
``/rummy help`` per variant, option errors in the command's own names, meld lines without
copy marks, and the rating explained. Checked against the engine's own values."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.i18n import available_locales, catalog, command_words, number, t
from bot.rummy import (
    Card,
    Game,
    LayOff,
    Meld,
    RulesError,
    Scoring,
    TakeDiscard,
    parse_cards,
    preset,
    variants,
)
from bot.rummy.melds import readings
from bot.rummy.players import random_action
from bot.rummy.rules import Ruleset, options_for
from bot.rummy.scoring import round_points
from bot.sessions import LobbyError
from bot.storage.models import LeagueEntry, StandingsPage
from cogs import league
from cogs.ui import components, help, items, positions, present, refusal_words, rule_words
from cogs.ui.options import NotThisVariant, check_variant_options
from cogs.ui.replies import error_text
from rendering.hand import sorted_hand

LOCALES = ("en", "fr")


def named(loc: str, text: str) -> str:
    """``text`` with ``{cmd[…]}``, ``{opt[…]}`` and ``{choice[…]}`` as ``loc``'s reader's
    Discord names them (``/piocher source:pioche`` in French)."""
    return text.format_map(command_words(loc))


# --- cards by position --------------------------------------------------------------------

HAND = tuple(parse_cards("Qs 3c 7d JK 10h 10h#2 Ad"))


def test_a_number_is_the_card_at_that_place_of_the_hand_as_the_picture_numbers_it() -> None:
    shown = sorted_hand(HAND)
    assert positions.shown_hand(HAND) == shown
    for n, card in enumerate(shown, start=1):
        assert positions.card_at(HAND, n) == card
        assert Card.parse(positions.by_position(str(n), HAND)).face == card.face
    assert positions.by_position("1, 2  3", HAND) == ", ".join(
        [c.code for c in shown[:1]] + [f"{shown[1].code}  {shown[2].code}"]
    )


def test_a_number_next_to_a_suit_stays_a_card_and_annotations_stay_as_typed() -> None:
    assert positions.by_position("7 d", HAND) == "7 d"
    assert positions.by_position("10 h 1", HAND) == "10 h " + sorted_hand(HAND)[0].code
    assert positions.by_position("5h 6h JK=7h", HAND) == "5h 6h JK=7h"


def test_twins_are_named_by_their_face_and_the_engine_picks_the_copy() -> None:
    shown = sorted_hand(HAND)
    twin = shown.index(Card.parse("10h#2")) + 1
    assert positions.by_position(str(twin), HAND) == "10h"


@pytest.mark.parametrize("position", [0, 8, 999])
def test_a_number_past_the_hand_is_refused_in_words(position: int) -> None:
    with pytest.raises(positions.NoSuchPosition) as refused:
        positions.by_position(f"1 {position}", HAND)
    assert error_text(refused.value, "en") == (
        f"I couldn't read those cards: your hand has no card {position}:"
        " its cards are numbered 1 to 7"
    )
    assert "1 à 7" in error_text(refused.value, "fr")


def test_the_hand_text_numbers_the_cards_in_the_order_of_the_picture() -> None:
    game = Game.new(preset("parlett"), ["ann", "bob"], seed=4)
    view = game.view("ann")
    text = present.hand_text(view, {}, "en")
    numbered = re.search(r"^By number: (.*)$", text, re.M)
    assert numbered is not None
    expected = [f"{n} {c.face_text}" for n, c in enumerate(sorted_hand(view.hand), 1)]
    assert numbered[1].split(" · ") == expected
    first = text.splitlines()[0].split(": ", 1)[1]
    assert [c.face for c in parse_cards(first)] == [c.face for c in sorted_hand(view.hand)]


# --- deck copies are never shown as "#" ---------------------------------------------------


def test_meld_lines_and_moves_never_show_a_copy_mark_only_meld_numbers() -> None:
    """A seven-player parlett game (two decks, four jokers): every meld line, move line and
    menu label names cards by face; ``#`` appears only before a meld's number."""
    rng = random.Random(11)
    game = Game.new(preset("parlett"), [f"p{i}" for i in range(7)], seed=11)
    seen_twin = False
    for _ in range(600):
        if game.is_over:
            break
        action = random_action(game, rng, eagerness=1.0)
        player = game.current_player
        game.apply(action)
        after = game.view(None)
        texts = [present.meld_line(m, {}) for m in after.melds]
        texts.append(present.move_text("P", game.state.log[-1], after, "en"))
        if player is not None and not game.is_over:
            for legal in game.legal_actions(game.current_player or ""):
                if isinstance(legal, Meld | LayOff):
                    texts.append(present.action_label(legal, after))
        seen_twin |= any(p.card.copy for m in after.melds for p in m.cards)
        for text in texts:
            assert not re.search(r"\S#\d", text), text
            for mark in re.finditer(r"#(\d+)", text):
                assert int(mark[1]) in {m.id for m in after.melds}, text
    assert seen_twin, "the game never melded a second deck's card: pick another seed"


# --- rules in words -----------------------------------------------------------------------

CHANGES: dict[str, list[dict[str, object]]] = {
    "classic": [
        {"must_discard_to_go_out": True},
        {"limit_layoffs": True},
        {"simple_scoring": True},
        {"scoring": "negative"},
    ],
    "parlett": [
        {"must_discard_to_go_out": True},
        {"jokers": False},
        {"two_decks": True},
        {"ten_for_three": True},
        {"ace_high": True},
    ],
    "500": [
        {"must_discard_to_go_out": True},
        {"limit_layoffs": True},
        {"simple_scoring": True},
        {"jokers": True},
        {"ace_always_low": True},
    ],
}


def test_every_option_a_variant_offers_changes_the_rules_by_one_sentence() -> None:
    assert set(CHANGES) == set(variants.VARIANTS)
    for name, changes in CHANGES.items():
        for loc in LOCALES:
            plain = rule_words.rules_lines(preset(name), loc)
            assert plain[-1] == t("rules.diff.none", loc)
            for change in changes:
                lines = rule_words.changed_rules(preset(name, **change), loc)
                assert len(lines) == 1, (name, change, lines)
                assert not re.search(r"\b(yes|no|oui|non)$", lines[0]), lines[0]
                assert "_" not in lines[0]


def test_the_lobby_shows_the_variant_players_target_and_what_differs_only() -> None:
    ruleset = preset("500", jokers=True, must_discard_to_go_out=True, target=300)
    text = present.lobby_text(ruleset, ["Ann"], "Ann", "en")
    assert "• Variant: Rummy 500" in text
    assert "• Players: 2 to 8" in text
    assert "• Game ends at 300 points" in text
    assert "• Jokers: 2 per deck, wild" in text
    assert "• Going out needs a final discard" in text
    assert ": yes" not in text
    assert ": no" not in text
    assert "Simple scoring" not in text


def test_without_a_game_the_rules_are_a_line_per_variant_and_point_to_help() -> None:
    for loc in LOCALES:
        lines = rule_words.variants_overview(loc)
        assert len(lines) == len(variants.VARIANTS) + 2
        for variant, line in zip(variants.VARIANTS.values(), lines[1:], strict=False):
            assert t(variant.name_key, loc) in line
            assert f"{variant.rules['min_players']}" in line
        assert named(loc, "{cmd[rummy help]}") in lines[-1]
        assert len("\n".join(lines)) < 1200


def test_the_deep_take_menu_says_which_card_must_then_be_used() -> None:
    rng = random.Random(2)
    game = Game.new(preset("500"), ["ann", "bob", "cat"], seed=2)
    for _ in range(300):
        player = game.current_player
        assert player is not None
        deep = [a for a in game.legal_actions(player) if isinstance(a, TakeDiscard) and a.depth > 1]
        if deep:
            view = game.view(player)
            action = deep[-1]
            label = rule_words.deep_take_label(action, view, "en")
            lowest = view.discard[-action.depth].face_text
            assert label == (
                f"Take {action.depth} cards down to {lowest} — you must meld or lay off"
                f" {lowest} at once"
            )
            assert len(label) <= 100
            built = components.hand_view(7, view, game.legal_actions(player), "en")
            assert built is not None
            menu = next(
                item.to_component_dict()
                for item in built.children
                if isinstance(item, items.MoveSelect) and ":take:" in (item.custom_id or "")
            )
            labels = [option["label"] for option in menu["options"]]
            assert labels == [rule_words.deep_take_label(a, view, "en") for a in deep]
            return
        game.apply(random_action(game, rng))
    pytest.fail("no deep take was ever possible: pick another seed")


# --- /rummy help ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(variants.VARIANTS))
@pytest.mark.parametrize("loc", LOCALES)
def test_help_explains_a_turn_of_each_variant_with_its_buttons_and_commands(
    name: str, loc: str
) -> None:
    ruleset = preset(name)
    messages = help.help_messages(ruleset, loc)
    assert 1 <= len(messages) <= 2
    assert all(len(m) <= 2000 and not m.endswith("…") for m in messages)
    text = "\n".join(messages)
    for command in (
        "{cmd[draw]} {opt[draw source]}:{choice[stock]}",
        "{cmd[meld]} {opt[meld cards]}:",
        "{cmd[layoff]} {opt[layoff cards]}:",
        "{cmd[discard]} {opt[discard card]}:3",
    ):
        assert named(loc, command) in text
    for label in ("button.draw", "menu.meld", "menu.layoff", "menu.discard"):
        assert t(label, loc) in text
    assert t(ruleset.variant.name_key, loc) in text
    assert str(ruleset.target) in text
    assert (named(loc, "{opt[draw depth]}:") in text) == ruleset.deep_discard
    assert (named(loc, "{cmd[swap]}") in text) == ruleset.joker_swap
    assert (named(loc, "{cmd[endround]}") in text) == (ruleset.stock_out.value == "end_round")
    assert (t("help.jokers", loc) in text) == (ruleset.jokers_per_deck > 0)


def test_help_for_a_table_with_options_names_them_and_the_rule_they_change() -> None:
    ruleset = preset("classic", scoring="negative", must_discard_to_go_out=True)
    (text,) = help.help_messages(ruleset, "en")
    assert "the lowest total wins" in text
    assert "the last card must be discarded" in text
    assert "This table's house options: Negative scoring" in text


@pytest.mark.parametrize("loc", LOCALES)
def test_help_gives_the_joker_s_value_only_where_jokers_are_played(loc: str) -> None:
    joker = t("help.values.joker", loc)
    for name, jokers in (("500", False), ("500", True), ("parlett", True), ("parlett", False)):
        lines = help.variant_help(preset(name, jokers=jokers), loc)
        assert (joker in lines) is jokers, (name, jokers)


VALUE_OPTIONS = [
    ("classic", {}),
    ("classic", {"simple_scoring": True}),
    ("parlett", {}),
    ("500", {}),
    ("500", {"simple_scoring": True}),
    ("500", {"ace_always_low": True}),
    ("500", {"ace_always_low": True, "simple_scoring": True}),
]


@pytest.mark.parametrize(("name", "options"), VALUE_OPTIONS)
def test_help_gives_the_card_values_the_engine_counts(name: str, options: dict[str, bool]) -> None:
    """The values line is read back and checked against the engine's own card values."""
    ruleset = preset(name, **options)
    (line,) = [x for x in help.variant_help(ruleset, "en") if x.startswith("Card values")]
    ace, seven = Card.parse("As"), Card.parse("7h")
    found = re.match(r"Card values: ace (?:and 2 to 9 count )?(\d+)", line)
    assert found is not None, line
    assert int(found.group(1)) == ruleset.card_value(ace), line
    as_low = re.search(r"\((\d+) as the low ace", line)
    if as_low is not None:
        assert int(as_low.group(1)) == ruleset.placed_value(ace, low_ace_of_run=True)
    else:
        assert ruleset.placed_value(ace, low_ace_of_run=True) in (ruleset.card_value(ace), 1)
    if ruleset.card_value(seven) == 5:
        assert "count 5" in line, line
    else:
        assert "2 to 9 their number" in line, line


def test_help_without_a_variant_gives_every_variant_and_how_to_start() -> None:
    for loc in LOCALES:
        (text,) = help.help_messages(None, loc)
        for variant in variants.VARIANTS.values():
            assert t(variant.name_key, loc) in text
        for label in ("button.join", "button.addbot", "button.start"):
            assert t(label, loc) in text
        assert named(loc, "{cmd[rummy new]}") in text
        assert named(loc, "{cmd[rummy help]} {opt[rummy help variant]}:") in text


def test_help_too_long_for_one_message_goes_in_several_never_cut() -> None:
    ruleset = preset("parlett", two_decks=True, ten_for_three=True, ace_high=True)
    lines = help.variant_help(ruleset, "fr")
    split = help.help_messages(ruleset, "fr", limit=600)
    assert len(split) > 2
    assert all(len(m) <= 600 for m in split)
    assert "\n".join(split) == "\n".join(lines)


def test_every_variant_has_its_lines_in_every_catalog() -> None:
    for variant in variants.VARIANTS.values():
        for loc in available_locales():
            texts = catalog(loc)
            for key in (f"rules.summary.{variant.name}", f"help.values.{variant.name}"):
                assert key in texts, (loc, key)


# --- option errors in players' words ------------------------------------------------------

NEW_OPTIONS: dict[str, list[object]] = {
    "target": [250],
    "jokers": [True, False],
    "two_decks": [True, False],
    "ace_high": [True, False],
    "ace_always_low": [True, False],
    "scoring": ["positive", "negative"],
    "simple_scoring": [True, False],
    "limit_layoffs": [True, False],
    "must_discard_to_go_out": [True, False],
    "ten_for_three": [True, False],
}
"""Every rule option of ``/rummy new`` with the values Discord lets a person send."""

ENGINE_ALIASES = frozenset(
    word for name in variants.VARIANTS for word in options_for(name) if "_" in word
) - frozenset(NEW_OPTIONS)
"""The engine's other words for the options (``discard_to_go_out``, ``game_target``, …)."""
FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(Ruleset) if "_" in f.name) - frozenset(
    NEW_OPTIONS
)
"""The ruleset's field names that are no option name of the command."""


def _internal_names(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Engine aliases, field names, reprs and enum names in ``text`` (``allowed``: the
    command's own option names, which people type)."""
    found = [w for w in re.findall(r"[A-Za-z]+(?:_[A-Za-z]+)+", text) if w not in allowed]
    found += [w for w in ENGINE_ALIASES | FIELD_NAMES if re.search(rf"\b{w}\b", text)]
    found += re.findall(r"\b(?:Scoring|StockOut|Suit|Phase)\.\w+|<[A-Za-z]+[ .:]|\w+\(", text)
    return found


def _refusal(name: str, option: str, value: object, loc: str) -> NotThisVariant | None:
    """What ``/rummy new variant:<name> <option>:<value>`` is refused with, if anything."""
    try:
        check_variant_options(name, {option: value}, loc)
    except NotThisVariant as refused:
        return refused
    return None


def test_every_option_of_every_variant_is_accepted_or_refused_in_the_command_s_words() -> None:
    refusals = 0
    for name, variant in variants.VARIANTS.items():
        for option, values in NEW_OPTIONS.items():
            for value in values:
                if _refusal(name, option, value, "en") is None:
                    # Accepted: the engine takes it as it is, with nothing to refuse.
                    assert preset(name, **{option: value}).name == name
                    continue
                refusals += 1
                having = [
                    v
                    for v in variants.VARIANTS.values()
                    if _refusal(v.name, option, value, "en") is None
                ]
                assert having, (option, value)
                for loc in LOCALES:
                    refused = _refusal(name, option, value, loc)
                    assert refused is not None
                    said = error_text(refused, loc)
                    own = t(f"cmd.rummy.new.opt.{option}.name", loc)
                    assert said.split(": ", 1)[1].startswith(own), said
                    assert t(variant.name_key, loc) in said
                    assert all(t(v.name_key, loc) in said for v in having), said
                    assert not _internal_names(said, frozenset({own})), said
    assert refusals >= 10


def test_the_example_of_the_issue_is_said_as_a_player_would() -> None:
    with pytest.raises(NotThisVariant) as refused:
        check_variant_options("classic", {"jokers": True}, "en")
    assert error_text(refused.value, "en") == (
        "Those rules don't fit together: jokers is only for Parlett's Basic Rummy"
        " or Rummy 500, not Classic Rummy"
    )
    with pytest.raises(NotThisVariant) as refused:
        check_variant_options("500", {"scoring": "negative"}, "en")
    assert "scoring:negative is only for Classic Rummy, not Rummy 500" in error_text(
        refused.value, "en"
    )


UNREACHABLE = {
    "refusal.rules.no_option": "check_variant_options refuses first (tested above)",
    "refusal.rules.unknown_fields": "only a saved game's data is read with field names",
    "refusal.rules.yes_no": "yes/no options are booleans in every command",
}
"""Refusals whose parameters are engine names, and why no command can produce them."""


def test_no_refusal_or_error_text_names_the_inside() -> None:
    """Every refusal and error of every catalog: no repr, no enum or field name, no engine
    alias; a parameter that shows engine names only in the refusals no command produces."""
    for loc in available_locales():
        for key, text in catalog(loc).items():
            if not key.startswith(("refusal.", "error.")):
                continue
            assert "!r}" not in text, (loc, key)
            assert not _internal_names(re.sub(r"\{[^}]*\}", "", text)), (loc, key, text)
            if re.search(r"\{(options|fields|option)\}", text):
                assert key in UNREACHABLE or key == "refusal.option.variant", (loc, key)


def test_a_variant_is_named_as_people_read_it_and_a_short_lobby_offers_a_computer() -> None:
    short = LobbyError(
        "refusal.lobby.rules",
        reason=RulesError("refusal.rules.players", preset="classic", least=2, most=4, count=1),
    )
    said = error_text(short, "en")
    assert said == (
        "Not allowed: Classic Rummy needs 2 to 4 players, and this table has 1."
        " Seat a computer player with the Add computer player button (or /rummy addbot),"
        " or wait for someone to press Join."
    )
    assert t("button.addbot", "fr") in error_text(short, "fr")
    full = LobbyError(
        "refusal.lobby.rules",
        reason=RulesError("refusal.rules.players", preset="500", least=2, most=8, count=9),
    )
    assert refusal_words.advice(full, "en") is None
    assert "Rummy 500 needs 2 to 8 players" in error_text(full, "en")


# --- the rating explained -----------------------------------------------------------------


def test_the_standings_and_a_card_say_what_the_rating_is_in_one_line() -> None:
    entry = LeagueEntry(1, 1, 7, "Ann", 1, 3, 2, 5, 120, 80, 4, 3, 27.0, 6.0)
    page = StandingsPage(1, 1, 10, 1, 1, (entry,))
    for loc in LOCALES:
        note = t("league.rating_note", loc)
        assert "\n" not in note
        assert league.standings_text(page, loc).endswith(note)
        card = league.player_text(entry, loc)
        assert card.splitlines() == [card.splitlines()[0], note]
        assert (
            number(9.0, loc, decimals=1) in card
        )  # mu - 3 sigma, as the note says it starts at 0 (25 - 3 × 25/3)
    assert "among themselves" in t("league.rating_note", "en")


def test_the_standings_text_carries_every_column_the_picture_may_drop() -> None:
    """At phone width the standings picture keeps Rating, Games and Wins beside the names
    and drops the rest: the text has every column for every row."""
    entry = LeagueEntry(1, 1, 7, "Ann", 1, 3, 2, 5, 1234, 987, 4, 3, 27.0, 6.0)
    other = dataclasses.replace(entry, user_id=8, display_name="Bob", rank=2, wins=1)
    page = StandingsPage(1, 1, 10, 1, 1, (entry, other))
    for loc in available_locales():
        lines = league.standings_text(page, loc).splitlines()
        for row in page.rows:
            line = next(li for li in lines if row.display_name in li)
            rate = t("picture.percent", loc, value=number(round(row.win_rate * 100), loc))
            for figure in (rate, number(row.points_for, loc), number(row.points_against, loc)):
                assert figure in line, (loc, figure, line)


DEAL_OPTIONS = [
    ("classic", {}),
    ("parlett", {}),
    ("parlett", {"two_decks": True}),
    ("parlett", {"ten_for_three": True}),
    ("500", {}),
]


@pytest.mark.parametrize(("name", "options"), DEAL_OPTIONS)
def test_help_gives_the_deal_the_engine_deals(name: str, options: dict[str, bool]) -> None:
    """The deal line is read back: for every count of players, the cards the engine deals."""
    ruleset = preset(name, **options)
    (line,) = [x for x in help.variant_help(ruleset, "en") if x.startswith("**Deal**")]
    said: dict[int, int] = {}
    for low, high, cards in re.findall(r"(\d+)(?:–(\d+))? → (\d+)", line):
        for players in range(int(low), int(high or low) + 1):
            said[players] = int(cards)
    engine = range(ruleset.min_players, ruleset.max_players + 1)
    assert said == {players: ruleset.hand_size(players) for players in engine}, line


STOCK_END_RULES = [
    ("classic", {}),
    ("classic", {"scoring": "negative"}),
    ("parlett", {}),
    ("500", {}),
]


@pytest.mark.parametrize(("name", "options"), STOCK_END_RULES)
@pytest.mark.parametrize("loc", sorted(available_locales()))
def test_help_says_how_a_round_ended_on_an_empty_stock_scores(
    name: str, options: dict[str, str], loc: str
) -> None:
    """Said wherever the engine ends a round on an empty stock, and the example's points
    are the engine's own for those hands with nobody out."""
    ruleset = preset(name, **options)
    text = "\n".join(help.variant_help(ruleset, loc))
    positive = t("help.score.stock_end.positive", loc, hands="", low="", points="")
    same = t("help.score.stock_end.same", loc)
    ends = ruleset.stock_out.value == "end_round"
    assert (same in text) == (ends and ruleset.scoring is not Scoring.POSITIVE)
    assert (positive.split("(")[0] in text) == (ends and ruleset.scoring is Scoring.POSITIVE)
    if loc == "en" and ends and ruleset.scoring is Scoring.POSITIVE:
        found = re.search(r"with hands of ([\d, and]+), the (\d+) scores (\d+) points", text)
        assert found is not None, text
        hands = tuple(int(h) for h in re.findall(r"\d+", found.group(1)))
        low = int(found.group(2))
        points = round_points(ruleset, hands, (0,) * len(hands), None)
        assert low == min(hands)
        assert int(found.group(3)) == points[hands.index(low)]
        assert sum(points) == points[hands.index(low)]  # only the lowest hand scores


ACE_RULES = [
    ("classic", {}),
    ("parlett", {}),
    ("parlett", {"ace_high": True}),
    ("500", {}),
    ("500", {"ace_always_low": True}),
]


@pytest.mark.parametrize(("name", "options"), ACE_RULES)
def test_help_says_whether_an_ace_is_high_as_the_engine_reads_runs(
    name: str, options: dict[str, bool]
) -> None:
    """Q-K-A is a run exactly where the help says aces are high; K-A-2 never is."""
    ruleset = preset(name, **options)
    text = "\n".join(help.variant_help(ruleset, "en"))
    high = bool(readings(tuple(parse_cards("Qs Ks As")), ruleset))
    assert bool(readings(tuple(parse_cards("As 2s 3s")), ruleset))
    assert not readings(tuple(parse_cards("Ks As 2s")), ruleset)
    assert ("**Aces** are high or low: A-2-3 and Q-K-A are runs, K-A-2 is not." in text) == high
    assert ("**Aces** are low: A-2-3 is a run, Q-K-A is not." in text) == (not high)
    assert high == ((name == "500" and not options) or bool(options.get("ace_high")))
