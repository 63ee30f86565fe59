"""What a refusal's parameters and advice look like to a player, beyond its own text.

The engine names a variant by the name it stores (``classic``, ``500``); people read its
name in their language (``Classic Rummy``). And a lobby too short to start says how to fill
it: the Add computer player button, or ``/rummy addbot``.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import t
from bot.rummy import PlayerError, RulesError, variants
from bot.sessions import LobbyError


def shown_params(params: Mapping[str, object], loc: str) -> dict[str, object]:
    """``params`` with a variant's stored name (the ``preset`` parameter) as people read it."""
    shown = dict(params)
    name = shown.get("preset")
    if isinstance(name, str) and name.lower() in variants.ALIASES:
        variant = variants.VARIANTS[variants.ALIASES[name.lower()]]
        shown["preset"] = t(variant.name_key, loc)
    return shown


def advice(error: PlayerError, loc: str) -> str | None:
    """A sentence to add after ``error``'s own: how to fill a lobby with too few players."""
    if not isinstance(error, LobbyError) or error.key != "refusal.lobby.rules":
        return None
    reason = error.params.get("reason")
    if not isinstance(reason, RulesError) or reason.key != "refusal.rules.players":
        return None
    count, least = reason.params.get("count"), reason.params.get("least")
    if not isinstance(count, int) or not isinstance(least, int) or count >= least:
        return None
    return t(
        "lobby.short_hint",
        loc,
        addbot=t("button.addbot", loc),
        join=t("button.join", loc),
    )
