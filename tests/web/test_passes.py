"""The web table's passes: signed, bound to a game and a person, expiring; and the secret
kept in the data folder, readable by the bot's user alone."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from bot.infrastructure.settings import Secret, WebSettings
from web.tokens import BadPass, Pass, Signer, kept_secret, secret_of

KEY = b"k" * 32


def test_a_pass_reads_back_as_written_until_it_expires() -> None:
    signer = Signer(KEY)
    written = signer.write(Pass(7, 1234, 1000, "fr", by_rank=True))
    assert signer.read(written, 999) == Pass(7, 1234, 1000, "fr", by_rank=True)
    colours = signer.write(Pass(7, 1234, 1000, four_colour=True))
    assert signer.read(colours, 0) == Pass(7, 1234, 1000, four_colour=True)
    with pytest.raises(BadPass) as late:
        signer.read(written, 1001)
    assert late.value.key == "web.refused.expired"


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[:-2] + ("AA" if not text.endswith("AA") else "BB"),
        lambda text: "eyJ4Ijoy" + text[8:],
        lambda text: text.replace(".", ""),
        lambda text: text + "!",
        lambda text: "a" * 500 + text,
    ],
)
def test_a_changed_pass_is_forged(damage: object) -> None:
    signer = Signer(KEY)
    written = signer.write(Pass(7, 1234, 1000))
    assert callable(damage)
    with pytest.raises(BadPass) as forged:
        signer.read(damage(written), 0)
    assert forged.value.key == "web.refused.forged"


def test_another_secret_s_pass_is_forged() -> None:
    written = Signer(b"o" * 32).write(Pass(7, 1234, 1000))
    with pytest.raises(BadPass):
        Signer(KEY).read(written, 0)


def test_the_kept_secret_is_made_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "web-secret"
    first = kept_secret(path)
    assert len(first) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept_secret(path) == first
    settings = WebSettings(port=1, url="http://x", secret_file=path)
    assert secret_of(settings) == first
    chosen = WebSettings(port=1, url="http://x", secret=Secret("s" * 40), secret_file=path)
    assert secret_of(chosen) == b"s" * 40
