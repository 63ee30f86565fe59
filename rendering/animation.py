"""Animated GIFs written frame by frame, small, with a cap on their size.

GIF is the animated format Discord plays inline in chat on every client: it does not
animate APNG attachments at all (it keeps their first frame), and animated WebP only plays
on recent clients. A GIF holds 256 colours, which is what every picture here is mapped to
anyway (:mod:`rendering.encode`), so frames lose nothing.

Frames are written as they come, and only the part of a frame that changed since the one
before is stored, with its unchanged pixels transparent (which compresses to almost
nothing); so memory holds two frames whatever the length, and a frame that changes a
little costs a little. Pillow's own multi-frame writer keeps every frame in memory until
the end, hundreds of megabytes for a long game; its per-frame helpers (``getheader``,
``getdata``) write the same bytes one frame at a time.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops

from rendering.encode import palette_colours
from rendering.theme import RGB, Theme

CLEAR = 255
"""The palette index left free for transparent pixels (the theme's 256th colour, the last of
its filler cube, is given up for it)."""
LOOP_FOREVER = 0

_palettes: dict[str, Image.Image] = {}
_lock = threading.Lock()


class TooLarge(Exception):
    """The animation would pass its size cap; nothing was returned."""


def gif_palette(theme: Theme) -> Image.Image:
    """The theme's colours less one, as a palette image for ``Image.quantize``."""
    with _lock:
        found = _palettes.get(theme.name)
        if found is None:
            colours: list[RGB] = palette_colours(theme)[:CLEAR]
            found = Image.new("P", (1, 1))
            found.putpalette([channel for colour in colours for channel in colour])
            _palettes[theme.name] = found
        return found


def to_frame(picture: Image.Image, size: tuple[int, int], theme: Theme) -> Image.Image:
    """``picture`` (RGB) at the top left of a ``size`` canvas of the theme's background,
    mapped to the GIF palette without dithering (flat colours stay flat)."""
    if picture.size != size:
        canvas = Image.new("RGB", size, theme.bg)
        canvas.paste(picture, (0, 0))
        picture = canvas
    return picture.quantize(palette=gif_palette(theme), dither=Image.Dither.NONE)


def write_gif(frames: Iterable[tuple[Image.Image, int]], *, max_bytes: int) -> tuple[bytes, int]:
    """The GIF of ``frames`` (each a frame from :func:`to_frame` and how long it shows, in
    milliseconds), looping forever, and how many frames it holds (a frame identical to the
    one before only lengthens it). Raises :class:`TooLarge` as soon as it passes
    ``max_bytes``, so a file too big costs no more work."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    pending: _Part | None = None
    """The last changed part, written once the next frame says whether it shows longer."""
    count = 0
    for frame, ms in frames:
        if previous is None or pending is None:
            header, _ = GifImagePlugin.getheader(
                frame, info={"loop": LOOP_FOREVER, "transparency": CLEAR, "duration": ms}
            )
            out.write(b"".join(header))
            pending = _Part(frame, (0, 0), ms)
        else:
            delta = ImageChops.subtract_modulo(frame, previous)
            box = delta.getbbox()
            if box is None:
                pending.ms += ms
                continue
            pending.write(out)
            part = frame.crop(box)
            part.paste(CLEAR, mask=delta.crop(box).point([255] + [0] * 255, "1"))
            pending = _Part(part, (box[0], box[1]), ms)
        if out.tell() > max_bytes:
            raise TooLarge
        previous = frame
        count += 1
    if pending is not None:
        pending.write(out)
    out.write(b";")
    if out.tell() > max_bytes:
        raise TooLarge
    return out.getvalue(), count


@dataclass(slots=True)
class _Part:
    """What changed in a frame, where, and how long it shows."""

    image: Image.Image
    at: tuple[int, int]
    ms: int

    def write(self, out: io.BytesIO) -> None:
        chunks = GifImagePlugin.getdata(
            self.image, offset=self.at, duration=self.ms, disposal=1, transparency=CLEAR
        )
        out.write(b"".join(chunks))
