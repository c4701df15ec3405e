"""Celery as the senders of tasks see it (docs/workers.md): the settings, the client, and
sending once a transaction commits.

- `celery_settings(config)`: the Celery settings for the app's configuration, shared by the
  web side (which only sends tasks) and the worker (worker/celery_app.py, which runs them;
  it adds the periodic schedule, pbem.services.dispatch.beat_schedule).  `REDIS_URL` gives
  the broker and the result backend; without it an embedded transport keeps messages as
  files under `PBEM_QUEUE_DIR`, so `make run` needs no server.
- `producer(app)`: the app's Celery client; tasks are sent by name.
- `after_commit(session, action)`: run `action` once the session's transaction commits, so a
  worker never looks for a row that is not committed yet.

Below the services and the mail layer, which both send tasks; it never imports the worker
package.  The worker's tasks are in worker/tasks.py and worker/mail_tasks.py.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable, Mapping

from celery import Celery
from flask import Flask, current_app
from kombu import Exchange, Queue
from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

QUEUE = "pbem"
# Report rendering (about a second of CPU a mail) has a queue of its own, so a burst of
# reports never keeps an advance waiting for a worker process (docs/workers.md).
REPORT_QUEUE = "pbem.reports"
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
    }
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
