"""Every variant the bot deals, each one entry of :data:`VARIANTS`, found by name only here.

A variant is its names (the one stored with every game, the ones people may type, the ones
people read), the rule values a game starts from, the options players may change, its deck
and hand-size tables and a few hooks for what a table cannot say. The engine reads a variant
through :class:`bot.rummy.rules.Ruleset`; the lobby's choices, ``/rummy rules`` and the
pictures' titles read its names here. So adding a variant is one :func:`register` call below
and its names and help lines in the message catalogs (``variant.<name>``, ``choice.<name>``,
``rules.summary.<name>``, ``help.values.<name>``); no other module names a variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple, Protocol, TypeAlias


class Scoring(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"
    HAND = "hand"


class StockOut(StrEnum):
    """What happens when a player is to draw and the stock is empty."""

    END_ROUND = "end_round"
    TURN_OVER = "turn_over"


class Rules(Protocol):
    """What a hook reads of the rules in play. They are a :class:`bot.rummy.rules.Ruleset`,
    which imports this module, so they are named here by the values the hooks read."""

    @property
    def ace_high(self) -> bool: ...

    @property
    def simple_scoring(self) -> bool: ...

    @property
    def two_decks_for_four_five(self) -> bool: ...

    @property
    def ten_for_three(self) -> bool: ...


class Deal(NamedTuple):
    """How a round is dealt to a number of players."""

    decks: int
    cards: int
    """Cards dealt to each player."""


ByPlayers: TypeAlias = Mapping[int, int]
"""A number that changes with the player count, given from where it changes: ``{2: 13,
3: 7}`` is 13 for two players and 7 from three on."""


def _at(table: ByPlayers, players: int) -> int:
    return table[max(n for n in table if n <= players)]


def low_ace(rules: Rules) -> int:
    """An ace in hand counts as the low card it is: 1, or 5 with simple scoring."""
    return 5 if rules.simple_scoring else 1


def as_tabled(rules: Rules, players: int, deal: Deal) -> Deal:
    """The deal of the tables, when no option changes it."""
    return deal


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant: its names, its rules before options, and what depends on the players."""

    name: str
    """The name every saved game stores (``Ruleset.name``): never change it."""
    aliases: tuple[str, ...]
    """Other names people may type for it, lower case."""
    title: str
    """Its English name in the lobby's choices (catalog key ``choice.<name>``)."""
    picture_title: str
    """Its name on the pictures."""
    name_key: str
    """The catalog key of its name in the lobby and ``/rummy rules``."""
    scorings: tuple[Scoring, ...]
    """The scoring kinds players may choose, its own first."""
    rules: Mapping[str, Any]
    """Every value a game's ``Ruleset`` starts from but its name and scoring, by field."""
    options: tuple[str, ...]
    """The options players may change, by name (``bot.rummy.rules`` knows the words for
    each), in the order they are listed."""
    decks: ByPlayers
    """Decks shuffled together, by player count."""
    hand_sizes: ByPlayers
    """Cards dealt to each player, by player count."""
    options_deal: Callable[[Rules, int, Deal], Deal] = as_tabled
    """The deal once the options had their say (given the deal of the tables)."""
    ace_value: Callable[[Rules], int] = low_ace
    """What an ace in hand counts."""
    short_title: str = ""
    """Its short English name, in the descriptions of the options only some variants have
    (``Parlett: aces high or low``); empty: its title."""
    cut_losses_after: int | None = None
    """Turns a player from which the hard computer lays its melds down when far from going
    out, measured per variant (``HardPlayer.cut_after``); ``None``: it keeps holding them."""

    def __post_init__(self) -> None:
        lowest = self.rules["min_players"]
        if min(self.decks) > lowest or min(self.hand_sizes) > lowest:
            raise ValueError(f"{self.name}: the deal tables must start at {lowest} players")

    @property
    def scoring(self) -> Scoring:
        return self.scorings[0]

    @property
    def short_name(self) -> str:
        return self.short_title or self.title

    def start_values(self) -> dict[str, Any]:
        """The values of every ``Ruleset`` field but the name, before any option."""
        return {**self.rules, "scoring": self.scoring}

    def deal(self, rules: Rules, players: int) -> Deal:
        """How a round of ``rules`` (this variant's) is dealt to ``players``.

        >>> from bot.rummy import preset
        >>> PARLETT.deal(preset("parlett"), 4), PARLETT.deal(preset("parlett", two_decks=1), 4)
        (Deal(decks=1, cards=7), Deal(decks=2, cards=10))
        """
        tabled = Deal(_at(self.decks, players), _at(self.hand_sizes, players))
        return self.options_deal(rules, players, tabled)


