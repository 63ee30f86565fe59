"""Settings kept by name, one JSON value per row: what a server's and a person's settings
share, so that a new setting needs no new table or column. Each table has its fixed query
texts (:class:`NamedQueries`); what a setting means and its default belong to
:mod:`bot.services.settings_book` and its kinds."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.rows import Connection, dump_json


@dataclass(frozen=True, slots=True)
class NamedQueries:
    """The three fixed queries of one table of named settings (owner id, name, value)."""

    select: str
    """Every row of an owner: ``name`` and ``value`` columns, one owner-id parameter."""
    delete: str
    """Parameters: owner id, name."""
    upsert: str
    """Parameters: owner id, name, JSON value."""


async def read_named(conn: Connection, queries: NamedQueries, owner_id: int) -> dict[str, Any]:
    """Every setting the owner changed, name to decoded value."""
    rows = await conn.execute_fetchall(queries.select, (owner_id,))
    return {str(row["name"]): json.loads(row["value"]) for row in rows}


async def save_named(
    conn: Connection, queries: NamedQueries, owner_id: int, name: str, value: Any
) -> None:
    """Store one setting's value (any JSON value); None takes the default back."""
    if not name:
        raise ValueError("a setting has a name")
    if value is None:
        await conn.execute(queries.delete, (owner_id, name))
        return
    await conn.execute(queries.upsert, (owner_id, name, dump_json(value)))
