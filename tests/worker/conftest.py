"""Worker test fixtures: the real PostgreSQL and the real Redis, and real `celery worker`
processes (no eager mode).

- PostgreSQL on 127.0.0.1:5432 (database `test`, user postgres; PBEM_TEST_POSTGRES), a
  schema of our own per test process, built by the Alembic migrations; tables emptied
  before each test (ids are not restarted, so a message left over from an earlier test can
  never name a game of a later one).
- Redis on 127.0.0.1:6379 (PBEM_TEST_REDIS): database 1 + N for xdist worker gwN, and every
  key under a prefix of this test process (PBEM_QUEUE_PREFIX), so suites run at once from
  other checkouts never share a queue.  Only our own prefix is deleted, never FLUSHDB.
- `stack.app`: the Flask app with PBEM_ADVANCE=queue, as the web runs in production;
  `stack.env`: the same configuration for worker processes.
- `workers`: starts worker processes for a test and stops them all afterwards.
- `sink`: a real SMTP server that keeps what the workers deliver; `mail_env`: the worker
  settings that render reports in workers and send every mail to it; `gateway`: the SMTP
  gateway as `pbem smtpd` runs it, handing each mail it stores to the workers.

The servers must run: without them these tests fail, they never skip.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest
import redis
from flask import Flask
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.orm import Session

_HERE = Path(__file__).resolve().parent
for _path in (str(_HERE.parent / "service"), str(_HERE.parent / "gateway"), str(_HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from gateway_helpers import Sink, free_port  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.db import upgrade  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mail.smtpd import controller  # noqa: E402
from pbem.services.state import clear_cache  # noqa: E402
from worker_helpers import Workers, purge  # noqa: E402

POSTGRES = os.environ.get("PBEM_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("PBEM_TEST_REDIS", "redis://127.0.0.1:6379").rstrip("/")
BASE_URL = "http://pbem.test"
MAIL_DOMAIN = "pbem.test"


def xdist_worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def redis_database() -> int:
    name = xdist_worker()
    number = int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0
    return 1 + number % 15


def _postgres(action: str, schema: str) -> None:
    url = make_url(POSTGRES)
    try:
        if action == "create":
            admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                if not connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                         {"name": url.database}):
                    try:
                        connection.execute(text(f'CREATE DATABASE "{url.database}"'))
                    except (ProgrammingError, IntegrityError):
                        pass  # created meanwhile by another test process
            admin.dispose()
        engine = create_engine(POSTGRES)
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            if action == "create":
                connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
    except OperationalError as error:
        pytest.fail(f"PostgreSQL at {POSTGRES} is unreachable; the worker tests need it: {error}", pytrace=False)


@dataclass
class Stack:
    app: Flask
    config: dict[str, Any]
    env: dict[str, str]
    redis: redis.Redis
    prefix: str
    engine: Any


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tag = f"{xdist_worker()}_{os.getpid()}"
    schema = f"pbem_worker_{tag}"
    _postgres("create", schema)
    url = f"{POSTGRES}?options=-csearch_path%3D{schema}"
    upgrade(url)
    redis_url = f"{REDIS}/{redis_database()}"
    client = redis.Redis.from_url(redis_url, socket_timeout=10)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as error:
        pytest.fail(f"Redis at {REDIS} is unreachable; the worker tests need it: {error}", pytrace=False)
    prefix = f"pbemtest:{tag}:"
    purge(client, prefix)
    config = {"TESTING": True, "PBEM_ENV": "testing", "SECRET_KEY": "test-secret", "DATABASE_URL": url,
              "PBEM_BASE_URL": BASE_URL, "RATELIMIT_ENABLED": False, "PBEM_ADVANCE": "queue",
              "REDIS_URL": redis_url, "PBEM_QUEUE_PREFIX": prefix,
              "PBEM_QUEUE_DIR": str(tmp_path_factory.mktemp("queue"))}
    env = {**os.environ, "PBEM_ENV": "testing", "SECRET_KEY": "test-secret", "DATABASE_URL": url,
           "PBEM_BASE_URL": BASE_URL, "REDIS_URL": redis_url, "PBEM_QUEUE_PREFIX": prefix,
           "PBEM_QUEUE_DIR": config["PBEM_QUEUE_DIR"], "PBEM_RATELIMIT": "0", "PYTHONUNBUFFERED": "1"}
    for name in ("PBEM_TEST_ADVANCE_PAUSE", "PBEM_TEST_ADVANCE_MARKER", "PBEM_VISIBILITY_TIMEOUT",
                 "PBEM_TICK_SECONDS", "PBEM_STALL_GRACE_SECONDS", "PBEM_TICK_BUDGET_SECONDS", "PBEM_ADVANCE"):
        env.pop(name, None)
    app = create_app(config)
    with app.app_context():
        engine = db.engine
    yield Stack(app, config, env, client, prefix, engine)
    with app.app_context():
        db.engine.dispose()
    purge(client, prefix)
    _postgres("drop", schema)


@pytest.fixture
def app(stack: Stack) -> Iterator[Flask]:
    purge(stack.redis, stack.prefix)
    with stack.app.app_context():
        tables = ", ".join(t.name for t in reversed(db.metadata.sorted_tables))
        with db.engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {tables} CASCADE"))
    clear_cache()
    yield stack.app


@pytest.fixture
def client(app: Flask) -> Any:
    return app.test_client()


@pytest.fixture
def session(app: Flask, stack: Stack) -> Iterator[Session]:
    """A session for calling services directly; no app context, so services called with
    it advance inline (the test's setup), while API requests queue advances."""
    with Session(stack.engine) as opened:
        yield opened


@pytest.fixture
def workers(stack: Stack, app: Flask, tmp_path: Path) -> Iterator[Workers]:
    started = Workers(dict(stack.env), tmp_path)
    try:
        yield started
    finally:
        started.stop_all()
        purge(stack.redis, stack.prefix)


@pytest.fixture
def make_user() -> Any:
    from service_helpers import make_user as make
    return make


@pytest.fixture(scope="module")
def sink() -> Iterator[Sink]:
    server = Sink()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def mail_env(sink: Sink) -> dict[str, str]:
    """Worker settings: reports rendered by workers, mail over SMTP to the sink."""
    sink.clear()
    return {"PBEM_REPORT_MAIL": "queue", "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(sink.port),
            "PBEM_SMTP_TLS": "off", "PBEM_MAIL_DOMAIN": MAIL_DOMAIN}


@pytest.fixture
def gateway(stack: Stack, app: Flask) -> Iterator[Any]:
    """The SMTP gateway as production runs it (`pbem smtpd`): it stores each mail and queues
    its processing for a worker."""
    mail_app = create_app({**stack.config, "PBEM_MAIL_PROCESS": "queue", "PBEM_MAIL_DOMAIN": MAIL_DOMAIN})
    server, handler = controller(mail_app, host="127.0.0.1", port=free_port())
    server.start()
    yield server
    server.stop()
    handler.close()
    with mail_app.app_context():
        db.engine.dispose()
