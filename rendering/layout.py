"""Where everything goes in a picture, decided before a pixel is drawn.

Each picture is first laid out as a list of items (panels, cards, labels, lines) with their
final coordinates, then painted. Keeping the two apart lets tests check the geometry — every
label inside the picture, no two labels on top of each other — without looking at pixels,
and lets the painter stay one small loop shared by every picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rendering.sprites import CardArt
from rendering.text import FontSpec, cap_height, fit, line_height, text_width
from rendering.theme import RGB, Theme

Align = Literal["left", "center", "right"]


@dataclass(frozen=True, slots=True)
class Box:
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def inside(self, width: int, height: int) -> bool:
        return 0 <= self.x0 <= self.x1 <= width and 0 <= self.y0 <= self.y1 <= height


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: RGB | None
    outline: RGB | None = None
    radius: int = 0
    line: int = 1


@dataclass(frozen=True, slots=True)
class Label:
    """Text, and the area it claims (a pill's background included)."""

    name: str
    box: Box
    text: str
    font: FontSpec
    colour: RGB
    text_at: tuple[int, int]
    background: RGB | None = None
    kind: str = "text"
    """What the text is: "meld" (a meld's number) and "depth" (a card's depth in the pile)
    must stay readable when the picture is shown small; other text is "text"."""


@dataclass(frozen=True, slots=True)
class CardItem:
    art: CardArt
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Readable:
    """A number people must read at a glance, and how tall its digits are drawn."""

    kind: str
    """"rank" (a card's corner), "meld" or "depth"."""
    name: str
    box: Box
    cap: float


@dataclass(frozen=True, slots=True)
class Dot:
    box: Box
    colour: RGB
    outline: RGB | None = None


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[tuple[float, float], ...]
    colour: RGB
    width: int
    dashed: bool = False


Item = Rect | Label | CardItem | Dot | Line


@dataclass(slots=True)
class Layout:
    """A picture's items in painting order; built by the ``layout_*`` functions."""

    theme: Theme
    width: int
    height: int = 0
    items: list[Item] = field(default_factory=list)
    _names: set[str] = field(default_factory=set, repr=False)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def labels(self) -> list[tuple[str, Box]]:
        return [(i.name, i.box) for i in self.items if isinstance(i, Label)]

    def readables(self) -> list[Readable]:
        """Every card rank, meld number and pile depth, with the height of its digits."""
        found = []
        for item in self.items:
            if isinstance(item, CardItem) and not item.art.back:
                size = item.art.size
                top = item.y + size.rank_top
                box = Box(item.x, top, item.x + size.strip, top + round(size.rank_cap))
                found.append(Readable("rank", f"card@{item.x},{item.y}", box, size.rank_cap))
            elif isinstance(item, Label) and item.kind != "text":
                found.append(Readable(item.kind, item.name, item.box, cap_height(item.font)))
        return found

    def label(
        self,
        name: str,
        x: int,
        y: int,
        text: str,
        spec: FontSpec,
        colour: RGB,
        *,
        max_width: int | None = None,
        align: Align = "left",
        background: RGB | None = None,
        pad: int = 0,
        kind: str = "text",
    ) -> Box:
        """Place text with its top at ``y``; ``x`` is its left, centre or right edge.

        Text wider than ``max_width`` (padding included) is cut with an ellipsis. With a
        background the label is a pill ``pad`` pixels larger than its text on each side.
        """
        if name in self._names:
            raise ValueError(f"two labels are named {name!r}")
        self._names.add(name)
        if max_width is not None:
            text = fit(text, spec, max(0, max_width - 2 * pad))
        inner_w, inner_h = text_width(text, spec), line_height(spec)
        outer_w = inner_w + 2 * pad
        left = x if align == "left" else x - outer_w if align == "right" else x - outer_w // 2
        if background is None:
            box = Box(left, y, left + outer_w, y + inner_h)
            text_at = (left + pad, y)
        else:
            box = Box(left, y, left + outer_w, y + pill_height(spec, pad))
            text_at = (left + pad, y + pad // 2)
        self.items.append(Label(name, box, text, spec, colour, text_at, background, kind))
        return box

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = None,
        radius: int = 0,
        line: int = 1,
        under: int | None = None,
    ) -> None:
        """A rectangle; ``under`` puts it beneath the items from that index on (a panel
        whose height is known only after its contents are placed)."""
        rect = Rect(box, fill, outline, radius, line)
        self.items.insert(len(self.items) if under is None else under, rect)

    def card(self, art: CardArt, x: int, y: int) -> Box:
        self.items.append(CardItem(art, x, y))
        return Box(x, y, x + (art.cut or art.size.width), y + art.size.height)

    def fan(self, arts: Sequence[CardArt], x: int, y: int, step: int | None = None) -> list[Box]:
        """Cards overlapping left to right; returns the part of each card left showing."""
        shown: list[Box] = []
        for i, art in enumerate(arts):
            size = art.size
            gap = size.strip if step is None else step
            box = self.card(art, x + i * gap, y)
            last = i == len(arts) - 1
            shown.append(box if last else Box(box.x0, box.y0, box.x0 + gap, box.y1))
        return shown

    def dot(self, cx: int, cy: int, diameter: int, colour: RGB, outline: RGB | None = None) -> Box:
        r = diameter // 2
        box = Box(cx - r, cy - r, cx - r + diameter, cy - r + diameter)
        self.items.append(Dot(box, colour, outline))
        return box

    def line(
        self, points: Sequence[tuple[float, float]], colour: RGB, width: int, dashed: bool = False
    ) -> None:
        self.items.append(Line(tuple(points), colour, width, dashed))


class Flow:
    """Hands out places for blocks left to right, starting a new row when one is full."""

    def __init__(self, x: int, y: int, width: int, gap_x: int, gap_y: int) -> None:
        self.left, self.right = x, x + width
        self.gap_x, self.gap_y = gap_x, gap_y
        self.x, self.y = x, y
        self.row_height = 0

    def place(self, width: int, height: int) -> tuple[int, int]:
        if self.x > self.left and self.x + width > self.right:
            self.y += self.row_height + self.gap_y
            self.x, self.row_height = self.left, 0
        at = (self.x, self.y)
        self.x += width + self.gap_x
        self.row_height = max(self.row_height, height)
        return at

    @property
    def bottom(self) -> int:
        return self.y + self.row_height


def pill_height(spec: FontSpec, pad: int) -> int:
    return line_height(spec) + pad