VARIANTS: dict[str, Variant] = {}
"""Every variant by name, in the order the lobby offers them."""
ALIASES: dict[str, str] = {}
"""Every name people may type for a variant (lower case) -> the variant's name."""


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry; its names must be new."""
    names = (variant.name, *variant.aliases)
    taken = [name for name in names if name in ALIASES]
    if taken:
        raise ValueError(f"variant names already taken: {', '.join(taken)}")
    VARIANTS[variant.name] = variant
    ALIASES.update(dict.fromkeys(names, variant.name))
    return variant


def cut_losses_table() -> dict[str, int]:
    """The hard computer's turn a player to cut its losses, by variant name."""
    return {
        variant.name: variant.cut_losses_after
        for variant in VARIANTS.values()
        if variant.cut_losses_after is not None
    }


# --- the variants ------------------------------------------------------------------------

_PLAIN = {
    "two_decks_for_four_five": False,
    "ten_for_three": False,
    "limit_layoffs": False,
    "must_discard_to_go_out": False,
    "simple_scoring": False,
}
"""Options every variant starts without."""

CLASSIC = register(
    Variant(
        name="classic",
        aliases=("basic", "rummy"),
        title="Classic Rummy",
        short_title="Classic",
        picture_title="Classic Rummy",
        name_key="variant.classic",
        scorings=(Scoring.POSITIVE, Scoring.NEGATIVE),
        rules={
            **_PLAIN,
            "min_players": 2,
            "max_players": 4,
            "jokers_per_deck": 0,
            "ace_high": False,
            "deep_discard": False,
            "stock_out": StockOut.END_ROUND,
            "target": 100,
            "joker_swap": False,
        },
        options=(
            "target",
            "must_discard_to_go_out",
            "limit_layoffs",
            "simple_scoring",
            "scoring",
            "negative_scoring",
        ),
        decks={2: 1},
        hand_sizes={2: 13, 3: 7},
    )
)


def _parlett_deal(rules: Rules, players: int, deal: Deal) -> Deal:
    """Two decks for four or five players by option; two decks deal ten cards each, and so
    does three players' ten-card option."""
    decks = 2 if players >= 4 and rules.two_decks_for_four_five else deal.decks
    ten = decks == 2 or (players == 3 and rules.ten_for_three)
    return Deal(decks, 10 if ten else deal.cards)


def _parlett_ace(rules: Rules) -> int:
    return 11 if rules.ace_high else 1


PARLETT = register(
    Variant(
        name="parlett",
        aliases=("parlett-basic",),
        title="Parlett's Basic Rummy",
        short_title="Parlett",
        picture_title="Parlett Rummy",
        name_key="variant.parlett",
        scorings=(Scoring.POSITIVE,),
        rules={
            **_PLAIN,
            "min_players": 2,
            "max_players": 7,
            "jokers_per_deck": 2,
            "ace_high": False,
            "deep_discard": False,
            "stock_out": StockOut.TURN_OVER,
            "target": 100,
            "joker_swap": True,
        },
        options=(
            "target",
            "must_discard_to_go_out",
            "jokers",
            "two_decks",
            "ten_for_three",
            "ace_high",
            "aces",
            "scoring",
        ),
        decks={2: 1, 6: 2},
        hand_sizes={2: 10, 3: 7, 6: 10},
        options_deal=_parlett_deal,
        ace_value=_parlett_ace,
        cut_losses_after=4,
    )
)


def _high_ace_15(rules: Rules) -> int:
    """Rummy 500's ace counts 15 unless the "ace always low" option makes it a low card."""
    return 15 if rules.ace_high else low_ace(rules)


RUMMY_500 = register(
    Variant(
        name="500",
        aliases=("rummy500", "rummy-500", "rummy_500"),
        title="Rummy 500",
        short_title="Rummy 500",
        picture_title="Rummy 500",
        name_key="variant.500",
        scorings=(Scoring.HAND,),
        rules={
            **_PLAIN,
            "min_players": 2,
            "max_players": 8,
            "jokers_per_deck": 0,
            "ace_high": True,
            "deep_discard": True,
            "stock_out": StockOut.END_ROUND,
            "target": 500,
            "joker_swap": False,
        },
        options=(
            "target",
            "must_discard_to_go_out",
            "limit_layoffs",
            "simple_scoring",
            "jokers",
            "ace_always_low",
            "aces",
            "scoring",
        ),
        decks={2: 1, 5: 2},
        hand_sizes={2: 13, 3: 7},
        ace_value=_high_ace_15,
        cut_losses_after=7,
    )
)

DEFAULT = CLASSIC.name
"""The variant a preset is when none is named."""
