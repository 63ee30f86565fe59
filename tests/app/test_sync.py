"""When the commands are registered with Discord: by the process that runs shard 0 only; to the
dev server at every start; globally on --sync, on the first start and whenever they changed,
and not on an ordinary restart, whichever process starts (the record is in the database)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import RummyBot
from bot.i18n import CatalogTranslator
from bot.services.synced_commands import GLOBAL_SCOPE
from bot.sessions import SessionManager
from bot.values.shards import StaticOwnership


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
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await start(sessions, monkeypatch) == [None]
    assert await start(sessions, monkeypatch) == []
    assert await start(sessions, monkeypatch, description="Draw") == [None]
    assert await start(sessions, monkeypatch, description="Draw") == []


async def test_the_record_is_in_the_database_a_second_process_reads(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert await start(sessions, monkeypatch) == [None]
    record = await sessions.services.synced_commands.digests(0)
    assert list(record) == [GLOBAL_SCOPE]
    other = await SessionManager.open(tmp_path / "rummy.sqlite3")  # the same database
    try:
        assert await start(other, monkeypatch) == []
    finally:
        await other.close()


async def test_a_process_without_shard_0_never_syncs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    second = StaticOwnership(2, frozenset({1}))
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3", ownership=second)
    try:
        assert await start(sessions, monkeypatch) == []
        assert await start(sessions, monkeypatch, sync_globally=True, dev_guild_id=77) == []
        assert await sessions.services.synced_commands.digests(0) == {}
    finally:
        await sessions.close()
    first = StaticOwnership(2, frozenset({0}))
    sessions = await SessionManager.open(tmp_path / "rummy.sqlite3", ownership=first)
    try:
        assert await start(sessions, monkeypatch) == [None]
    finally:
        await sessions.close()


async def test_sync_flag_forces_a_global_sync(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await start(sessions, monkeypatch) == [None]
    assert await start(sessions, monkeypatch, sync_globally=True) == [None]


async def test_a_dev_server_gets_the_commands_at_every_start_and_global_ones_stay(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        assert await start(sessions, monkeypatch, dev_guild_id=77) == [77]
    assert list(await sessions.services.synced_commands.digests(0)) == [
        77
    ]  # no global sync recorded
    both = await start(sessions, monkeypatch, dev_guild_id=77, sync_globally=True)
    assert both == [77, None]


async def test_a_former_dev_server_loses_its_copy_of_the_commands_once(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Otherwise that server would list every command twice: its copy and the global one."""
    assert await start(sessions, monkeypatch, dev_guild_id=77) == [77]
    assert await start(sessions, monkeypatch, dev_guild_id=78) == [78, 77]
    assert await start(sessions, monkeypatch) == [78, None]
    assert await start(sessions, monkeypatch) == []


@pytest.mark.parametrize("first_format", [False, True])
async def test_an_older_versions_record_file_is_carried_over_once(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, first_format: bool
) -> None:
    state = tmp_path / "rummy.sqlite3.commands.json"
    assert await start(sessions, monkeypatch) == [None]  # learns the digest of the commands
    digest = (await sessions.services.synced_commands.digests(0))[GLOBAL_SCOPE]
    fresh = await SessionManager.open(tmp_path / "other.sqlite3")
    try:
        if first_format:
            old: object = {"0": digest}
        else:
            old = {"global": {"0": digest}, "guilds": {"0": [77]}}
        state.write_text(json.dumps(old), encoding="utf-8")
        # Nothing changed since the file's sync: nothing is sent but the dev server's clearing.
        synced = await start(fresh, monkeypatch, legacy_sync_state=state)
        assert synced == ([] if first_format else [77])
        assert not state.exists()
        assert await fresh.services.synced_commands.digests(0) == {GLOBAL_SCOPE: digest}
        assert await start(fresh, monkeypatch, legacy_sync_state=state) == []
    finally:
        await fresh.close()


async def test_a_damaged_record_file_means_sync_again_and_is_deleted(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    state.write_text("{not json", encoding="utf-8")
    assert await start(sessions, monkeypatch, legacy_sync_state=state) == [None]
    assert not state.exists()
    assert await start(sessions, monkeypatch, legacy_sync_state=state) == []


async def test_a_refused_sync_is_logged_and_not_remembered(
    sessions: SessionManager,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = RummyBot(sessions, extensions=())

    class Response:
        status = 403
        reason = "Forbidden"

    async def refuse(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        raise discord.Forbidden(Response(), {"message": "Missing Access", "code": 50001})

    monkeypatch.setattr(bot.tree, "sync", refuse)
    await bot.setup_hook()
    await bot.close()
    assert await sessions.services.synced_commands.digests(0) == {}
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
