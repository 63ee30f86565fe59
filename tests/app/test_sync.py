"""When the commands are registered with Discord: to the dev server at every start; globally on
--sync, on the first start and whenever they changed, and not on an ordinary restart."""

from __future__ import annotations

import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import RummyBot, SyncState
from bot.i18n import CatalogTranslator
from bot.sessions import SessionManager


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[SessionManager]:
    manager = await SessionManager.open(tmp_path / "rummy.sqlite3")
    yield manager
    await manager.close()


class Syncs:
    """Records what would have been sent to Discord, in place of the HTTP call."""

    def __init__(self) -> None:
        self.where: list[int | None] = []

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.where.append(None if guild is None else guild.id)
        return []


async def start(
    sessions: SessionManager,
    monkeypatch: pytest.MonkeyPatch,
    *,
    description: str = "Draw a card",
    **options: Any,
) -> list[int | None]:
    """One start of the bot's setup with one command; returns where it synced."""
    bot = RummyBot(sessions, extensions=(), **options)

    @bot.tree.command(name="draw", description=description)
    async def draw(interaction: discord.Interaction) -> None:
        """Not called."""

    syncs = Syncs()
    monkeypatch.setattr(bot.tree, "sync", syncs)
    await bot.setup_hook()
    await bot.close()
    return syncs.where


async def test_global_sync_on_first_start_then_only_when_the_commands_change(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "rummy.sqlite3.commands.json"
    assert await start(sessions, monkeypatch, sync_state=state) == [None]
    assert state.is_file()
    assert await start(sessions, monkeypatch, sync_state=state) == []
    assert await start(sessions, monkeypatch, sync_state=state, description="Draw") == [None]
    assert await start(sessions, monkeypatch, sync_state=state, description="Draw") == []


async def test_sync_flag_forces_a_global_sync(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    assert await start(sessions, monkeypatch, sync_state=state) == [None]
    assert await start(sessions, monkeypatch, sync_state=state, sync_globally=True) == [None]


async def test_a_damaged_state_file_means_sync_again(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    state.write_text("{not json", encoding="utf-8")
    assert await start(sessions, monkeypatch, sync_state=state) == [None]
    assert await start(sessions, monkeypatch, sync_state=state) == []


async def test_a_dev_server_gets_the_commands_at_every_start_and_global_ones_stay(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    for _ in range(2):
        assert await start(sessions, monkeypatch, sync_state=state, dev_guild_id=77) == [77]
    assert SyncState.parse(state.read_text("utf-8")).digests == {}  # no global sync recorded
    both = await start(sessions, monkeypatch, sync_state=state, dev_guild_id=77, sync_globally=True)
    assert both == [77, None]


async def test_a_former_dev_server_loses_its_copy_of_the_commands_once(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Otherwise that server would list every command twice: its copy and the global one."""
    state = tmp_path / "state.json"
    assert await start(sessions, monkeypatch, sync_state=state, dev_guild_id=77) == [77]
    assert await start(sessions, monkeypatch, sync_state=state, dev_guild_id=78) == [78, 77]
    assert await start(sessions, monkeypatch, sync_state=state) == [78, None]
    assert await start(sessions, monkeypatch, sync_state=state) == []
    assert stat.S_IMODE(state.stat().st_mode) == 0o600


async def test_the_first_state_format_is_still_read(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    assert await start(sessions, monkeypatch, sync_state=state) == [None]
    digests = SyncState.parse(state.read_text("utf-8")).digests
    state.write_text(json.dumps(digests), encoding="utf-8")  # as an older version wrote it
    assert await start(sessions, monkeypatch, sync_state=state) == []


async def test_without_a_state_file_every_start_syncs_globally(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await start(sessions, monkeypatch) == [None]
    assert await start(sessions, monkeypatch) == [None]


async def test_a_refused_sync_is_logged_and_not_remembered(
    sessions: SessionManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = tmp_path / "state.json"
    bot = RummyBot(sessions, extensions=(), sync_state=state)

    class Response:
        status = 403
        reason = "Forbidden"

    async def refuse(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        raise discord.Forbidden(Response(), {"message": "Missing Access", "code": 50001})

    monkeypatch.setattr(bot.tree, "sync", refuse)
    await bot.setup_hook()
    await bot.close()
    assert not state.exists()
    assert "applications.commands" in caplog.text


async def test_the_translator_is_in_place_when_the_commands_are_synced(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = RummyBot(sessions, extensions=())
    seen: list[object] = []

    async def sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        seen.append(bot.tree.translator)
        return []

    monkeypatch.setattr(bot.tree, "sync", sync)
    await bot.setup_hook()
    await bot.close()
    assert len(seen) == 1
    assert isinstance(seen[0], CatalogTranslator)
