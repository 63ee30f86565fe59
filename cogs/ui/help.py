"""``/rummy help [variant]``: a first game explained, each step with the button and the
command that does it.

With a variant (or the game of the channel), a turn step by step: drawing, melds and
lay-offs, the discard, how a round ends and how it scores, in that variant's rules (the
ruleset's own values decide which lines apply, so nothing is said that the engine does not
do). Without either, each variant in a line or two and how to open a table. Buttons and
menus are named by their labels in the catalogs, so the help says what the screen shows.
"""

from __future__ import annotations

from bot.i18n import number, t, tn
from bot.rummy import Card, Ruleset, Scoring, StockOut, preset
from bot.rummy.scoring import round_points
from cogs.ui import rule_words
from cogs.ui.present import MESSAGE_LIMIT, fit

_SCORING = {
    Scoring.POSITIVE: "help.score.positive",
    Scoring.NEGATIVE: "help.score.negative",
    Scoring.HAND: "help.score.hand",
}


def _labels(loc: str) -> dict[str, str]:
    """The labels of the buttons and menus the steps name, as the hand message shows them."""
    labels = {
        "draw": t("button.draw", loc),
        "take": t("button.take", loc, card="…"),
        "deep": t("menu.take_deep", loc),
        "meld_menu": t("menu.meld", loc),
        "layoff_menu": t("menu.layoff", loc),
        "discard_menu": t("menu.discard", loc),
        "end": t("button.end", loc),
        "hand": t("button.show_hand", loc),
        "join": t("button.join", loc),
        "addbot": t("button.addbot", loc),
        "start": t("button.start", loc),
    }
    return {name: f"**{label}**" for name, label in labels.items()}


def _values_key(ruleset: Ruleset) -> str:
    """The card values line that holds for ``ruleset``: its variant's, unless simple scoring
    (where an ace in hand may keep 15) or an ace made always low changes what an ace counts.
    The ace's value is asked of the engine, not inferred from the variant's name."""
    ace = Card.parse("As")
    in_hand = ruleset.card_value(ace)
    if ruleset.simple_scoring:
        return "help.values.simple" if in_hand == 5 else "help.values.500_simple"
    if in_hand == 1 and preset(ruleset.variant.name).card_value(ace) != 1:
        return "help.values.classic"  # the ace always low: it counts 1, as in classic
    return f"help.values.{ruleset.variant.name}"


STOCK_END_HANDS = (5, 12, 20)
"""The hands of the example that says how a round ended on an empty stock scores."""


def deal_line(ruleset: Ruleset, loc: str) -> str:
    """How many cards each player gets, for every count of players the game allows, counts
    with the same deal joined (``2 → 13, 3–4 → 7``): the engine's deal, options included."""
    groups: list[tuple[int, int, int]] = []  # first count, last count, cards
    for players in range(ruleset.min_players, ruleset.max_players + 1):
        cards = ruleset.hand_size(players)
        if groups and groups[-1][2] == cards:
            groups[-1] = (groups[-1][0], players, cards)
        else:
            groups.append((players, players, cards))
    parts = [
        t(
            "help.deal.part",
            loc,
            players=number(low, loc) if low == high else f"{number(low, loc)}–{number(high, loc)}",
            cards=number(cards, loc),
        )
        for low, high, cards in groups
    ]
    return t("help.deal", loc, deals=", ".join(parts))


def stock_end_line(ruleset: Ruleset, loc: str) -> str:
    """How a round that ends on an empty stock (nobody out) scores, with an example the
    engine scores: the lowest hand takes the difference from each other hand."""
    if ruleset.scoring is not Scoring.POSITIVE:
        return t("help.score.stock_end.same", loc)
    points = round_points(ruleset, STOCK_END_HANDS, (0,) * len(STOCK_END_HANDS), None)
    low = min(STOCK_END_HANDS)
    hands = [number(value, loc) for value in STOCK_END_HANDS]
    return t(
        "help.score.stock_end.positive",
        loc,
        hands=t("picture.and", loc, first=", ".join(hands[:-1]), second=hands[-1]),
        low=number(low, loc),
        points=tn("unit.points", points[STOCK_END_HANDS.index(low)], loc),
    )


def variant_help(ruleset: Ruleset, loc: str) -> list[str]:
    """A turn of ``ruleset``'s game, how its rounds end and score, and its house options."""
    label = _labels(loc)
    variant = t(ruleset.variant.name_key, loc)
    lines = [f"**{t('help.title', loc, variant=variant)}**", t("help.hand", loc, **label)]
    lines.append(t("help.draw", loc, **label))
    if ruleset.deep_discard:
        lines.append(t("help.draw_deep", loc, **label))
    lines.append(t("help.meld", loc, **label))
    if ruleset.jokers_per_deck:
        lines.append(t("help.jokers", loc))
    lines.append(t("help.layoff", loc, **label))
    if ruleset.joker_swap:
        lines.append(t("help.swap", loc, **label))
    lines.append(t("help.discard", loc, **label))
    lines.append(t("help.positions", loc))
    going_out = "help.out_discard" if ruleset.must_discard_to_go_out else "help.out"
    lines.append(t(going_out, loc))
    if ruleset.stock_out is StockOut.END_ROUND:
        lines.append(t("help.stock_end", loc, **label))
    else:
        lines.append(t("help.stock_turn_over", loc))
    lines.append(t(_SCORING[ruleset.scoring], loc, target=tn("unit.points", ruleset.target, loc)))
    lines.append(t(_values_key(ruleset), loc))
    if ruleset.jokers_per_deck > 0:
        lines.append(t("help.values.joker", loc))
    changed = rule_words.changed_rules(ruleset, loc)
    if changed:
        lines.append(t("help.options", loc, options="; ".join(changed)))
    # What a player looks up rather than reads at each turn, after the turn itself (so the
    # turn keeps its one message where it fits): the deal, how cards are written, the ace,
    # and how a round ended on an empty stock scores.
    lines.append(deal_line(ruleset, loc))
    lines.append(t("help.cards", loc))
    lines.append(t("help.aces.high" if ruleset.ace_high else "help.aces.low", loc))
    if ruleset.stock_out is StockOut.END_ROUND:
        lines.append(stock_end_line(ruleset, loc))
    return lines


def first_steps(loc: str) -> list[str]:
    """Every variant briefly, then how to open a table and start."""
    lines = rule_words.variants_overview(loc)[:-1]
    lines.append(t("help.start", loc, **_labels(loc)))
    lines.append(t("help.more", loc))
    return lines


def help_messages(ruleset: Ruleset | None, loc: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The answer to ``/rummy help``: ``ruleset``'s game explained, or the first steps, in
    as many messages as it takes (two for a variant's turn in most languages), never cut
    short."""
    lines = variant_help(ruleset, loc) if ruleset is not None else first_steps(loc)
    messages: list[list[str]] = [[]]
    for line in lines:
        if len("\n".join([*messages[-1], line])) > limit and messages[-1]:
            messages.append([])
        messages[-1].append(line)
    return [fit(chunk, limit) for chunk in messages]
