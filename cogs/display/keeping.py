"""Message-id bookkeeping: which message shows what, on the game's messages and through the
session manager's port, so that a restarted bot edits the same messages on."""

from __future__ import annotations

import asyncio

from bot import sessions as s
from bot.sessions.messages import MessageKind
from cogs.display.game_messages import GameMessages


class MessageKeeper:
    """Notes message ids; the store writes run on their own and never delay Discord."""

    def __init__(self, manager: s.SessionManager) -> None:
        self.manager = manager
        self._writes: set[asyncio.Task[None]] = set()

    def restore(self, shown: GameMessages) -> None:
        """After a restart: the messages the previous process showed are edited on."""
        if self.manager.by_game(shown.game_id) is None:
            return
        for (kind, player), ref in self.manager.messages.shown(shown.game_id).items():
            if kind is MessageKind.LOBBY:
                shown.lobby_message = ref.message_id
            elif kind is MessageKind.TABLE:
                shown.table_message = ref.message_id
            elif kind is MessageKind.PING:
                shown.ping_message = ref.message_id
            elif kind is MessageKind.HAND:
                shown.hand_messages[player] = (ref.channel_id, ref.message_id)

    def keep(
        self, shown: GameMessages, kind: MessageKind, message_id: int | None, player: str = ""
    ) -> None:
        """Note which message now shows ``kind`` (None: none does)."""
        if kind is MessageKind.LOBBY:
            shown.lobby_message = message_id
        elif kind is MessageKind.TABLE:
            shown.table_message = message_id
        elif kind is MessageKind.PING:
            shown.ping_message = message_id
        channel_id = shown.channel_id
        if kind is MessageKind.HAND:
            if message_id is None:
                shown.hand_messages.pop(player, None)
            else:
                channel_id = shown.hand_messages[player][0]
        if self.manager.by_game(shown.game_id) is None:
            return
        task = asyncio.create_task(
            self.manager.messages.keep(shown.game_id, kind, player, channel_id, message_id),
            name=f"keep-{shown.game_id}-{kind.value}",
        )
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def keep_hand(self, shown: GameMessages, player: str, where: tuple[int, int]) -> None:
        shown.hand_messages[player] = where
        self.keep(shown, MessageKind.HAND, where[1], player)

    async def close(self) -> None:
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
