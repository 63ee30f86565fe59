"""Each person's settings and the server's defaults for new tables: stored by name as JSON
through the one settings book they share, values that no longer fit ignored, and the
notify choice of the old table carried over by migration 0008."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.services.personal_settings import SORTS, THEMES, PersonalSettings, PersonalSettingsBook
from bot.services.server_settings import ServerSettings, ServerSettingsBook
from bot.storage import Database, open_store
from bot.storage.migrations import bundled_migrations
from bot.values.clock import utc_now
from rendering.hand import SORTS as RENDERED_SORTS
from rendering.theme import THEMES as RENDERED_THEMES


async def test_a_person_s_settings_change_survive_a_reopen_and_go_when_forgotten(
    db_path: Path | str,
) -> None:
    db = await open_store(db_path)
    try:
        book = PersonalSettingsBook(db)
        assert await book.of(7) == PersonalSettings()
        changed = await book.change(7, four_colour=True, theme="light", sort="rank")
        assert (changed.four_colour, changed.theme, changed.sort) == (True, "light", "rank")
        await book.change(7, notify_when_away=True)
        assert await book.of(8) == PersonalSettings()
        with pytest.raises(TypeError):
            await book.change(7, theme="purple")  # not one of its choices
        with pytest.raises(TypeError):
            await book.change(7, four_colour="yes")
        with pytest.raises(ValueError, match="unknown"):
            await book.change(7, colour="red")
        assert (await book.of(7)).theme == "light"
        await book.change(7, sort="suit")  # back to its default: no row
    finally:
        await db.close()
    db = await open_store(db_path)
    try:
        assert await PersonalSettingsBook(db).of(7) == PersonalSettings(
            four_colour=True, theme="light", notify_when_away=True
        )
        async with db.unit() as repo:
            assert await repo.personal_settings(7) == {
                "four_colour": True,
                "notify_when_away": True,
                "theme": "light",
            }
            assert await repo.notified_when_away() == [7]
            await repo.forget_user(7, at=utc_now())
            assert await repo.personal_settings(7) == {}
            assert await repo.notified_when_away() == []
    finally:
        await db.close()


def test_stored_values_that_no_longer_fit_are_left_at_their_defaults() -> None:
    stored = {"theme": "sepia", "sort": 1, "four_colour": True, "retired": "x"}
    assert PersonalSettings.from_stored(stored) == PersonalSettings(four_colour=True)
    assert ServerSettings.from_stored({"variant": "gin", "timer": "5"}) == ServerSettings()
    assert ServerSettings.from_stored({"timer": True}) == ServerSettings()


def test_the_choices_are_the_renderer_s_own() -> None:
    assert set(THEMES) == set(RENDERED_THEMES)
    assert set(SORTS) == set(RENDERED_SORTS)


async def test_a_server_s_table_defaults_are_kept(db: Database) -> None:
    book = ServerSettingsBook(db)
    await book.change(3, variant="parlett", options={"jokers": True, "target": 300}, timer=5)
    await book.change(3, opener_role=42)
    book.forget(3)  # read from the database again
    chosen = await book.of(3)
    assert (chosen.variant, chosen.timer, chosen.opener_role) == ("parlett", 5, 42)
    assert chosen.options_for("parlett") == {"jokers": True, "target": 300}
    assert chosen.options_for("classic") == {}
    with pytest.raises(TypeError):
        await book.change(3, variant="gin")
    await book.change(3, variant="classic", options={})
    async with db.unit() as repo:
        assert await repo.server_settings(3) == {"opener_role": 42, "timer": 5}


@pytest.mark.sqlite_only  # SQLite's own migration 8
async def test_migration_8_keeps_who_asked_to_be_told_only_when_away(db_path: Path | str) -> None:
    migrations = bundled_migrations()
    database = await Database.open(db_path, upto=7)
    await database.close()
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute("INSERT INTO user_settings (user_id, notify) VALUES (5, 'away')")
        await conn.commit()
    assert migrations[7].name == "personal_settings"
    database = await Database.open(db_path)
    try:
        assert await PersonalSettingsBook(database).of(5) == PersonalSettings(notify_when_away=True)
        async with database.unit() as repo:
            assert await repo.notified_when_away() == [5]
    finally:
        await database.close()
