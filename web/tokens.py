"""Signed passes: who may open which game's page, until when.

A pass is a small JSON object signed with HMAC-SHA256 under the bot's web secret and written
as two base64url parts (``payload.signature``). The link ``/rummy web`` gives carries one that
lives minutes; the page trades it for a cookie carrying one that lives hours. A pass names the
game and the person (0 for a spectator, who sees no hand), so a link for one game opens no
other and a spectator's link never shows a hand.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from bot.infrastructure.settings import WebSettings

LINK_SECONDS = 10 * 60
"""How long a player's link works: long enough to click it, short enough that a link shared
by mistake soon opens nothing."""
WATCH_SECONDS = 6 * 60 * 60
"""How long a spectator's link works: it is meant to be shared, and shows no hand."""
COOKIE_SECONDS = 12 * 60 * 60
"""How long the page stays open to the browser that traded a link for its cookie."""
SPECTATOR = 0
"""The person of a spectator's pass."""
SECRET_BYTES = 32


class BadPass(Exception):
    """A pass that opens nothing; ``key`` says why in the catalogs (``web.refused.*``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True, slots=True)
class Pass:
    game_id: int
    user_id: int
    """The person it admits, or :data:`SPECTATOR`."""
    expires: int
    """Unix time after which it opens nothing."""
    locale: str = "en"
    """The catalog the page speaks (the person's Discord language when the link was made)."""
    four_colour: bool = False
    """Clubs green and diamonds blue, as the person chose for the pictures."""
    by_rank: bool = False
    """The hand ordered by rank rather than by suit, as the person chose."""

    @property
    def watching(self) -> bool:
        return self.user_id == SPECTATOR


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Writes and checks passes with one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < SECRET_BYTES:
            raise ValueError("the web secret is too short")
        self._key = hashlib.sha256(b"rummy web pass\0" + secret).digest()

    def write(self, granted: Pass) -> str:
        look = int(granted.four_colour) | int(granted.by_rank) << 1
        payload = json.dumps(
            [granted.game_id, granted.user_id, granted.expires, granted.locale, look],
            separators=(",", ":"),
        ).encode("utf-8")
        return f"{_b64(payload)}.{_b64(self._sign(payload))}"

    def read(self, text: str, now: float) -> Pass:
        """The pass ``text`` spells, or :class:`BadPass`: forged or damaged, or expired."""
        head, dot, tail = text.partition(".")
        if not dot or len(text) > 400:
            raise BadPass("web.refused.forged")
        try:
            payload, signature = _unb64(head), _unb64(tail)
        except ValueError:
            raise BadPass("web.refused.forged") from None
        if not hmac.compare_digest(signature, self._sign(payload)):
            raise BadPass("web.refused.forged")
        try:
            game_id, user_id, expires, locale, look = json.loads(payload)
        except (ValueError, TypeError):
            raise BadPass("web.refused.forged") from None
        numbers = (game_id, user_id, expires, look)
        if not all(isinstance(n, int) for n in numbers) or not isinstance(locale, str):
            raise BadPass("web.refused.forged")
        if expires < now:
            raise BadPass("web.refused.expired")
        return Pass(game_id, user_id, expires, locale, bool(look & 1), bool(look & 2))

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()


def secret_of(web: WebSettings) -> bytes:
    """The secret the passes are signed with: ``WEB_SECRET``, else the one kept in the data
    folder, written there (readable by the bot's user only) the first time."""
    if web.secret is not None:
        return web.secret.reveal().encode("utf-8")
    return kept_secret(web.secret_file)


def kept_secret(path: Path) -> bytes:
    try:
        return bytes.fromhex(path.read_text("ascii").strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = secrets.token_bytes(SECRET_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another start wrote it first
        return bytes.fromhex(path.read_text("ascii").strip())
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(fresh.hex() + "\n")
    return fresh
