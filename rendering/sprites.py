"""Card faces, jokers and backs, each drawn once and then pasted.

A card is drawn four times too large and shrunk, which gives smooth suit marks and rounded
corners; that costs milliseconds per card, so every picture is kept in a cache keyed by
everything that changes its pixels. Pictures are made on first use, under a lock, so two
threads never build the same card twice or see a half-built one.

Suits are vector shapes rather than font glyphs: they look the same at every size and do
not depend on the font having them.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.rummy.cards import Card, Suit, rank_text
from bot.rummy.melds import Slot
from rendering.style import FLOOR_PX, PHONE_WIDTH, WIDTH
from rendering.text import ENGINE, FontSpec, cap_height, font
from rendering.theme import ON_JOKER, RGB, get_theme, suit_colour

SCALE = 4
"""Cards are drawn this many times too large, then shrunk."""

COURT = frozenset((11, 12, 13))
RANK = 0.36
"""The corner rank's font size as a share of the card's width: as large as the strip allows,
since the rank is what people read when the picture is shown small."""
MIN_STRIP = 27
"""The least a card's corner strip is wide: room for a rank at the floor's size (a "10"
is squeezed into it, never shrunk)."""


@lru_cache(maxsize=1)
def rank_floor() -> int:
    """The smallest corner rank font (in the four-times-larger drawing) whose digits stay
    :data:`~rendering.style.FLOOR_PX` tall, with a quarter pixel to spare for the blur of
    shrinking, when a picture :data:`~rendering.style.WIDTH` wide is shown at phone width."""
    size = 4 * SCALE
    while cap_height(FontSpec(size, bold=True)) / SCALE * PHONE_WIDTH / WIDTH < FLOOR_PX + 0.25:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class CardSize:
    width: int
    height: int
    floor: bool = True
    """Whether the corner rank keeps the floor's size (:func:`rank_floor`) on a small card;
    without it the rank is a share of the card's width, for a table so full that only
    smaller ranks keep every meld in the picture."""

    @property
    def strip(self) -> int:
        """How much of a card shows when the next one overlaps it: its corner index."""
        least = MIN_STRIP if self.floor else 0
        return max(least, round(self.width * 0.46))

    @property
    def radius(self) -> int:
        return max(3, round(self.width * 0.09))

    @property
    def rank_font(self) -> FontSpec:
        """The corner rank's font, in the four-times-larger drawing: never smaller than
        what reads on a phone (:func:`rank_floor`), whatever the card's size."""
        least = rank_floor() if self.floor else 0
        return FontSpec(max(least, round(self.width * RANK * SCALE)), bold=True)

    @property
    def rank_cap(self) -> float:
        """How tall the corner rank's digits are on the finished card, in pixels."""
        return cap_height(self.rank_font) / SCALE

    @property
    def index_bottom(self) -> int:
        """Where the corner index (the rank over its suit) ends, from the card's top edge."""
        return self.rank_top + math.ceil(sum(index_parts(self.rank_font)) / SCALE)

    @property
    def rank_top(self) -> int:
        """Where the corner index starts, from the card's top edge."""
        return round(self.width * 0.08)

    def fan_width(self, count: int, step: int | None = None) -> int:
        """The width of ``count`` cards overlapping by the strip (or ``step``)."""
        if count <= 0:
            return 0
        return (count - 1) * (self.strip if step is None else step) + self.width


@dataclass(frozen=True, slots=True)
class CardArt:
    """Everything that decides a card picture's pixels; the cache key."""

    rank: int
    """1-13, 0 for a joker; ignored for a back."""
    suit: Suit | None
    size: CardSize
    theme: str
    four_colour: bool = False
    back: bool = False
    stands_for: tuple[int, Suit | None] | None = None
    """For a joker on the table: the rank (1-14) and suit it stands for."""
    cut: int = 0
    """When not 0, only this many pixels of the card's left side are drawn: a card of a
    wrapped pile whose right part would otherwise look like the top of the pile."""

    @classmethod
    def of(
        cls, card: Card, size: CardSize, theme: str, four_colour: bool, slot: Slot | None = None
    ) -> CardArt:
        stands = (slot.rank, slot.suit) if slot is not None and card.is_joker else None
        return cls(card.rank, card.suit, size, theme, four_colour, stands_for=stands)

    @classmethod
    def card_back(cls, size: CardSize, theme: str) -> CardArt:
        return cls(0, None, size, theme, back=True)


