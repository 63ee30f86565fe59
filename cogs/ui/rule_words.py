"""The rules of a game in sentences: what its options changed from its variant, not a list
of every rule with yes or no.

The lobby message and ``/rummy rules`` show a game's variant, players and target, then one
sentence for each rule its options changed (``Jokers: 2 per deck``, ``Going out needs a
final discard``). Without a game, ``/rummy rules`` gives each variant in a line or two. The
Rummy 500 deep-take menu says which card must then be used. Every sentence reads the
ruleset's values, so it is true of the engine; the texts are the catalogs'.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t, tn
from bot.rummy import GameView, Ruleset, Scoring, TakeDiscard, preset, variants
from bot.rummy.cards import Card
from cogs.ui import house_options


def variant_name(name: str, loc: str) -> str:
    """A variant as the catalog of ``loc`` names it (``Румми Парлетта``), from the name a
    stored game keeps (``parlett``); a name no variant has is shown as it is."""
    variant = variants.VARIANTS.get(name)
    return t(variant.name_key, loc) if variant is not None else name


def changed_rules(
    ruleset: Ruleset,
    loc: str,
    table: Sequence[house_options.HouseOption] = house_options.HOUSE_OPTIONS,
) -> list[str]:
    """One sentence for each rule ``ruleset`` plays differently from its variant (the
    target aside: every game states it)."""
    base = preset(ruleset.name)
    lines: list[str] = []
    if ruleset.jokers_per_deck != base.jokers_per_deck:
        if ruleset.jokers_per_deck:
            lines.append(t("rules.diff.jokers", loc, count=ruleset.jokers_per_deck))
        else:
            lines.append(t("rules.diff.no_jokers", loc))
    if ruleset.ace_high != base.ace_high:
        lines.append(t("rules.diff.aces_high" if ruleset.ace_high else "rules.diff.aces_low", loc))
    if ruleset.scoring is not base.scoring and ruleset.scoring is Scoring.NEGATIVE:
        lines.append(t("rules.diff.negative", loc))
    for field, key in house_options.sentences(table).items():
        if getattr(ruleset, field) and not getattr(base, field):
            lines.append(t(key, loc))
    return lines


def rules_lines(ruleset: Ruleset, loc: str) -> list[str]:
    """A game's rules for people: variant, players, target, then what its options changed
    (or that they changed nothing)."""
    lines = [
        t("rules.variant", loc, variant=t(ruleset.variant.name_key, loc)),
        t("rules.players", loc, low=ruleset.min_players, high=ruleset.max_players),
        t("rules.target", loc, target=tn("unit.points", ruleset.target, loc)),
    ]
    changed = changed_rules(ruleset, loc)
    return lines + (changed or [t("rules.diff.none", loc)])


def variants_overview(loc: str) -> list[str]:
    """Every variant in a line or two, then where to learn more and how to start."""
    lines = [f"**{t('rules.overview.title', loc)}**"]
    for variant in variants.VARIANTS.values():
        ruleset = preset(variant.name)
        lines.append(
            t(
                "rules.overview.line",
                loc,
                variant=t(variant.name_key, loc),
                low=ruleset.min_players,
                high=ruleset.max_players,
                target=tn("unit.points", ruleset.target, loc),
                summary=t(f"rules.summary.{variant.name}", loc),
            )
        )
    lines.append(t("rules.overview.more", loc))
    return lines


def deep_take_label(action: TakeDiscard, view: GameView, loc: str) -> str:
    """A deep take as the menu offers it: how many cards, down to which, and that this card
    must then be melded or laid off. Taking the top card only is a plain take, which the
    engine lets you keep (it asks a use of the lowest card only deeper than one)."""
    pile = view.discard
    lowest: Card | None = pile[-action.depth] if action.depth <= len(pile) else None
    card = lowest.face_text if lowest is not None else "?"
    if action.depth == 1:
        return t("menu.take_top_option", loc, card=card)
    return t("menu.take_deep_option", loc, cards=tn("unit.cards", action.depth, loc), card=card)
