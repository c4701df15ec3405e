"""The work queue as the application layer sees it (docs/workers.md).

- `celery_settings(config)`: the Celery settings for the app's configuration, shared by the
  web side (which only sends tasks) and the worker (worker/celery_app.py, which runs them).
  `REDIS_URL` gives the broker and the result backend; without it an embedded transport
  keeps messages as files under `PBEM_QUEUE_DIR`, so `make run` needs no server.
- `request_advance(session, game_id)`: ask for the game to be advanced.  With
  `PBEM_ADVANCE=queue` it sends the task `pbem.advance_game` *after* the session's
  transaction commits (a worker must see the order that asked for it); with `inline` it
  advances at once in the caller's session.
- `stalled_games(session, now)`: games an advance is owed to and never came (the broker
  lost the message, or a worker died before redelivery): the tick queues them again.

This module never imports the worker package: it sends tasks by name.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Mapping

from celery import Celery
from kombu import Exchange, Queue
from flask import Flask, current_app, has_app_context
from sqlalchemy import event, exists, func, select
from sqlalchemy.orm import Session, aliased

from pbem.mail.settings import load as mail_settings
from pbem.models import Game, PendingOrder, Seat
from pbem.services.advance import advance, settle_seconds

log = logging.getLogger(__name__)

ADVANCE_TASK = "pbem.advance_game"
TICK_TASK = "pbem.tick"
MAIL_SWEEP_TASK = "pbem.mail_sweep"  # worker/mail_tasks.py
MAIL_SWEEP_SECONDS = 60.0
IMAP_POLL_TASK = "pbem.imap_poll"  # worker/mail_tasks.py
PING_TASK = "pbem.ping"
QUEUE = "pbem"
# Report rendering (about a second of CPU a mail) has a queue of its own, so a burst of
# reports never keeps an advance waiting for a worker process (docs/workers.md).
REPORT_QUEUE = "pbem.reports"
TICK_SECONDS = 30.0
STALL_GRACE = timedelta(seconds=60)  # a queued advance normally runs within milliseconds
_AFTER_COMMIT = "pbem.after_commit"
_EXTENSION = "pbem_queue"


def embedded(config: Mapping[str, Any]) -> bool:
    return not config.get("REDIS_URL")


def celery_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """Celery settings (lower-case names) for a Flask app's configuration."""
    settings: dict[str, Any] = {
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "enable_utc": True,
        "timezone": "UTC",
        "task_default_queue": QUEUE,
        # A worker started without -Q consumes both (make run, tests); production runs one
        # worker per queue (docker-compose.yml).
        # Each its own exchange and routing key: bound with a shared key (Celery's default for
        # a bare Queue), a broker would copy a message to both.
        "task_queues": tuple(Queue(name, Exchange(name, type="direct"), routing_key=name)
                             for name in (QUEUE, REPORT_QUEUE)),
        # At least once, then idempotent tasks: a message is acknowledged only after its task
        # finished; if the worker process dies meanwhile, the message goes back to the queue.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        "task_ignore_result": True,  # only ping keeps one (health checks and tests)
        "result_expires": 3600,
        "task_soft_time_limit": 120,
        "task_time_limit": 180,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        "beat_schedule": {
            "pbem-tick": {"task": TICK_TASK, "schedule": float(config.get("PBEM_TICK_SECONDS") or TICK_SECONDS),
                          # A tick that waited longer than its period is dropped, never stacked.
                          "options": {"expires": float(config.get("PBEM_TICK_SECONDS") or TICK_SECONDS) * 0.9}},
            # Inbound mail stored but never processed, and outbox rows never delivered.
            "pbem-mail-sweep": {"task": MAIL_SWEEP_TASK, "schedule": MAIL_SWEEP_SECONDS,
                                "options": {"expires": MAIL_SWEEP_SECONDS * 0.9}},
        },
    }
    imap = mail_settings(config)
    if imap.imap_host:  # a mailbox to poll (docs/email.md); the task's lock keeps polls apart
        settings["beat_schedule"]["pbem-imap-poll"] = {"task": IMAP_POLL_TASK, "schedule": imap.imap_seconds,
                                                       "options": {"expires": imap.imap_seconds * 0.9}}
    if embedded(config):
        folder = Path(config.get("PBEM_QUEUE_DIR") or "instance/celery").resolve()
        for sub in ("queue", "control", "results"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        settings.update(
            broker_url="filesystem://",
            broker_transport_options={"data_folder_in": str(folder / "queue"),
                                      "data_folder_out": str(folder / "queue"),
                                      "control_folder": str(folder / "control"),
                                      "polling_interval": 0.2},
            result_backend=f"file://{folder / 'results'}",
            beat_schedule_filename=str(folder / "beat-schedule"),
        )
        return settings
    prefix = config.get("PBEM_QUEUE_PREFIX") or ""
    visibility = int(config.get("PBEM_VISIBILITY_TIMEOUT") or 900)
    transport: dict[str, Any] = {
        # Redis redelivers a message whose worker died after this many seconds; longer than
        # any countdown we use (settle windows are at most 10 minutes).
        "visibility_timeout": visibility,
        # How often a worker looks for such messages.
        "unacked_restore_interval": max(1, min(30, visibility // 2)),
        "unacked_restore_throttle": 1,
    }
    backend: dict[str, Any] = {}
    if prefix:
        transport["global_keyprefix"] = backend["global_keyprefix"] = prefix
    settings.update(broker_url=config["REDIS_URL"], result_backend=config["REDIS_URL"],
                    broker_transport_options=transport, result_backend_transport_options=backend,
                    redis_backend_health_check_interval=30)
    return settings


def make_celery(config: Mapping[str, Any], name: str = "pbem") -> Celery:
    celery = Celery(name, set_as_current=False)
    celery.conf.update(celery_settings(config))
    return celery


def producer(app: Flask | None = None) -> Celery:
    """The app's Celery client for sending tasks (one per Flask app, made on first use)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    celery = app.extensions.get(_EXTENSION)
    if celery is None:
        celery = app.extensions[_EXTENSION] = make_celery(app.config, "pbem-producer")
    return celery


def advance_mode() -> str:
    """"queue" or "inline" (PBEM_ADVANCE); outside any app context (plain scripts and the
    service tests' direct calls) always inline."""
    if has_app_context():
        return str(current_app.config.get("PBEM_ADVANCE", "inline"))
    return "inline"


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run `action` once the session's current transaction commits (at once if none is
    open); forget it if the transaction rolls back."""
    if not session.in_transaction():
        action()
        return
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    for action in session.info.pop(_AFTER_COMMIT, []):
        try:
            action()
        except Exception:  # noqa: BLE001 - the commit stands; the tick catches what is missed
            log.exception("after-commit action failed")


@event.listens_for(Session, "after_rollback")
def _drop_after_commit(session: Session) -> None:
    session.info.pop(_AFTER_COMMIT, None)


def send_advance(game_id: int, *, countdown: float | None = None, app: Flask | None = None) -> None:
    """Send `pbem.advance_game(game_id)` now.  A broker that is down loses nothing: the
    order is committed, and the tick finds the game (`stalled_games`)."""
    try:
        producer(app).send_task(ADVANCE_TASK, args=[game_id], countdown=countdown, queue=QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue the advance of game %s; the tick will", game_id)


def request_advance(session: Session, game_id: int, *, countdown: float | None = None) -> bool:
    """Ask for `game_id` to be advanced; True if queued for a worker, False if done inline.

    Queue mode sends the task after the current transaction commits.  Inline mode runs
    `advance` at once in `session` (which commits): call it after your own commit."""
    if advance_mode() != "queue":
        advance(session, game_id, settle=False)
        return False
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    after_commit(session, lambda: send_advance(game_id, countdown=countdown, app=app))
    return True


def stalled_games(session: Session, now: datetime, grace: timedelta = STALL_GRACE) -> list[int]:
    """Running games holding orders that should have been applied by now.

    A pending order is normally applied within milliseconds of its commit, or waits for
    good reason: a secret choice waits for the other seats, a queued turn for its seat's
    turn.  Stalled are games with orders older than `grace` (plus their settle window) where
    nobody they wait for is missing: a seat that owes a decision has its orders in, or no
    seat owes anything at all."""
    owed = aliased(Seat)
    has_orders = exists().where(PendingOrder.game_id == owed.game_id, PendingOrder.seat == owed.name)
    unprocessed = exists().where(owed.game_id == Game.id, owed.waiting.is_(True), has_orders)
    anyone_waiting = exists().where(Seat.game_id == Game.id, Seat.waiting.is_(True))
    latest = select(PendingOrder.game_id, func.max(PendingOrder.submitted_at).label("latest")) \
        .group_by(PendingOrder.game_id).subquery()
    rows = session.execute(
        select(Game.id, Game.deadline_policy, latest.c.latest)
        .join(latest, latest.c.game_id == Game.id)
        .where(Game.status == Game.ACTIVE, latest.c.latest < now - grace, unprocessed | ~anyone_waiting)
        .order_by(Game.id))
    stalled = []
    for game_id, policy, latest_at in rows:
        if latest_at.tzinfo is None:  # in case an aggregate lost the column's type
            latest_at = latest_at.replace(tzinfo=timezone.utc)
        if latest_at + timedelta(seconds=settle_seconds(policy)) < now - grace:
            stalled.append(game_id)
    return stalled