SHADOW = (2, 3)
"""How far right and down a card's shadow falls; a picture is this much larger than its card."""


@dataclass(frozen=True, slots=True)
class Sprite:
    """A card picture (its shadow included) split for fast pasting.

    Pasting through an 8-bit mask blends every pixel and costs several times more than a
    1-bit mask, yet only the rounded corners are partly transparent. So the picture is pasted
    through ``solid`` (its fully opaque pixels) and each corner is then blended on its own.
    """

    image: Image.Image
    mask: Image.Image
    solid: Image.Image
    edges: tuple[tuple[tuple[int, int], Image.Image, Image.Image], ...]
    """(offset, picture, mask) of each patch of partly transparent pixels."""

    def paste_onto(self, canvas: Image.Image, x: int, y: int) -> None:
        canvas.paste(self.image, (x, y), self.solid)
        for (dx, dy), patch, mask in self.edges:
            canvas.paste(patch, (x + dx, y + dy), mask)


_cache: dict[tuple[CardArt, ImageFont.Layout], Sprite] = {}
_lock = threading.Lock()


def sprite(art: CardArt) -> Sprite:
    """The card's picture; kept per text layout engine too, since a corner's rank is text
    (tests switch engines, and a picture must not keep ranks drawn with the other one)."""
    key = (art, ENGINE.layout)
    found = _cache.get(key)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = _draw(art)
        return found


def cache_size() -> int:
    return len(_cache)


def clear_cache() -> None:
    """Forget every card picture (tests use it to start from a cold cache)."""
    with _lock:
        _cache.clear()


# --- drawing ---------------------------------------------------------------------------


def _draw(art: CardArt) -> Sprite:
    theme = get_theme(art.theme)
    w, h = art.size.width * SCALE, art.size.height * SCALE
    radius = art.size.radius * SCALE
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=255)
    face = theme.joker_face if art.rank == 0 and not art.back else theme.card_face
    image = Image.new("RGB", (w, h), theme.card_edge)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=theme.card_edge)
    edge = round(SCALE * max(1.0, art.size.width / 60))
    inner = (edge, edge, w - 1 - edge, h - 1 - edge)
    draw.rounded_rectangle(inner, radius - edge, fill=face)
    if art.back:
        _draw_back(draw, art, theme.back, theme.back_pattern, face)
    elif art.rank == 0:
        _draw_joker(image, art, face)
    else:
        _draw_face(image, art, face)
    small = (art.size.width, art.size.height)
    card = image.resize(small, Image.Resampling.LANCZOS)
    mask = mask.resize(small, Image.Resampling.BOX)
    if art.cut:
        card = card.crop((0, 0, art.cut, art.size.height))
        mask = mask.crop((0, 0, art.cut, art.size.height))
    return _with_shadow(card, mask, theme.shadow)


