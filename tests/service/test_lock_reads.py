"""What a transaction reads with a game's lock is of the moment it got the lock.

PostgreSQL, in READ COMMITTED, re-reads only the rows a SELECT ... FOR UPDATE locks once the
lock it waited for is released; rows joined from tables it does not lock come from the
snapshot taken when the statement began.  An advance that waited for another's lock must
not see the pending orders that other advance applied and deleted meanwhile: it would apply
them a second time, or refuse them in a seat's name.
"""
from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from pbem.models import Game, PendingOrder
from pbem.services import play
from pbem.services.locking import bump_version, lock_game
from test_play import cards, two_humans


def _blocked_by(probe: Session, holder: int) -> bool:
    waiting = probe.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE :holder = ANY(pg_blocking_pids(pid))"),
                           {"holder": holder})
    probe.rollback()
    return bool(waiting)


def test_a_lock_waited_for_reads_the_pending_orders_committed_meanwhile(session, ana, bo):
    """Ana's card is pending.  One transaction holds the game's lock and deletes it (as an
    advance that applied it does); another asks for the lock with the pending orders and
    waits.  Once the first commits, the second must find no pending order."""
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: the second reader starts after the first commits")
    game = two_humans(session, ana, bo)
    play.submit_for_user(session, game.id, ana, f"card {cards(session, game, ana)[0]}", channel="api")
    assert session.scalar(select(PendingOrder.id).where(PendingOrder.game_id == game.id)) is not None
    bind, found = session.get_bind(), {}

    def reader() -> None:
        with Session(bind) as own:
            locked = lock_game(own, game.id, people=True, pending=True, queued=True)
            found["pending"] = [row.text for row in locked.pending_orders]
            found["version"] = locked.version
            own.rollback()

    with Session(bind) as first:
        held = lock_game(first, game.id, people=True, pending=True, queued=True)
        first.execute(delete(PendingOrder).where(PendingOrder.game_id == game.id))
        bump_version(first, held)
        holder = first.scalar(text("SELECT pg_backend_pid()"))
        thread = threading.Thread(target=reader)
        thread.start()
        with Session(bind) as probe:
            deadline = time.monotonic() + 30
            while not _blocked_by(probe, holder) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert _blocked_by(probe, holder), "the second reader never waited for the lock"
        first.commit()
    thread.join(30)
    assert found["version"] == session.scalar(select(Game.version).where(Game.id == game.id))
    assert found["pending"] == []
