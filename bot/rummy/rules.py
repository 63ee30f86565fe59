"""Every option of rules.md as one frozen, validated value, and the named presets.

A preset is a variant of :mod:`bot.rummy.variants` with the options players chose; players
may change only what the variant offers as an option. The engine asks a :class:`Ruleset`
everything that differs between variants, and the ruleset reads its variant's entry, so a
variant is configuration, not code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from bot.rummy.cards import ACE, Card
from bot.rummy.errors import RulesError
from bot.rummy.variants import ALIASES, DEFAULT, VARIANTS, Variant
from bot.rummy.variants import Scoring as Scoring
from bot.rummy.variants import StockOut as StockOut

MAX_TURNS_PER_ROUND = 300
MAX_TURNOVERS = 3
TARGET_LIMIT = 100_000
"""The highest target score a game may set (the lobby's option allows the same)."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The complete rules of one game. Create it with :func:`preset`."""

    name: str
    min_players: int
    max_players: int
    jokers_per_deck: int
    two_decks_for_four_five: bool
    ten_for_three: bool
    ace_high: bool
    """Aces may also stand above the king (Q-K-A); never both ends of one run."""
    deep_discard: bool
    stock_out: StockOut
    scoring: Scoring
    simple_scoring: bool
    target: int
    limit_layoffs: bool
    must_discard_to_go_out: bool
    joker_swap: bool

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise RulesError("refusal.rules.invalid", problems=problems)

    @property
    def variant(self) -> Variant:
        """What this game's variant decides beyond the values above: names, tables, hooks."""
        return _BASE[self.name]

    # --- what depends on the number of players -------------------------------------------

    def decks_for(self, players: int) -> int:
        self.check_players(players)
        return self.variant.deal(self, players).decks

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        return self.variant.deal(self, players).cards

    def check_players(self, players: int) -> None:
        if not (self.min_players <= players <= self.max_players):
            raise RulesError(
                "refusal.rules.players",
                preset=self.name,
                least=self.min_players,
                most=self.max_players,
                count=players,
            )

    # --- card values ---------------------------------------------------------------------

    def card_value(self, card: Card) -> int:
        """The value of a card held in hand (and of any placed card but a low ace)."""
        if card.is_joker:
            return 15
        if card.rank >= 10:
            return 10
        if card.rank == ACE:
            return self.variant.ace_value(self)
        return 5 if self.simple_scoring else card.rank

    def placed_value(self, card: Card, low_ace_of_run: bool) -> int:
        """The value of a card a player put on the table (Rummy 500 hand scoring)."""
        if card.rank == ACE and low_ace_of_run:
            return 5 if self.simple_scoring else 1
        return self.card_value(card)

    # --- text ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError("refusal.rules.unknown_fields", fields=", ".join(sorted(unknown)))
        values = dict(data)
        values["stock_out"] = StockOut(values["stock_out"])
        values["scoring"] = Scoring(values["scoring"])
        return cls(**values)

    def describe(self) -> str:
        """One line for people: the preset and the options that differ from it."""
        base = preset(self.name)
        changed = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        ]
        return self.name + (f" ({', '.join(changed)})" if changed else "")


def _problems(r: Ruleset) -> tuple[RulesError, ...]:
    problems: list[RulesError] = []
    if r.name not in _BASE:
        return (RulesError("refusal.rules.not_a_preset", name=r.name),)
    if not (2 <= r.min_players <= r.max_players):
        problems.append(RulesError("refusal.rules.empty_range"))
    if r.jokers_per_deck not in (0, 2):
        problems.append(RulesError("refusal.rules.jokers_per_deck"))
    if r.target <= 0:
        problems.append(RulesError("refusal.rules.target_low"))
    if r.target > TARGET_LIMIT:
        problems.append(RulesError("refusal.rules.target_high", most=TARGET_LIMIT))
    if r.scoring is Scoring.HAND and Scoring.HAND not in _BASE[r.name].scorings:
        problems.append(RulesError("refusal.rules.hand_scoring"))
    if r.deep_discard and r.stock_out is StockOut.TURN_OVER:
        problems.append(RulesError("refusal.rules.deep_turn_over"))
    return tuple(problems)


_BASE = VARIANTS
"""The registry's variants by name: the base of every preset."""
_ALIASES = ALIASES
"""Every name people may type for a preset -> the variant's name."""

# The options a variant may offer (rules.md marks them "option"): each is a few keywords
# players may use, each with a function from the given value to field changes.


def _flag(field: str) -> Any:
    def set_flag(value: Any) -> dict[str, Any]:
        return {field: _as_bool(value, field)}

    return set_flag


def _as_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("yes", "no", "true", "false", "on", "off"):
        return value.lower() in ("yes", "true", "on")
    raise RulesError("refusal.rules.yes_no", option=name, value=value)


def _target(value: Any) -> dict[str, Any]:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RulesError("refusal.rules.target", value=value)
    try:
        return {"target": int(value)}
    except ValueError:
        raise RulesError("refusal.rules.target", value=value) from None


def _jokers(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"jokers_per_deck": 2 if value else 0}
    if isinstance(value, int) and value in (0, 2):
        return {"jokers_per_deck": value}
    if isinstance(value, str):
        return _jokers(_as_bool(value, "jokers"))
    raise RulesError("refusal.rules.jokers", value=value)


