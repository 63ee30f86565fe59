"""The pictures committed in docs/pictures/ are the ones the code draws today: rendered again
and compared like the golden images, and none left over that nothing draws any more."""

from __future__ import annotations

import io
from collections.abc import Mapping

import pytest
from PIL import Image

from tests.rendering.golden import MAX_DIFFERING, MAX_MEAN_DIFF, difference
from tests.rendering.readme_pictures import COMMAND, FOLDER, pictures


@pytest.fixture(scope="module")
def drawn() -> Mapping[str, bytes]:
    return pictures()


def test_the_committed_pictures_are_what_the_code_draws_today(drawn: Mapping[str, bytes]) -> None:
    stale = []
    for name, png in drawn.items():
        path = FOLDER / name
        if not path.exists():
            stale.append(f"{name} is missing")
            continue
        actual = Image.open(io.BytesIO(png))
        with Image.open(path) as stored:
            expected = stored.convert("RGB")
        if actual.size != expected.size:
            stale.append(f"{name}: size {actual.size}, committed {expected.size}")
            continue
        mean, share = difference(actual, expected)
        if mean > MAX_MEAN_DIFF or share > MAX_DIFFERING:
            stale.append(f"{name}: mean difference {mean:.2f}, {share:.2%} of pixels differ")
    left_over = sorted(path.name for path in FOLDER.iterdir() if path.name not in drawn)
    stale += [f"{name} is drawn by nothing" for name in left_over]
    assert not stale, (
        f"docs/pictures/ is out of date: run `{COMMAND}`, look at the pictures and commit "
        "them (a picture drawn by nothing: delete it). " + "; ".join(stale)
    )


def test_the_pictures_are_the_size_discord_shows(drawn: Mapping[str, bytes]) -> None:
    for name, png in drawn.items():
        width, height = Image.open(io.BytesIO(png)).size
        if name.endswith("-360.png"):
            assert width == 360, name
        else:
            assert name.endswith("-550.png"), name
            assert width <= 550, name
            assert height <= 350, name
