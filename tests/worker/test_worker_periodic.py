"""Beat's periodic jobs as production runs them: Celery tasks in a real worker (never eager),
with the app's own session (Flask-SQLAlchemy's `db.session`), over Redis and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update

from pbem.models import Game, GameEvent, OrderLogEntry, Seat
from pbem.services.queue import MAIL_SWEEP_TASK, QUEUE, TICK_TASK, producer
from service_helpers import make_game
from worker_helpers import queue_idle, wait_until

DUE_GAMES = 5


def due_games(session, make_user, count: int) -> list[int]:
    """`count` started games, each with one person (who has not played) and two bots, whose
    deadline passed a minute ago."""
    ids = []
    for number in range(count):
        person = make_user(session, f"late{number}@example.com", f"Late {number}")
        ids.append(make_game(session, person, seed=number + 1).id)
    session.execute(update(Game).where(Game.id.in_(ids))
                    .values(deadline_at=datetime.now(timezone.utc) - timedelta(minutes=1)))
    session.commit()
    return ids


def defaulted(session, ids: list[int]) -> set[int]:
    """The games in which the default played for the person who missed the deadline."""
    found = set(session.scalars(select(OrderLogEntry.game_id).where(OrderLogEntry.game_id.in_(ids),
                                                                     OrderLogEntry.by == "default")))
    session.rollback()
    return found


def test_beats_tick_handles_every_due_game_in_one_run(session, workers, make_user, stack):
    ids = due_games(session, make_user, DUE_GAMES)
    workers.start(concurrency=2, beat=True, PBEM_TICK_SECONDS="1")
    wait_until(lambda: defaulted(session, ids) == set(ids), 60, f"the tick to default all {DUE_GAMES} games")
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 30, "the queue to drain")
    # One tick did it all: every default carries the time of the same tick.
    ticks = set(session.scalars(select(GameEvent.at).where(GameEvent.game_id.in_(ids), GameEvent.kind == "default")))
    assert len(ticks) == 1, sorted(ticks)
    missed = session.scalars(select(Seat.missed_total).where(Seat.game_id.in_(ids), Seat.user_id.is_not(None)))
    assert sorted(missed) == [1] * DUE_GAMES  # each person charged once, not once per tick
    session.rollback()


def test_one_run_of_the_tick_task_handles_all_due_games(session, workers, make_user, stack):
    """Not beat's repetition: a single run of the task reaches every due game."""
    ids = due_games(session, make_user, DUE_GAMES)
    workers.start(concurrency=1)
    report = producer(stack.app).send_task(TICK_TASK, queue=QUEUE, ignore_result=False).get(timeout=120)
    assert "deadlines_error" not in report, report
    assert sorted(game for game, _ in report["deadlines"]["defaulted"]) == ids
    assert report["deadlines"]["failed"] == []
    assert defaulted(session, ids) == set(ids)


def test_the_mail_sweep_runs_as_a_task_in_a_worker(session, workers, stack):
    workers.start(concurrency=1)
    report = producer(stack.app).send_task(MAIL_SWEEP_TASK, queue=QUEUE, ignore_result=False).get(timeout=60)
    assert report == {"inbound": 0, "outbox": 0, "report_jobs": 0}
