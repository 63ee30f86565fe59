"""Message-id bookkeeping: which message shows what, on the game's messages and through the
message ledger, so that a restarted bot edits the same messages on."""

from __future__ import annotations

import asyncio

from bot import sessions as s
from bot.sessions.messages import MessageKind, MessageLedger
from cogs.display.game_messages import GameMessages


class MessageKeeper:
    """Notes message ids; the store writes run on their own and never delay Discord."""

    def __init__(self, manager: s.SessionManager, ledger: MessageLedger) -> None:
        self.manager = manager
        self.ledger = ledger
        self._writes: set[asyncio.Task[None]] = set()

    def restore(self, messages: GameMessages) -> None:
        """After a restart: the messages the previous process showed are edited on."""
        if self.manager.by_game(messages.game_id) is None:
            return
        for (kind, player), ref in self.ledger.shown(messages.game_id).items():
            if kind is MessageKind.LOBBY:
                messages.lobby_message = ref.message_id
            elif kind is MessageKind.TABLE:
                messages.table_message = ref.message_id
            elif kind is MessageKind.PING:
                messages.ping_message = ref.message_id
            elif kind is MessageKind.HAND:
                messages.hand_messages[player] = (ref.channel_id, ref.message_id)

    def keep(
        self, messages: GameMessages, kind: MessageKind, message_id: int | None, player: str = ""
    ) -> None:
        """Note which message now shows ``kind`` (None: none does)."""
        if kind is MessageKind.LOBBY:
            messages.lobby_message = message_id
        elif kind is MessageKind.TABLE:
            messages.table_message = message_id
        elif kind is MessageKind.PING:
            messages.ping_message = message_id
        channel_id = messages.channel_id
        if kind is MessageKind.LOBBY and messages.lobby_channel_id is not None:
            channel_id = messages.lobby_channel_id
        if kind is MessageKind.HAND:
            if message_id is None:
                messages.hand_messages.pop(player, None)
            else:
                channel_id = messages.hand_messages[player][0]
        if self.manager.by_game(messages.game_id) is None:
            return
        task = asyncio.create_task(
            self.ledger.keep(messages.game_id, kind, player, channel_id, message_id),
            name=f"keep-{messages.game_id}-{kind.value}",
        )
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def keep_hand(self, messages: GameMessages, player: str, where: tuple[int, int]) -> None:
        messages.hand_messages[player] = where
        self.keep(messages, MessageKind.HAND, where[1], player)

    async def close(self) -> None:
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
