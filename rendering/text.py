"""The bundled font, text measuring, and rendered text kept for reuse.

Only the DejaVu files in ``rendering/fonts`` are used, so pictures look the same on every
machine whatever fonts it has installed. Drawing text holds the GIL and is the slowest part
of composing, so each (text, font) is rasterised once into a mask and then pasted.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class FontSpec:
    size: int
    bold: bool = False


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return resources.files("rendering").joinpath("fonts", name).read_bytes()


@lru_cache(maxsize=128)
def font(spec: FontSpec) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_font_bytes(spec.bold)), spec.size)


@lru_cache(maxsize=128)
def line_height(spec: FontSpec) -> int:
    ascent, descent = font(spec).getmetrics()
    return int(ascent + descent)


@lru_cache(maxsize=8192)
def text_width(text: str, spec: FontSpec) -> int:
    return math.ceil(font(spec).getlength(text))


def fit(text: str, spec: FontSpec, max_width: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_width`` pixels wide."""
    if text_width(text, spec) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, spec) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    if lo:
        return text[:lo].rstrip() + ELLIPSIS
    return ELLIPSIS if text_width(ELLIPSIS, spec) <= max_width else ""


@lru_cache(maxsize=4096)
def text_mask(text: str, spec: FontSpec) -> Image.Image:
    """The text as an 8-bit coverage mask whose box is its width by the line height."""
    mask = Image.new("L", (max(1, text_width(text, spec)), line_height(spec)), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=255, font=font(spec), anchor="la")
    return mask


def display_name(player: str, names: Mapping[str, str] | None) -> str:
    """The name people know a player by; the id itself when none is given."""
    name = names.get(player, "") if names else ""
    name = "".join(ch if ch.isprintable() else " " for ch in name).strip()
    return name or player
