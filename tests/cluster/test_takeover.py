"""A process that dies mid-game: the survivor takes its shard over and its games resume
there (a turn timer from its stored deadline, a computer player to move moves), while the
dead process's own late action is refused and changes nothing."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.cluster.handover import Handover
from bot.cluster.leases import LeaseKeeper
from bot.rummy.computer import safe_action
from bot.sessions import Brains, Seat, Session, SessionManager, SessionStatus
from bot.storage import LeaseLost, PostgresStore
from bot.storage.leases import Leases, owner_url
from bot.values.seats import NewSeat
from tests.sessions.conftest import ANN, BOB, start_game, two_humans
from tests.waiting import eventually

pytestmark = pytest.mark.postgres_only

TTL = 3.0  # renewals a second apart: a loaded machine keeps its leases
GUILD = 0 << 22 | 5  # shard 0 of 2: the one that dies
COMPUTER, TIMED, IDLE = 10, 11, 12  # channels


@contextlib.asynccontextmanager
async def process(
    pg_url: str, name: str, shard: int, brains: Brains
) -> AsyncIterator[tuple[SessionManager, LeaseKeeper]]:
    """One bot process: its sessions follow its leases (of ``shard`` of 2, and any it takes
    over)."""
    store = await PostgresStore.open(owner_url(pg_url, name))
    leases = await Leases.open(pg_url)
    keeper = LeaseKeeper(leases, owner=name, shard_count=2, shard_ids=frozenset({shard}), ttl=TTL)
    sessions = SessionManager(store, brains, keeper)
    keeper.events = Handover(sessions)
    try:
        await keeper.start()
        yield sessions, keeper
    finally:
        await keeper.stop()
        await sessions.close()
        await leases.close()


async def _my_turn(session: Session, me: str) -> None:
    while session.view(None).current == me:
        await session.apply(me, safe_action(session.view(me), session.legal_actions(me)))


async def test_the_dead_process_games_resume_on_the_survivor(pg_url: str) -> None:
    async with (
        process(pg_url, "a", 0, Brains(delay=3600)) as (a, a_keeper),
        process(pg_url, "b", 1, Brains(delay=0)) as (b, b_keeper),
    ):
        a.timing.minute = 3.0  # the timed turn runs out after a died, on b
        computer = await start_game(
            a, COMPUTER, [NewSeat.human(ANN, "Ann"), NewSeat.computer("Cpu", "easy")], guild=GUILD
        )
        await _my_turn(computer, str(ANN))
        assert computer.view(None).current == "cpu-1"  # thinking for an hour on a
        timed = await start_game(a, TIMED, two_humans(), guild=GUILD, turn_timer=1)
        absent = timed.view(None).current
        assert absent is not None
        assert timed.deadline is not None
        idle = await start_game(a, IDLE, two_humans(), guild=GUILD)
        seqs = {c: s.seq for c, s in ((COMPUTER, computer), (TIMED, timed), (IDLE, idle))}

        await a_keeper.stop(release=False)  # a dies
        await eventually(lambda: all(b.get(c) is not None for c in seqs))
        assert b_keeper.generations[0] == 2

        moved, late, waiting = b.get(COMPUTER), b.get(TIMED), b.get(IDLE)
        assert moved is not None
        assert late is not None
        assert waiting is not None
        # The stored deadline (as the time it had left), not a fresh one of a whole turn.
        assert late.deadline is not None
        assert abs(late.deadline - timed.deadline) < timedelta(seconds=0.5)
        await eventually(lambda: moved.view(None).current == str(ANN))
        assert moved.seq > seqs[COMPUTER]

        def seat() -> Seat:
            assert late is not None
            return next(s for s in late.seats if s.player_id == absent)

        await eventually(lambda: seat().missed == 1)  # the timer ran out on b
        assert late.seq > seqs[TIMED]

        # a still believes it holds the game; its action is refused and changes nothing.
        me = idle.view(None).current
        assert me is not None
        with pytest.raises(LeaseLost):
            await idle.apply(me, safe_action(idle.view(me), idle.legal_actions(me)))
        stored = await b.stored_game(idle.game_id)
        assert stored is not None
        assert stored.action_count == seqs[IDLE]
        assert waiting.seq == seqs[IDLE]
        assert waiting.status is SessionStatus.ACTIVE
        assert str(BOB) in {s.player_id for s in waiting.seats}
