"""The colours of the two table themes and of the suits.

Every channel is a multiple of 4: such flat colours pass through the fixed 256-colour
palette unchanged (see :mod:`rendering.encode`), so text and card faces stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rummy.cards import Suit

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    bg: RGB
    """The felt everything sits on."""
    panel: RGB
    """A player's area, a table row."""
    panel_alt: RGB
    """Every other table row."""
    current: RGB
    """The area of the player whose turn it is."""
    text: RGB
    muted: RGB
    accent: RGB
    """Whose turn it is, winners: text and pills."""
    on_accent: RGB
    """Text on an accent-coloured pill."""
    badge: RGB
    """Meld numbers sit on it, over the cards: dark on both themes so the eye finds them."""
    on_badge: RGB
    target: RGB
    """The score chart's target line and label, a colour no player has."""
    shadow: RGB
    slot: RGB
    """The outline of an empty pile."""
    card_face: RGB
    card_edge: RGB
    joker_face: RGB
    back: RGB
    back_pattern: RGB
    mark_new: RGB
    mark_keep: RGB
    mark_use: RGB
    players: tuple[RGB, ...]
    """One colour per seat: score-chart lines, lay-off dots, name swatches."""

    @property
    def colours(self) -> tuple[RGB, ...]:
        """Every flat colour of the theme, for the palette."""
        own = (
            self.bg,
            self.panel,
            self.panel_alt,
            self.current,
            self.text,
            self.muted,
            self.accent,
            self.on_accent,
            self.badge,
            self.on_badge,
            self.target,
            self.shadow,
            self.slot,
            self.card_face,
            self.card_edge,
            self.joker_face,
            self.back,
            self.back_pattern,
            self.mark_new,
            self.mark_keep,
            self.mark_use,
        )
        return (*own, *self.players, *INKS, *MEDALS)


INK_BLACK: RGB = (28, 28, 32)
INK_RED: RGB = (200, 28, 44)
INK_GREEN: RGB = (16, 124, 56)
INK_BLUE: RGB = (20, 84, 196)
INK_JOKER: RGB = (112, 48, 160)
ON_JOKER: RGB = (252, 252, 252)
"""The star, "JK" and "JOKER" on the purple face of a joker."""
INKS: tuple[RGB, ...] = (INK_BLACK, INK_RED, INK_GREEN, INK_BLUE, INK_JOKER, ON_JOKER)
MEDALS: tuple[RGB, ...] = ((252, 200, 60), (196, 204, 212), (212, 140, 84))
"""Gold, silver and bronze discs behind the first three places in the standings."""

_TWO_COLOUR = {Suit.CLUBS: INK_BLACK, Suit.DIAMONDS: INK_RED, Suit.HEARTS: INK_RED}
_FOUR_COLOUR = {Suit.CLUBS: INK_GREEN, Suit.DIAMONDS: INK_BLUE, Suit.HEARTS: INK_RED}


def suit_colour(suit: Suit | None, four_colour: bool) -> RGB:
    """Ink for a suit; a joker (no suit) has its own ink."""
    if suit is None:
        return INK_JOKER
    table = _FOUR_COLOUR if four_colour else _TWO_COLOUR
    return table.get(suit, INK_BLACK)


# Chosen to stay apart from each other and readable on both felts.
_PLAYERS_DARK: tuple[RGB, ...] = (
    (252, 180, 60),
    (96, 196, 252),
    (244, 112, 132),
    (148, 224, 100),
    (200, 148, 252),
    (252, 236, 120),
    (72, 220, 200),
    (252, 152, 220),
)
_PLAYERS_LIGHT: tuple[RGB, ...] = (
    (212, 112, 0),
    (24, 112, 200),
    (200, 36, 80),
    (48, 148, 32),
    (132, 64, 200),
    (152, 132, 0),
    (0, 144, 132),
    (200, 60, 168),
)

DARK = Theme(
    name="dark",
    bg=(20, 64, 44),
    panel=(28, 80, 56),
    panel_alt=(32, 88, 64),
    current=(36, 100, 72),
    text=(244, 244, 236),
    muted=(192, 220, 204),
    accent=(252, 200, 60),
    on_accent=(36, 28, 8),
    badge=(20, 24, 28),
    on_badge=(252, 252, 248),
    target=(236, 236, 236),
    shadow=(12, 40, 28),
    slot=(96, 148, 120),
    card_face=(252, 252, 248),
    card_edge=(148, 152, 148),
    joker_face=INK_JOKER,
    back=(140, 32, 48),
    back_pattern=(200, 84, 96),
    mark_new=(64, 176, 252),
    mark_keep=(240, 72, 72),
    mark_use=(252, 152, 32),
    players=_PLAYERS_DARK,
)

LIGHT = Theme(
    name="light",
    bg=(212, 224, 216),
    panel=(236, 244, 236),
    panel_alt=(244, 248, 244),
    current=(252, 244, 224),
    text=(24, 36, 32),
    muted=(72, 92, 84),
    accent=(136, 76, 0),
    on_accent=(252, 252, 248),
    badge=(20, 24, 28),
    on_badge=(252, 252, 248),
    target=(40, 48, 44),
    shadow=(188, 200, 192),
    slot=(148, 168, 156),
    card_face=(252, 252, 252),
    card_edge=(120, 128, 124),
    joker_face=INK_JOKER,
    back=(32, 72, 152),
    back_pattern=(92, 136, 212),
    mark_new=(0, 100, 192),
    mark_keep=(196, 28, 28),
    mark_use=(172, 72, 0),
    players=_PLAYERS_LIGHT,
)

THEMES = {t.name: t for t in (DARK, LIGHT)}


def get_theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme '{name}': choose {', '.join(THEMES)}") from None


def luminance(colour: RGB) -> float:
    """Relative luminance as WCAG defines it, 0 for black to 1 for white."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21; text needs at least 4.5."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def player_colour(theme: Theme, seat: int) -> RGB:
    return theme.players[seat % len(theme.players)]
