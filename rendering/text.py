"""The bundled fonts, text measuring, and rendered text kept for reuse.

Only the files in ``rendering/fonts`` are used, so pictures look the same on every machine
whatever fonts it has installed. DejaVu Sans draws Latin, Greek, Cyrillic, Arabic, Hebrew
and combining marks; characters it lacks fall back to a subset of WenQuanYi Micro Hei
(common Chinese, Japanese and Korean) and then to a subset of Symbola (emoji and symbols,
in one colour). A character none of them has is left out rather than drawn as an empty box,
so a name keeps whatever part of it can be read.

Text is split into runs of one font each and the runs are drawn side by side on one
baseline. Pillow shapes with libraqm when it has it (Arabic letters join, right-to-left
runs are ordered); without it, right-to-left runs are reversed here so they still read in
the right order.

Drawing text holds the GIL and is the slowest part of composing, so each (text, font) is
rasterised once into a mask and then pasted.
"""

from __future__ import annotations

import io
import math
import struct
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont, features

ELLIPSIS = "…"

FACES = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("WenQuanYiMicroHei-Common.ttf", "WenQuanYiMicroHei-Common.ttf"),
    ("Symbola-Emoji.ttf", "Symbola-Emoji.ttf"),
)
"""(regular, bold) file of each font, in the order they are asked for a character."""

_DROPPED = frozenset(range(0x1F3FB, 0x1F400)) | {0xFE0E, 0xFE0F, 0x200D}
"""Skin tones, emoji/text variation selectors and the zero-width joiner: they change how a
colour emoji looks, which a one-colour font cannot show."""


@dataclass(frozen=True, slots=True)
class FontSpec:
    size: int
    bold: bool = False


class _Engine:
    """Which Pillow layout engine fonts are made with; tests switch it to the basic one to
    check that text still reads without libraqm."""

    layout: ImageFont.Layout = (
        ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    )


ENGINE = _Engine()


def use_layout(layout: ImageFont.Layout) -> None:
    """Make fonts with ``layout`` from now on, forgetting every font and text made before."""
    ENGINE.layout = layout
    for cached in (_face, line_height, cap_height, text_width, text_mask, _runs):
        cached.cache_clear()


@lru_cache(maxsize=8)
def _font_bytes(name: str) -> bytes:
    return resources.files("rendering").joinpath("fonts", name).read_bytes()


@lru_cache(maxsize=8)
def _coverage(name: str) -> frozenset[int]:
    """The code points a font file maps to a glyph, read from its 'cmap' table."""
    return frozenset(_cmap(_font_bytes(name)))


def _cmap(data: bytes) -> set[int]:
    (tables,) = struct.unpack_from(">H", data, 4)
    offset = None
    for i in range(tables):
        tag, _, start, _ = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if tag == b"cmap":
            offset = start
    if offset is None:
        return set()
    _, count = struct.unpack_from(">HH", data, offset)
    found: set[int] = set()
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHL", data, offset + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        at = offset + sub
        (form,) = struct.unpack_from(">H", data, at)
        if form == 4:
            found |= _format4(data, at)
        elif form == 12:
            found |= _format12(data, at)
    return found


def _format4(data: bytes, at: int) -> set[int]:
    (segs2,) = struct.unpack_from(">H", data, at + 6)
    segs = segs2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + segs2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * segs2)
    range_at = at + 16 + 3 * segs2
    ranges = struct.unpack_from(f">{segs}H", data, range_at)
    found: set[int] = set()
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">L", data, at + 12)
    found: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">LLL", data, at + 16 + 12 * i)
        found.update(range(first + (1 if glyph == 0 else 0), last + 1))
    return found


@lru_cache(maxsize=256)
def _face(face: int, spec: FontSpec) -> ImageFont.FreeTypeFont:
    name = FACES[face][1 if spec.bold else 0]
    return ImageFont.truetype(io.BytesIO(_font_bytes(name)), spec.size, layout_engine=ENGINE.layout)


def font(spec: FontSpec) -> ImageFont.FreeTypeFont:
    """The main font (DejaVu Sans) at ``spec``."""
    return _face(0, spec)


def face_of(char: str, bold: bool = False) -> int | None:
    """The first font that has ``char``, or None when none has."""
    code = ord(char)
    for i, names in enumerate(FACES):
        if code in _coverage(names[1 if bold else 0]):
            return i
    return None


