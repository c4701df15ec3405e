"""The Celery app, built from the Flask app's configuration (as Superset does it).

`celery -A worker.celery_app worker` imports this module: it builds the Flask app from the
environment (DATABASE_URL, REDIS_URL, ... as for the web, docs/service.md) and a Celery app
whose settings come from that configuration (pbem.tasks.celery_settings, and the periodic
schedule pbem.services.dispatch.beat_schedule).  Every
task runs inside the Flask app's context, so the application layer sees the same `db` and
configuration as in a web request, and its database session is removed after each task.
"""
from __future__ import annotations

import os
import time
from typing import Any

from celery import Celery, Task, signals
from flask import Flask

from pbem.app import create_app
from pbem.extensions import db
from pbem.services.dispatch import beat_schedule
from pbem.tasks import celery_settings


def _flask_app() -> Flask:
    # A worker has no HTTP clients to rate-limit, and must never advance inline: the
    # follow-up advances it asks for (settle windows, the tick) go through the queue.
    return create_app({"RATELIMIT_ENABLED": False, "PBEM_ADVANCE": "queue"})


flask_app = _flask_app()


class FlaskTask(Task):  # type: ignore[misc]
    """A task that runs inside the Flask app's context."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with flask_app.app_context():
            return super().__call__(*args, **kwargs)


def make_worker_celery(app: Flask) -> Celery:
    celery = Celery("pbem", task_cls=FlaskTask, include=["worker.tasks", "worker.mail_tasks", "worker.league_tasks"])
    celery.conf.update(celery_settings(app.config), beat_schedule=beat_schedule(app.config))
    return celery


celery = make_worker_celery(flask_app)
app = celery  # `celery -A worker.celery_app` looks for `app` or `celery`


@signals.worker_process_init.connect
def _fresh_connections(**_: Any) -> None:
    """A pool process forked from the main one must not share its database connections."""
    with flask_app.app_context():
        for engine in db.engines.values():
            engine.dispose(close=False)


# ---- a test-only hook ----------------------------------------------------------------------
# PBEM_TEST_ADVANCE_PAUSE=<seconds> with PBEM_TEST_ADVANCE_MARKER=<path>: the first advance
# that is about to commit new order-log lines writes its process id to the marker file and
# sleeps, holding its uncommitted transaction, so a test can kill the worker right there.
# Later advances (the redelivered task) find the marker and go on.  Never set in production.

def _install_test_pause(seconds: float, marker: str) -> None:
    from sqlalchemy import Connection, Engine, event
    from sqlalchemy.orm import Session

    from pbem.models import OrderLogEntry

    def _logs(session: Session) -> bool:
        return any(isinstance(obj, OrderLogEntry) for obj in session.new)

    @event.listens_for(Session, "after_flush")
    def _flushed(session: Session, _context: object) -> None:
        if _logs(session):  # still the flush's own lists here
            session.info["pbem_test_logged"] = True

    @event.listens_for(Engine, "after_cursor_execute")
    def _inserted(connection: Connection, cursor: object, statement: str, *_: object) -> None:
        # The advance writes its lines with Core INSERTs of the table, not as objects (on
        # PostgreSQL inside its UPDATE of the game: pbem/writes.py): seen in the SQL sent.
        if f"INSERT INTO {OrderLogEntry.__tablename__} " in statement:
            connection.info["pbem_test_logged"] = True

    @event.listens_for(Engine, "rollback")
    def _undone(connection: Connection) -> None:
        connection.info.pop("pbem_test_logged", None)

    @event.listens_for(Session, "before_commit")
    def _pause(session: Session) -> None:
        logged = session.connection().info.pop("pbem_test_logged", False)
        if not (session.info.pop("pbem_test_logged", False) or logged or _logs(session)):
            return
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        time.sleep(seconds)


if os.environ.get("PBEM_TEST_ADVANCE_PAUSE") and os.environ.get("PBEM_TEST_ADVANCE_MARKER"):
    _install_test_pause(float(os.environ["PBEM_TEST_ADVANCE_PAUSE"]), os.environ["PBEM_TEST_ADVANCE_MARKER"])
