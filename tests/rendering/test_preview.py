"""The preview tool writes every picture as Discord shows it: within the desktop box, and
exactly a phone's width."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.rendering.preview import DESKTOP, PHONE_WIDTH, write


def test_the_preview_writes_each_picture_as_desktop_and_phone_show_it(tmp_path: Path) -> None:
    written = write(tmp_path, "fr")
    assert len(written) == 2 * 11 * 3
    for path in written:
        with Image.open(path) as image:
            width, height = image.size
        if path.stem.endswith("_360"):
            assert width == PHONE_WIDTH
        elif path.stem.endswith("_550"):
            assert width <= DESKTOP[0]
            assert height <= DESKTOP[1]
