"""Thin named tasks: each one calls a command of the application layer and nothing more.

Every task is safe to run twice (a message can be delivered twice: acks are late, and a
worker that dies hands its message back): `advance` is idempotent, and the tick holds a
lock so two ticks never run at once.

Names are part of the contract with the web side, which sends them by name
(pbem.services.dispatch); the mail tasks are in worker/mail_tasks.py.

Services take a plain SQLAlchemy Session: every task hands them `db.session()`, the app's
own session for this task, never the `db.session` proxy (which lacks some of Session's
methods, so code that works in a test's Session could fail only in production).
"""
from __future__ import annotations

import dataclasses
import os
import logging
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, OperationalError

from pbem.extensions import db
from pbem.services import deadlines
from pbem.services.advance import advance
from pbem.services.errors import NotFound, StaleGame
from pbem.services.dispatch import ADVANCE_TASK, PING_TASK, TICK_TASK, advance_mode, settle_delay, stalled_games
from pbem.tasks import QUEUE
from worker.celery_app import celery, flask_app
from worker.locks import heartbeat, single_flight

log = logging.getLogger(__name__)

TICK_LOCK_SECONDS = 180  # as long as a task may run (task_time_limit): never two ticks at once


@celery.task(name=ADVANCE_TASK, bind=True, autoretry_for=(OperationalError, StaleGame), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def advance_game(self: Any, game_id: int) -> dict[str, Any]:
    """Apply the game's committed orders that can be applied now (idempotent)."""
    try:
        done = advance(db.session(), game_id)
    except NotFound:
        return {"game": game_id, "missing": True}
    if done.settle_until is not None:
        # Held by the settle window: come back when it closes.  A later order restarts the
        # window and queues its own advance; a spare one finds nothing to do.
        self.apply_async(args=[game_id], countdown=settle_delay(done.settle_until), queue=QUEUE)
    return {"game": game_id, "applied": len(done.applied), "version": done.version, "finished": done.finished,
            "settle_until": done.settle_until.isoformat() if done.settle_until else None}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


@celery.task(name=TICK_TASK, bind=True)
def tick(self: Any) -> dict[str, Any]:
    """Every 30 s (beat): what is due by the clock (deadlines, reminders, missed turns, in
    pbem.services.deadlines) for every game, then games whose queued advance got lost.  A
    tick that ran out of its time budget with work left queues the next one at once."""
    report = _tick_once()
    if report.get("deadlines", {}).get("more"):  # after the lock is released, so it runs
        self.apply_async(queue=QUEUE)
    return report


def _tick_once() -> dict[str, Any]:
    with single_flight(flask_app.config, "tick", TICK_LOCK_SECONDS) as mine:
        if not mine:
            return {"skipped": "another tick is running"}
        now = datetime.now(timezone.utc)
        session = db.session()  # the app's own session, a plain Session as services take
        report: dict[str, Any] = {"at": now.isoformat()}
        try:
            budget = float(flask_app.config.get("PBEM_TICK_BUDGET_SECONDS", deadlines.TICK_BUDGET))
            report["deadlines"] = _plain(deadlines.tick(session, now, budget=budget))
            session.commit()  # whatever the tick left open
        except Exception as error:  # noqa: BLE001 - the sweep below must still run
            session.rollback()
            log.exception("the deadline tick failed")
            report["deadlines_error"] = repr(error)
        grace = timedelta(seconds=float(flask_app.config.get("PBEM_STALL_GRACE_SECONDS") or 60))
        stalled = stalled_games(session, now, grace)
        session.rollback()  # end the read-only transaction before queueing
        for game_id in stalled:
            advance_game.apply_async(args=[game_id], queue=QUEUE)
        report["requeued"] = stalled
        heartbeat(flask_app.config, "tick", now)
        return report


@celery.task(name=PING_TASK, ignore_result=False, acks_late=False)
def ping() -> dict[str, Any]:
    """Readiness: a worker that answers consumes the queue and has the app loaded."""
    try:
        db.session.execute(text("SELECT 1"))
        database = "ok"
    except DBAPIError as error:  # pragma: no cover - reported, not raised
        database = f"error: {error.__class__.__name__}"
    finally:
        db.session.rollback()
    return {"pong": True, "pid": os.getpid(), "advance": advance_mode(), "database": database}