@lru_cache(maxsize=8192)
def _runs(text: str, bold: bool) -> tuple[tuple[str, int], ...]:
    """``text`` as (piece, font) runs in drawing order, without what no font can draw.

    A combining mark stays with its letter's font when that font has it, and is left out
    otherwise: the letter alone still reads.
    """
    pieces: list[str] = []
    faces: list[int] = []
    for char in unicodedata.normalize("NFC", text):
        if ord(char) in _DROPPED:
            continue
        if unicodedata.category(char).startswith("M"):
            if faces and ord(char) in _coverage(FACES[faces[-1]][1 if bold else 0]):
                pieces[-1] += char
            continue
        face = face_of(char, bold)
        if face is None:
            continue
        if faces and faces[-1] == face:
            pieces[-1] += char
        else:
            pieces.append(char)
            faces.append(face)
    basic = ENGINE.layout == ImageFont.Layout.BASIC
    return tuple((_visual(p) if basic else p, f) for p, f in zip(pieces, faces, strict=True))


def runs(text: str, spec: FontSpec) -> tuple[tuple[str, int], ...]:
    """The (piece, font index) runs ``text`` is drawn as."""
    return _runs(text, spec.bold)


def _visual(piece: str) -> str:
    """A right-to-left piece in the order it is seen, for a layout engine that does no bidi:
    clusters (a letter and its marks) reversed, left-to-right stretches kept as they are."""
    if not any(unicodedata.bidirectional(c) in ("R", "AL") for c in piece):
        return piece
    clusters: list[str] = []
    for char in piece:
        if unicodedata.category(char).startswith("M") and clusters:
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters))


@lru_cache(maxsize=128)
def line_height(spec: FontSpec) -> int:
    ascent, descent = font(spec).getmetrics()
    return int(ascent + descent)


@lru_cache(maxsize=128)
def cap_height(spec: FontSpec) -> int:
    """How tall a digit's ink is: the height people read numbers and ranks at."""
    top, bottom = font(spec).getbbox("0", anchor="ls")[1::2]
    return int(bottom - top)


@lru_cache(maxsize=8192)
def text_width(text: str, spec: FontSpec) -> int:
    return math.ceil(sum(_face(face, spec).getlength(piece) for piece, face in runs(text, spec)))


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


SEPARATOR = " · "
"""Where a title is best broken: between its parts ("Round 3 · Bob went out")."""


def break_lines(text: str, spec: FontSpec, max_width: int, most: int = 2) -> list[str]:
    """``text`` in at most ``most`` lines of ``max_width`` pixels, broken after a " · "
    when that is enough, else between words (between any two characters in a script
    written without spaces); only what is left for the last line is cut with an ellipsis."""
    if text_width(text, spec) <= max_width or most <= 1:
        return [fit(text, spec, max_width)]
    head, sep, rest = text.partition(SEPARATOR)
    if sep and text_width(head, spec) <= max_width:
        return [head, *break_lines(rest, spec, max_width, most - 1)]
    cut = _longest_start(text, spec, max_width)
    return [text[:cut].rstrip(), *break_lines(text[cut:].lstrip(), spec, max_width, most - 1)]


def break_widths(text: str, spec: FontSpec, widths: Sequence[int]) -> list[str]:
    """``text`` in lines of the given widths, one after another, broken as
    :func:`break_lines` breaks them; only what is left for the last width is cut."""
    lines: list[str] = []
    for n, width in enumerate(widths):
        if not text:
            break
        last = n == len(widths) - 1
        head = break_lines(text, spec, width, most=1 if last else 2)[0]
        lines.append(head)
        text = text[len(head) :].strip().removeprefix(SEPARATOR.strip()).strip()
    return lines


def _longest_start(text: str, spec: FontSpec, max_width: int) -> int:
    """Where the longest start of ``text`` that fits ends: at a space, or after a hyphen,
    when one is in it."""
    end = 1
    while end < len(text) and text_width(text[: end + 1].rstrip(), spec) <= max_width:
        end += 1
    if end >= len(text):
        return end
    space, hyphen = text.rfind(" ", 0, end + 1), text.rfind("-", 0, end)
    return max(space, hyphen + 1) if max(space, hyphen) > 0 else end


@lru_cache(maxsize=4096)
def text_mask(text: str, spec: FontSpec) -> Image.Image:
    """The text as an 8-bit coverage mask whose box is its width by the line height."""
    mask = Image.new("L", (max(1, text_width(text, spec)), line_height(spec)), 0)
    draw = ImageDraw.Draw(mask)
    baseline = font(spec).getmetrics()[0]
    x = 0.0
    for piece, face in runs(text, spec):
        chosen = _face(face, spec)
        draw.text((x, baseline), piece, fill=255, font=chosen, anchor="ls")
        x += chosen.getlength(piece)
    return mask


def display_name(player: str, names: Mapping[str, str] | None) -> str:
    """The name people know a player by; the id itself when none is given or nothing of
    the name can be drawn."""
    name = names.get(player, "") if names else ""
    name = "".join(ch if ch.isprintable() else " " for ch in name).strip()
    if not any(face_of(ch) is not None and not ch.isspace() for ch in name):
        return player
    return name