def _scoring(allowed: tuple[Scoring, ...]) -> Any:
    def set_scoring(value: Any) -> dict[str, Any]:
        try:
            scoring = Scoring(str(value).lower())
        except ValueError:
            raise RulesError("refusal.rules.unknown_scoring", value=value) from None
        if scoring not in allowed:
            names = " or ".join(s.value for s in allowed)
            raise RulesError("refusal.rules.scoring", allowed=names, scoring=scoring.value)
        return {"scoring": scoring}

    return set_scoring


def _negative(value: Any) -> dict[str, Any]:
    negative = _as_bool(value, "negative_scoring")
    return {"scoring": Scoring.NEGATIVE if negative else Scoring.POSITIVE}


def _aces(allowed_high: bool) -> Any:
    def set_aces(value: Any) -> dict[str, Any]:
        text = str(value).lower().replace("-", "_").replace(" ", "_")
        if text in ("low", "always_low", "low_only"):
            return {"ace_high": False}
        if text in ("high_or_low", "high_low", "high", "both") and allowed_high:
            return {"ace_high": True}
        raise RulesError("refusal.rules.aces", value=value)

    return set_aces


def _ace_always_low(value: Any) -> dict[str, Any]:
    return {"ace_high": not _as_bool(value, "ace_always_low")}


def _decks(value: Any) -> dict[str, Any]:
    if value in (1, 2) and not isinstance(value, bool):
        return {"two_decks_for_four_five": value == 2}
    raise RulesError("refusal.rules.decks", value=value)


Setter = Callable[[Any], dict[str, Any]]


def _words(variant: Variant) -> dict[str, dict[str, Setter]]:
    """Per option a variant may offer, the keywords accepted for it."""
    return {
        "target": {"target": _target, "target_score": _target, "game_target": _target},
        "must_discard_to_go_out": dict.fromkeys(
            ("must_discard_to_go_out", "must_discard", "discard_to_go_out"),
            _flag("must_discard_to_go_out"),
        ),
        "limit_layoffs": dict.fromkeys(
            ("limit_layoffs", "limit_lay_offs", "limited_layoffs"), _flag("limit_layoffs")
        ),
        "simple_scoring": dict.fromkeys(("simple_scoring", "simple"), _flag("simple_scoring")),
        "scoring": {"scoring": _scoring(variant.scorings)},
        "negative_scoring": {"negative_scoring": _negative, "negative": _negative},
        "jokers": {"jokers": _jokers, "jokers_per_deck": _jokers, "use_jokers": _jokers},
        "two_decks": {
            "two_decks": _flag("two_decks_for_four_five"),
            "two_decks_for_four_five": _flag("two_decks_for_four_five"),
            "decks": _decks,
        },
        "ten_for_three": dict.fromkeys(
            ("ten_for_three", "ten_cards_for_three"), _flag("ten_for_three")
        ),
        "ace_high": dict.fromkeys(
            ("ace_high", "aces_high", "aces_high_or_low", "ace_high_or_low", "high_low_aces"),
            _flag("ace_high"),
        ),
        "ace_always_low": dict.fromkeys(("ace_always_low", "aces_always_low"), _ace_always_low),
        "aces": {"aces": _aces(allowed_high=True)},
    }


def _accepted(variant: Variant) -> dict[str, Setter]:
    """Every keyword a variant's options accept, in the order of its options."""
    words = _words(variant)
    return {word: setter for option in variant.options for word, setter in words[option].items()}


def preset_names() -> tuple[str, ...]:
    return tuple(_BASE)


def options_for(name: str) -> tuple[str, ...]:
    """The option keywords a preset accepts (aliases included)."""
    return tuple(_accepted(_BASE[_canonical(name)]))


def _canonical(name: str) -> str:
    key = str(name).strip().lower()
    if key not in _ALIASES:
        raise RulesError("refusal.rules.unknown_preset", name=name, presets=", ".join(_BASE))
    return _ALIASES[key]


def preset(name: str | int = DEFAULT, **options: Any) -> Ruleset:
    """The ruleset of a named preset with the given options changed.

    Only what rules.md calls an option for that preset may change; anything else, or a
    combination that cannot be played, raises :class:`RulesError` with the reason.

    >>> preset("500", limit_layoffs=True).limit_layoffs
    True
    """
    canonical = _canonical(str(name))
    allowed = _accepted(_BASE[canonical])
    values = _BASE[canonical].start_values()
    for key, value in options.items():
        setter = allowed.get(key)
        if setter is None:
            raise RulesError(
                "refusal.rules.no_option",
                preset=canonical,
                option=key,
                options=", ".join(sorted(allowed)),
            )
        values.update(setter(value))
    return Ruleset(name=canonical, **values)


PRESETS: dict[str, Ruleset] = {name: preset(name) for name in _BASE}
"""The preset of each variant registered when this module was imported."""


def with_options(ruleset: Ruleset, **options: Any) -> Ruleset:
    """A preset's ruleset with more options changed (validated like :func:`preset`)."""
    changed = preset(ruleset.name, **options)
    base = preset(ruleset.name)
    kept = {
        f.name: getattr(ruleset, f.name)
        for f in fields(ruleset)
        if getattr(ruleset, f.name) != getattr(base, f.name)
        and getattr(changed, f.name) == getattr(base, f.name)
    }
    return replace(changed, **kept)
