"""What each person chose for themselves, whatever the server: the look of the pictures only
they see (their hand, their own answers) and how they are told of their turn.

Kept like a server's settings (:mod:`bot.services.settings_book`): a field per setting, stored by
name as JSON only when changed from its default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.services.settings_book import ChosenSettings, SettingsBook, choice
from bot.storage import Repository, Store

THEMES = ("dark", "light")
"""The picture themes a person may choose (the renderer's own names)."""
SORTS = ("suit", "rank")
"""How a hand may be ordered (the renderer's own names)."""


@dataclass(frozen=True, slots=True)
class PersonalSettings(ChosenSettings):
    """One person's settings; each default is what someone who chose nothing sees."""

    subject: ClassVar[str] = "personal setting"

    four_colour: bool = False
    """Clubs green and diamonds blue, so that no two suits share a colour."""
    theme: str = choice("dark", THEMES)
    """The background of their pictures."""
    sort: str = choice("suit", SORTS)
    """The order of their hand, in pictures and text alike (card positions follow it)."""
    notify_when_away: bool = False
    """Told of their turn only when away from the game (else by a new DM every turn)."""


UNCHOSEN = PersonalSettings()
"""What someone who chose nothing sees."""


async def _read(repo: Repository, user_id: int) -> dict[str, Any]:
    return await repo.personal_settings(user_id)


async def _save(repo: Repository, user_id: int, name: str, value: Any) -> None:
    await repo.save_personal_setting(user_id, name, value)


class PersonalSettingsBook(SettingsBook[PersonalSettings]):
    """Every person's settings (the session manager owns one, beside the store)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, PersonalSettings, _read, _save)
