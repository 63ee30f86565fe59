"""Settings chosen by someone (a server, a person), kept by name as JSON, read through a cache.

One piece serves every kind of settings: a kind is a frozen dataclass deriving from
:class:`ChosenSettings`, one field per setting with its default (what someone who chose
nothing gets) and its type; a field may list the values it accepts (``choices`` in its
metadata). Storage keeps only what was changed, by name, as JSON, so a new setting is a new
field and nothing in storage. A stored value that no longer fits its field (a renamed,
retyped or retired setting) is ignored, so an old database never stops anyone from playing.

Each cache is its process's own. A server's settings are read and changed only in the
process that owns its shard, so its cache is right while it owns it, and is dropped when
the shard comes or goes (``SessionManager.load_shards``, ``unload_shards``). A person's
are read by every process that shows them a hand: with several processes, a change made
through one reaches the others' caches only when they restart (the one thing to add, by a
notice between them, before running more than one process).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, Self, TypeVar

from bot.storage import Repository, Store

log = logging.getLogger(__name__)


def choice(default: str, choices: tuple[str, ...]) -> Any:
    """A text setting that accepts only ``choices`` (a dataclass field)."""
    return dataclasses.field(default=default, metadata={"choices": choices})


class ChosenSettings:
    """The common behaviour of a frozen dataclass of settings."""

    __slots__ = ()
    subject: ClassVar[str] = "settings"
    """Whose settings these are, for the log."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(item.name for item in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> Self:
        """The settings from what storage holds; unknown names and values that do not fit
        are left at their defaults."""
        values: dict[str, Any] = {}
        default = cls()
        for item in dataclasses.fields(cls):  # type: ignore[arg-type]
            if item.name not in stored:
                continue
            value = stored[item.name]
            if fits(value, getattr(default, item.name), item.metadata.get("choices")):
                values[item.name] = value
            else:
                log.warning("ignoring the stored %s %s=%r", cls.subject, item.name, value)
        return cls(**values)


def fits(value: Any, default: Any, choices: tuple[Any, ...] | None = None) -> bool:
    """Whether ``value`` may stand where ``default`` is (the same JSON type; one of
    ``choices`` when the field has some)."""
    kind = type(default)
    if kind is bool or isinstance(value, bool):
        if type(value) is not kind:
            return False
    elif not isinstance(value, kind):
        return False
    return choices is None or value in choices


S = TypeVar("S", bound=ChosenSettings)
Read = Callable[[Repository, int], Awaitable[dict[str, Any]]]
Save = Callable[[Repository, int, str, Any], Awaitable[None]]


class SettingsBook(Generic[S]):
    """Everyone's settings of one kind, by owner id (a server's, a person's), cached."""

    def __init__(self, store: Store, kind: type[S], read: Read, save: Save) -> None:
        self._store = store
        self._kind = kind
        self._read = read
        self._save = save
        self._known: dict[int, S] = {}

    async def of(self, owner_id: int) -> S:
        known = self._known.get(owner_id)
        if known is None:
            async with self._store.unit() as repo:
                known = self._kind.from_stored(await self._read(repo, owner_id))
            self._known[owner_id] = known
        return known

    def known(self, owner_id: int) -> S:
        """The owner's settings as last read, else the defaults: for the paths that cannot
        wait for storage (an autocomplete answers within Discord's 3 s, keystroke by
        keystroke)."""
        return self._known.get(owner_id) or self._kind()

    async def change(self, owner_id: int, **changes: Any) -> S:
        """Set some settings (by field name, a value of its type); returns the result.
        A value equal to the default is stored as no choice at all."""
        unknown = set(changes) - set(self._kind.names())
        if unknown:
            raise ValueError(f"unknown {self._kind.subject} {sorted(unknown)}")
        current = await self.of(owner_id)
        updated = dataclasses.replace(current, **changes)  # type: ignore[type-var]
        if self._kind.from_stored(dataclasses.asdict(updated)) != updated:  # type: ignore[call-overload]
            raise TypeError(f"{self._kind.subject} of the wrong type: {changes!r}")
        default = self._kind()
        async with self._store.unit() as repo:
            for name in changes:
                value = getattr(updated, name)
                kept = None if value == getattr(default, name) else value
                await self._save(repo, owner_id, name, kept)
        self._known[owner_id] = updated
        return updated

    def forget(self, owner_id: int) -> None:
        """The owner's data was deleted: read it afresh next time."""
        self._known.pop(owner_id, None)

    def forget_where(self, stale: Callable[[int], bool]) -> None:
        """Read afresh next time the settings of every owner ``stale`` names (the servers
        of shards another process held meanwhile, and may have changed)."""
        for owner_id in [x for x in self._known if stale(x)]:
            del self._known[owner_id]
