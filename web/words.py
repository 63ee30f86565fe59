"""The catalog texts the page shows, sent to it in the person's language."""

from __future__ import annotations

from bot.i18n import text_of

PAGE_KEYS = (
    "web.cancel",
    "web.card",
    "web.cards_in_hand",
    "web.connecting",
    "web.dealer",
    "web.discard",
    "web.draw_stock",
    "web.end_round",
    "web.hand",
    "web.joker",
    "web.joker_as",
    "web.lobby",
    "web.lost",
    "web.layoff",
    "web.meld",
    "web.meld_label",
    "web.melds",
    "web.no_melds",
    "web.over",
    "web.pile",
    "web.pile_empty",
    "web.players",
    "web.rank.1",
    "web.rank.11",
    "web.rank.12",
    "web.rank.13",
    "web.recent",
    "web.score",
    "web.selected",
    "web.stock",
    "web.suit.c",
    "web.suit.d",
    "web.suit.h",
    "web.suit.s",
    "web.swap",
    "web.take",
    "web.take_deep",
    "web.turn_of",
    "web.watching",
    "web.winners",
    "web.your_turn",
)


def page_words(locale: str) -> dict[str, str]:
    """Each page text as the catalog writes it, its ``{fields}`` left for the page to fill."""
    return {key.removeprefix("web."): text_of(key, locale) or key for key in PAGE_KEYS}
