"""The words and numbers a picture writes, in the language of the people who see it.

Why a value passed in: ``rendering`` may not read the catalogs (it imports ``bot.rummy`` types
only), so the caller hands every layout a :class:`Words` built from the reader's catalog
(``cogs/ui/picture_words.py``): the table and summaries get the channel's language, a hand its
owner's. ``ENGLISH`` keeps the English beside the pictures, as the engine keeps its refusals'
English, so a picture drawn without a caller (a preview, a benchmark) still reads; the
catalog tests keep it equal to ``en.json``'s ``picture.*`` texts, and every label a picture
draws comes from a key here (a test draws every picture with marker words and finds no
English left).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["ENGLISH", "ENGLISH_WORDS", "Words"]

ENGLISH: Mapping[str, str] = MappingProxyType(
    {
        "picture.and": "{first} and {second}",
        "picture.cards.one": "{count} card",
        "picture.cards.other": "{count} cards",
        "picture.chart.empty": "no rounds played yet",
        "picture.chart.subtitle": "{game} · target {target} · {rounds}",
        "picture.chart.target": "target {target}",
        "picture.chart.title": "Scores by round",
        "picture.games.one": "{count} game",
        "picture.games.other": "{count} games",
        "picture.hand.by_rank": "by rank",
        "picture.hand.by_suit": "by suit",
        "picture.hand.empty": "no cards in hand",
        "picture.hand.title": "Your hand · {cards}",
        "picture.league.against": "Against",
        "picture.league.average_place": "Average place",
        "picture.league.empty": "No games played yet",
        "picture.league.for": "For",
        "picture.league.games": "Games",
        "picture.league.page": "page {page} of {pages}",
        "picture.league.player": "Player",
        "picture.league.points_against": "Points against",
        "picture.league.points_for": "Points for",
        "picture.league.rating": "Rating",
        "picture.league.rating_caption": "rating",
        "picture.league.recent": "Recent games",
        "picture.league.recent_none": "none yet",
        "picture.league.record": "{games} · {wins} · {rate}",
        "picture.league.rounds_won": "Rounds won",
        "picture.league.win_rate": "Win %",
        "picture.league.wins": "Wins",
        "picture.mark.keep": "HOLD",
        "picture.mark.keep_meaning": "may not be discarded this turn",
        "picture.mark.legend": "{word}: {meaning}",
        "picture.mark.new": "NEW",
        "picture.mark.new_barred.one": "just drawn, the {count} card with a bar above",
        "picture.mark.new_barred.other": "just drawn, the {count} cards with a bar above",
        "picture.mark.new_meaning": "just drawn",
        "picture.mark.use": "USE",
        "picture.mark.use_meaning": "must be melded or laid off now",
        "picture.over": "★ Game over",
        "picture.over_won.one": "★ Game over · {names} wins!",
        "picture.over_won.other": "★ Game over · {names} win!",
        "picture.percent": "{value}%",
        "picture.rounds.one": "{count} round",
        "picture.rounds.other": "{count} rounds",
        "picture.summary.blocked": "the round was blocked",
        "picture.summary.col_cards": "Cards left",
        "picture.summary.col_hand": "Hand",
        "picture.summary.col_melded": "Melded",
        "picture.summary.col_player": "Player",
        "picture.summary.col_round": "Round",
        "picture.summary.col_total": "Total",
        "picture.summary.ended": "{player} ended the round on an empty stock",
        "picture.summary.no_cards": "no cards",
        "picture.summary.nobody": "nobody",
        "picture.summary.none": "No round has been scored yet",
        "picture.summary.subtitle": "{game} · target {target}",
        "picture.summary.tag_lowest": "lowest hand",
        "picture.summary.tag_went_out": "went out",
        "picture.summary.tag_winner": "★ winner",
        "picture.summary.the_winner": "the winner",
        "picture.summary.title": "Round {round} · {reason}",
        "picture.summary.went_out": "{player} went out",
        "picture.summary.why_hand": (
            "Each player scores what they melded and laid off, minus what they still hold"
        ),
        "picture.summary.why_lowest": (
            "No one went out: the lowest hand ({value}) takes the difference from each"
        ),
        "picture.summary.why_negative": "Each player scores their own hand value as penalty points",
        "picture.summary.why_went_out": "{player} scores the value of every other hand",
        "picture.table.discard": "Discard · {count}",
        "picture.table.legend": "a dot by a card: laid off by the player of that colour",
        "picture.table.more": "+{count} more",
        "picture.table.no_melds": "no melds yet",
        "picture.table.score": "{score} pts",
        "picture.table.stock": "Stock · {count}",
        "picture.table.target": "Target {target}",
        "picture.table.title": "Round {round} · {game}",
        "picture.table.to_play": "▶ {player} to play",
        "picture.tag.dealer": "DEALER",
        "picture.tag.turn": "▶ TURN",
        "picture.tag.winner": "★ WINNER",
        "picture.wins.one": "{count} win",
        "picture.wins.other": "{count} wins",
    }
)
"""Every picture text in English: key -> ``str.format`` template (``en.json`` holds the same)."""


def _english_plural(count: int) -> str:
    return "one" if count == 1 else "other"


def _english_number(value: float, decimals: int | None) -> str:
    """Commas between thousands, like the rest of the English text."""
    return f"{value:,}" if decimals is None else f"{value:,.{decimals}f}"


@dataclass(frozen=True, slots=True)
class Words:
    """One language's picture texts, its plural rule and its way of writing numbers.

    ``texts`` maps the keys of ``ENGLISH`` (plural ones with the reader's CLDR categories,
    ``picture.cards.few`` ...) to templates, and may name the variants (``variant.classic``:
    see :func:`rendering.style.game_name`); ``plural`` gives a count's category; ``digits``
    writes a number that is not negative (``decimals`` digits after the separator when given).
    """

    texts: Mapping[str, str] = field(default_factory=lambda: ENGLISH)
    plural: Callable[[int], str] = _english_plural
    digits: Callable[[float, int | None], str] = _english_number

    def __call__(self, key: str, /, **params: object) -> str:
        """The text of ``key``, formatted; English's when ``texts`` lacks it."""
        template = self.texts.get(key) or ENGLISH.get(key)
        if template is None:  # a plural form English does not have (``few``)
            template = ENGLISH[f"{key.rpartition('.')[0]}.other"]
        return template.format_map(params)

    def count(self, key: str, count: int, /, **params: object) -> str:
        """The text about ``count`` things, in the form the language's plural rule picks."""
        return self(f"{key}.{self.plural(count)}", count=self.number(count), **params)

    def number(self, value: float, decimals: int | None = None) -> str:
        """``value`` written the reader's way, with a true minus sign (it reads better than
        a hyphen)."""
        text = self.digits(abs(value), decimals)
        return f"−{text}" if value < 0 else text

    def names(self, names: list[str]) -> str:
        """ "Ann and Bob", in the reader's words."""
        joined = names[0] if names else ""
        for name in names[1:]:
            joined = self("picture.and", first=joined, second=name)
        return joined


ENGLISH_WORDS = Words()
"""The pictures' words when the caller gives none."""
