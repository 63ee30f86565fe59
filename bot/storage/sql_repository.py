"""The repository: one class, assembled from the part of each subject, serving both back ends
(SQLite and PostgreSQL run the same SQL; each connection adapts its placeholders).

Each part (:mod:`~bot.storage.lobby`, :mod:`~bot.storage.games`,
:mod:`~bot.storage.league`, :mod:`~bot.storage.posts`, :mod:`~bot.storage.hygiene`,
:mod:`~bot.storage.settings`, :mod:`~bot.storage.server`, :mod:`~bot.storage.rematch`,
:mod:`~bot.storage.command_sync`) holds
the SQL of its own methods, written once; this class only puts them together into the
:class:`~bot.storage.repository.Repository` the sessions and the league use.
"""

from __future__ import annotations

from bot.storage.command_sync import CommandSyncRows
from bot.storage.hygiene import PersonalDataRows
from bot.storage.lobby import LobbyRows
from bot.storage.posts import MessageRows
from bot.storage.rematch import RematchRows
from bot.storage.server import ServerSettingRows
from bot.storage.settings import SettingRows


class SqlRepository(
    LobbyRows,
    PersonalDataRows,
    MessageRows,
    SettingRows,
    ServerSettingRows,
    RematchRows,
    CommandSyncRows,
):
    """:class:`~bot.storage.repository.Repository` on one SQLite connection inside an open
    transaction, or on PostgreSQL's adapter (:class:`~bot.storage.pg_connection.PgConnection`,
    whose dialect the parts read where the two back ends differ)."""

    __slots__ = ()
