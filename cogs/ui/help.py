"""``/rummy help [variant]``: a first game explained, each step with the button and the
command that does it.

With a variant (or the game of the channel), a turn step by step: drawing, melds and
lay-offs, the discard, how a round ends and how it scores, in that variant's rules (the
ruleset's own values decide which lines apply, so nothing is said that the engine does not
do). Without either, each variant in a line or two and how to open a table. Buttons and
menus are named by their labels in the catalogs, so the help says what the screen shows.
"""

from __future__ import annotations

from bot.i18n import t, tn
from bot.rummy import Card, Ruleset, Scoring, StockOut, preset
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
    return lines


def first_steps(loc: str) -> list[str]:
    """Every variant briefly, then how to open a table and start."""
    lines = rule_words.variants_overview(loc)[:-1]
    lines.append(t("help.start", loc, **_labels(loc)))
    lines.append(t("help.more", loc))
    return lines


def help_messages(ruleset: Ruleset | None, loc: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The answer to ``/rummy help``: ``ruleset``'s game explained, or the first steps, in
    as many messages as it takes (one in English and French; longer languages may need two),
    never cut short."""
    lines = variant_help(ruleset, loc) if ruleset is not None else first_steps(loc)
    messages: list[list[str]] = [[]]
    for line in lines:
        if len("\n".join([*messages[-1], line])) > limit and messages[-1]:
            messages.append([])
        messages[-1].append(line)
    return [fit(chunk, limit) for chunk in messages]