def _with_shadow(card: Image.Image, mask: Image.Image, shadow: RGB) -> Sprite:
    dx, dy = SHADOW
    size = (card.width + dx, card.height + dy)
    image = Image.new("RGB", size, shadow)
    image.paste(card, (0, 0), mask.point(lambda v: 255 if v else 0))
    shadow_mask = Image.new("L", size, 0)
    shadow_mask.paste(mask, (dx, dy))
    card_mask = Image.new("L", size, 0)
    card_mask.paste(mask, (0, 0))
    full = ImageChops.lighter(card_mask, shadow_mask)
    solid = full.point(lambda v: 255 if v == 255 else 0, "1")
    partial = full.point(lambda v: 255 if 0 < v < 255 else 0)
    edges = []
    cx, cy = size[0] // 2, size[1] // 2
    for left, top, right, bottom in (
        (0, 0, cx, cy),
        (cx, 0, size[0], cy),
        (0, cy, cx, size[1]),
        (cx, cy, size[0], size[1]),
    ):
        found = partial.crop((left, top, right, bottom)).getbbox()
        if found is not None:
            box = (left + found[0], top + found[1], left + found[2], top + found[3])
            edges.append(((box[0], box[1]), image.crop(box), full.crop(box)))
    return Sprite(image, full, solid, tuple(edges))


def _draw_back(draw: ImageDraw.ImageDraw, art: CardArt, ink: RGB, pattern: RGB, face: RGB) -> None:
    w, h = art.size.width * SCALE, art.size.height * SCALE
    inset = round(w * 0.09)
    box = (inset, inset, w - 1 - inset, h - 1 - inset)
    draw.rounded_rectangle(box, round(art.size.radius * SCALE * 0.6), fill=ink)
    step = max(SCALE * 4, round(w * 0.12))
    line = max(SCALE, round(w * 0.018))
    for offset in range(-h, w + h, step):  # a diamond lattice, clipped to the inner panel
        draw.line((offset, inset, offset + h, inset + h), fill=pattern, width=line)
        draw.line((offset, inset + h, offset + h, inset), fill=pattern, width=line)
    draw.rectangle((0, 0, w - 1, inset - 1), fill=face)
    draw.rectangle((0, h - inset, w - 1, h - 1), fill=face)
    draw.rectangle((0, 0, inset - 1, h - 1), fill=face)
    draw.rectangle((w - inset, 0, w - 1, h - 1), fill=face)
    draw.rounded_rectangle(box, round(art.size.radius * SCALE * 0.6), outline=ink, width=line * 2)
    cx, cy = w / 2, h / 2
    r = w * 0.16
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=face, outline=ink, width=line * 2)
    _pip(draw, Suit.SPADES, cx, cy, r * 1.1, ink)


def _draw_face(image: Image.Image, art: CardArt, face: RGB) -> None:
    assert art.suit is not None
    ink = suit_colour(art.suit, art.four_colour)
    _place_corner(image, _corner(art, rank_text(art.rank), art.suit, ink, face), art)
    w, h = image.size
    _pip(ImageDraw.Draw(image), art.suit, w * BIG_PIP_X, h * 0.76, w * BIG_PIP, ink)


BIG_PIP = 0.27
BIG_PIP_X = 0.78
"""The big suit mark's size and centre, as shares of the card's width: its left edge stays
right of the hand's fan step (0.6 of a card), so a covered card shows no sliver of it."""


def _draw_joker(image: Image.Image, art: CardArt, face: RGB) -> None:
    """A purple card with white stars: nothing else looks like it, even in a tight fan.

    On the table its corner is a white badge with the card it stands for, so the meld reads
    as the cards it means while the joker stays a joker.
    """
    w, h = image.size
    draw = ImageDraw.Draw(image)
    if art.stands_for is None:
        corner = _corner(art, "JK", None, ON_JOKER, face)
        _place_corner(image, corner, art)
    else:
        rank, suit = art.stands_for
        white = get_theme(art.theme).card_face
        corner = _corner(art, rank_text(rank), suit, suit_colour(suit, art.four_colour), white)
        x, y = round(art.size.width * 0.02 * SCALE), art.size.rank_top * SCALE
        pad = SCALE
        box = (x - pad, y - 2 * pad, x + corner.width + pad, y + corner.height + pad)
        draw.rounded_rectangle(box, 3 * SCALE, fill=white)
        image.paste(corner, (x, y))
    _star(draw, w * 0.8, h * 0.72, w * 0.16, ON_JOKER)  # right of the fan step, like a pip


