"""What each server chose for Rummy: one frozen value per server, read through a cache.

A setting is a field of :class:`ServerSettings` with its default (what a server that chose
nothing gets) and its type; storage keeps only the settings a server changed, by name, as
JSON (see :mod:`bot.services.settings_book`, which a person's settings share). A new setting is one
new field here and nothing in storage.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.rummy.variants import DEFAULT, VARIANTS
from bot.services.settings_book import ChosenSettings, SettingsBook, choice
from bot.storage import Repository, Store

DEFAULT_TIMER = 2
"""Minutes a turn may take unless the server or the host chooses otherwise."""


@dataclass(frozen=True, slots=True)
class ServerSettings(ChosenSettings):
    """One server's settings; each default is the bot's behaviour for a server that chose
    nothing."""

    subject: ClassVar[str] = "server setting"

    threads: bool = True
    """Each game plays in a thread started from its lobby message (else in the channel)."""
    variant: str = choice(DEFAULT, tuple(VARIANTS))
    """The variant of ``/rummy new`` when it names none."""
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    """The house rules of the default variant (``/rummy new``'s option names to values):
    used when a table of that variant is opened, under the options the host gives."""
    timer: int = DEFAULT_TIMER
    """Minutes a turn may take when ``/rummy new`` gives no timer (0: no timer)."""
    opener_role: int = 0
    """The role whose members may open tables (0: anyone; people who manage the server
    always may)."""

    def options_for(self, variant: str) -> dict[str, Any]:
        """The server's house rules for a table of ``variant`` (none for another variant)."""
        return dict(self.options) if variant == self.variant else {}


def setting_names() -> tuple[str, ...]:
    return ServerSettings.names()


async def _read(repo: Repository, guild_id: int) -> dict[str, Any]:
    return await repo.server_settings(guild_id)


async def _save(repo: Repository, guild_id: int, name: str, value: Any) -> None:
    await repo.save_server_setting(guild_id, name, value)


class ServerSettingsBook(SettingsBook[ServerSettings]):
    """Every server's settings (the session manager owns one, beside the store). A server's
    games all run in the process that owns its shard, so the cache is that process's own."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, ServerSettings, _read, _save)
