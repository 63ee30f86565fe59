"""The services built on one store that the sessions and the Discord layer share: the league,
the replays of finished games, what each server and each person chose, the ledger of the
messages that show each live game, and the record of the commands synced with Discord.

They are built once per store and handed to the session manager and to the bot, and each
caller takes the one it needs (``bot.services.league``): the manager keeps only the sessions
and reaches the books and the ledger it uses itself through the same value.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.personal_settings import PersonalSettingsBook
from bot.services.server_settings import ServerSettingsBook
from bot.services.standings import League
from bot.services.synced_commands import SyncedCommands
from bot.sessions.messages import MessageLedger
from bot.sessions.replays import Replays
from bot.storage import Store


@dataclass(frozen=True)
class Services:
    league: League
    replays: Replays
    """Finished games read back for their replays."""
    server_settings: ServerSettingsBook
    """What each server chose (threads or not, …)."""
    personal_settings: PersonalSettingsBook
    """What each person chose (the look of their pictures, when they are told)."""
    messages: MessageLedger
    """The Discord messages that show each live game (the one way their ids are kept)."""
    synced_commands: SyncedCommands
    """Which slash commands were registered with Discord, and where."""

    @classmethod
    def on(cls, store: Store) -> Services:
        return cls(
            league=League(store),
            replays=Replays(store),
            server_settings=ServerSettingsBook(store),
            personal_settings=PersonalSettingsBook(store),
            messages=MessageLedger(store),
            synced_commands=SyncedCommands(store),
        )