def index_parts(spec: FontSpec) -> tuple[int, int, int, int]:
    """The corner index's heights, top to bottom, at the rank's font ``spec``: the rank's
    digits, what Q and J put under the baseline, a gap, and the suit's pip."""
    size = spec.size
    return round(cap_height(spec)), round(size * 0.1), round(size * 0.12), round(size * 0.62)


def _corner(art: CardArt, rank: str, suit: Suit | None, ink: RGB, face: RGB) -> Image.Image:
    """The index in the top-left corner: the rank over its suit, sized to fit the strip.

    A joker in hand shows a star for a suit.
    """
    w = art.size.strip * SCALE
    spec = art.size.rank_font
    cap, below, gap, pip = index_parts(spec)
    tile = Image.new("RGB", (w, cap + below + gap + pip), face)
    draw = ImageDraw.Draw(tile)
    rank_w = max(1, math.ceil(font(spec).getlength(rank)))
    text = Image.new("RGB", (rank_w, cap + below), face)
    ImageDraw.Draw(text).text((0, cap), rank, fill=ink, font=font(spec), anchor="ls")
    room = w - 4 * SCALE
    if rank_w > room:  # "10" and "JK" are squeezed rather than shrunk, to keep their height
        text = text.resize((room, text.height), Image.Resampling.LANCZOS)
    cx = w / 2
    tile.paste(text, (round(cx - text.width / 2), 0))
    y = cap + below + gap
    if suit is not None:
        _pip(draw, suit, cx, y + pip / 2, pip, ink)
    else:
        _star(draw, cx, y + pip / 2, pip / 2, ink)
    return tile


def _place_corner(image: Image.Image, corner: Image.Image, art: CardArt) -> None:
    image.paste(corner, (round(art.size.width * 0.02 * SCALE), art.size.rank_top * SCALE))


# --- vector marks ------------------------------------------------------------------------


def _heart_points(cx: float, cy: float, size: float, flip: bool) -> list[tuple[float, float]]:
    """The classic parametric heart, ``size`` tall, centred on (cx, cy)."""
    points = []
    for i in range(96):
        t = 2 * math.pi * i / 96
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        sy = (y + 5.5) / 29 * size  # the curve spans y in [-17, 12]; centre it
        points.append((cx + x / 29 * size, cy - sy if not flip else cy + sy))
    return points


def _pip(
    draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, size: float, ink: RGB
) -> None:
    """A suit mark about ``size`` tall centred on (cx, cy)."""
    if suit is Suit.DIAMONDS:
        half_w = size * 0.38
        top, bottom = cy - size / 2, cy + size / 2
        draw.polygon([(cx, top), (cx + half_w, cy), (cx, bottom), (cx - half_w, cy)], fill=ink)
    elif suit is Suit.HEARTS:
        draw.polygon(_heart_points(cx, cy, size * 1.05, flip=False), fill=ink)
    elif suit is Suit.SPADES:
        draw.polygon(_heart_points(cx, cy - size * 0.1, size * 0.9, flip=True), fill=ink)
        _stem(draw, cx, cy + size * 0.05, cy + size / 2, size, ink)
    else:
        r = size * 0.2
        for dx, dy in ((0.0, -0.23), (-0.23, 0.08), (0.23, 0.08)):
            x, y = cx + dx * size, cy + dy * size
            draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
        draw.polygon([(cx, cy - size * 0.2), (cx - r, cy + r), (cx + r, cy + r)], fill=ink)
        _stem(draw, cx, cy + size * 0.05, cy + size / 2, size, ink)


def _stem(
    draw: ImageDraw.ImageDraw, cx: float, top: float, bottom: float, size: float, ink: RGB
) -> None:
    half = size * 0.2
    draw.polygon(
        [
            (cx - size * 0.04, top),
            (cx + size * 0.04, top),
            (cx + half, bottom),
            (cx - half, bottom),
        ],
        fill=ink,
    )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, ink: RGB) -> None:
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=ink)
