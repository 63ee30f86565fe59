"""Compare a rendered picture with its stored reference.

Pixels may differ a little between FreeType or Pillow builds (antialiasing of text), so the
check allows a small share of slightly different pixels; a moved card, a missing label or a
changed colour is far above it. Set UPDATE_GOLDEN=1 to rewrite the references after an
intended change, then look at them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).parent / "golden"
MAX_MEAN_DIFF = 1.0
"""Mean absolute difference per channel, 0-255."""
MAX_DIFFERING = 0.005
"""Share of pixels that differ at all."""


def difference(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, share of differing pixels)."""
    diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda v: 255 if v else 0)
    share = changed.histogram()[255] / (diff.width * diff.height)
    return mean, share


def assert_matches_golden(name: str, png: bytes, failures: Path) -> None:
    """Fail unless ``png`` matches golden/<name>.png; on failure the picture is kept in
    ``failures`` to look at."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        return
    assert path.exists(), f"no reference picture {path}; run with UPDATE_GOLDEN=1 to create it"
    actual = Image.open(io.BytesIO(png))
    with Image.open(path) as stored:
        expected = stored.convert("RGB")
    kept = failures / f"{name}.actual.png"
    if actual.size != expected.size:
        kept.write_bytes(png)
        raise AssertionError(f"{name}: size {actual.size} != reference {expected.size}; see {kept}")
    mean, share = difference(actual, expected)
    if mean > MAX_MEAN_DIFF or share > MAX_DIFFERING:
        kept.write_bytes(png)
        raise AssertionError(
            f"{name}: mean difference {mean:.2f}, {share:.2%} of pixels differ; see {kept}"
        )
