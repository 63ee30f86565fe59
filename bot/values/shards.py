"""Discord's routing rule, and the one question the sessions ask of a cluster: is this
server's game mine?

Discord sends a server's events and interactions to shard ``(guild_id >> 22) % shard_count``
and every DM to shard 0, so a server belongs to exactly one shard and a shard to one process
at a time."""

from __future__ import annotations

from typing import Protocol


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes ``guild_id``'s events and interactions to."""
    return (guild_id >> 22) % shard_count


class Ownership(Protocol):
    """The shards this process acts for, now. Lease-backed in a cluster, fixed otherwise."""

    @property
    def shard_count(self) -> int: ...

    def held(self) -> frozenset[int]:
        """The shards this process owns at this moment."""
        ...

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process may act for ``guild_id``'s games now."""
        ...


class StaticOwnership:
    """A fixed set of shards: one process that owns all of them (the default), or the shards
    named by ``SHARD_IDS`` when nothing else can take them."""

    def __init__(self, shard_count: int = 1, shard_ids: frozenset[int] | None = None) -> None:
        if shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, not {shard_count}")
        ids = frozenset(range(shard_count)) if shard_ids is None else shard_ids
        outside = sorted(i for i in ids if not 0 <= i < shard_count)
        if outside:
            raise ValueError(f"shard ids {outside} are outside 0..{shard_count - 1}")
        self._count = shard_count
        self._ids = ids

    @property
    def shard_count(self) -> int:
        return self._count

    def held(self) -> frozenset[int]:
        return self._ids

    def owns_guild(self, guild_id: int) -> bool:
        return shard_of(guild_id, self._count) in self._ids
