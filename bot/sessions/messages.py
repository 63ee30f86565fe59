"""Which Discord messages show each live game, kept so that a restarted bot edits them on.

Not game state: a message id is noted after Discord answered, outside any session's lock,
and a storage failure only costs a fresh message after a restart, so it is logged, not
raised. The kinds are named here once; storage keeps their values.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from bot.storage import MessageRef, StorageError, Store
from bot.storage.posts import check_message

log = logging.getLogger(__name__)


class MessageKind(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"
    PING = "ping"
    """The short turn notice in the channel."""
    HAND = "hand"
    """One player's hand in their DMs (the only kind that names a player)."""


Shown = Mapping[tuple[MessageKind, str], MessageRef]
"""(kind, player id or "") to the message showing it."""


class MessageLedger:
    """The messages of the live games, in memory and in the store (the manager owns one)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._games: dict[int, dict[tuple[MessageKind, str], MessageRef]] = {}

    def load(self, game_id: int, refs: Iterable[MessageRef] = ()) -> None:
        """A game goes live, with what the store says it shows (after a restart)."""
        self._games[game_id] = {(MessageKind(r.kind), r.player): r for r in refs}

    def drop(self, game_id: int) -> None:
        """The game is no longer live: its ids stay stored, not in memory."""
        self._games.pop(game_id, None)

    def shown(self, game_id: int) -> Shown:
        return MappingProxyType(dict(self._games.get(game_id, {})))

    async def keep(
        self,
        game_id: int,
        kind: MessageKind,
        player: str,
        channel_id: int,
        message_id: int | None,
    ) -> None:
        """Note which message shows ``kind`` (None: none does any more)."""
        check_message(kind.value, player)
        # A game that closed meanwhile is written through, not remembered.
        known = self._games.get(game_id, {})
        key = (kind, player)
        old = known.get(key)
        if message_id is None:
            if old is None and game_id in self._games:
                return
            known.pop(key, None)
        else:
            if old is not None and (old.channel_id, old.message_id) == (channel_id, message_id):
                return
            known[key] = MessageRef(kind.value, player, channel_id, message_id)
        try:
            async with self._store.unit() as repo:
                if message_id is None:
                    await repo.forget_message(game_id, kind.value, player)
                else:
                    await repo.save_message(game_id, kind.value, player, channel_id, message_id)
        except StorageError as error:
            log.warning("game %s: could not store the %s message: %s", game_id, kind.value, error)
