"""Service test fixtures: the app on SQLite and on PostgreSQL, with a fresh schema per test
session (built by the Alembic migrations) and empty tables for every test.

Every test that takes `app` (or a fixture built on it) runs twice: [sqlite] and
[postgresql].  PostgreSQL is the server on 127.0.0.1:5432 (database `test`, user
postgres); each test process (xdist worker) gets its own schema.  If the server is unreachable the
PostgreSQL tests fail: they must run, not skip.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from sqlalchemy import text
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pbem.app import create_app  # noqa: E402
from pbem.db import upgrade  # noqa: E402
from pbem.extensions import db, limiter  # noqa: E402
from pbem.services.state import clear_cache  # noqa: E402
# The databases, in a module of their own so that tests can import them by a name no other
# directory's conftest shares.
from databases import (BACKENDS, BASE_URL, POSTGRES, app_config, drop_postgres_schema,  # noqa: E402,F401
                       ensure_database, postgres_schema_url, worker)



@pytest.fixture(scope="session", params=BACKENDS)
def backend_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    # Per process: parallel workers, and suites run at once from other checkouts, never share.
    schema = f"pbem_test_{worker()}_{os.getpid()}"
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('sqlite')}/pbem.sqlite3"
    else:
        url = postgres_schema_url(schema)
    upgrade(url)
    app = create_app(app_config(url))
    yield app
    with app.app_context():
        db.engine.dispose()
    if request.param == "postgresql":
        drop_postgres_schema(schema)


def empty_tables(app: Flask) -> None:
    with app.app_context():
        tables = list(reversed(db.metadata.sorted_tables))
        with db.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text(f"TRUNCATE {', '.join(t.name for t in tables)} RESTART IDENTITY CASCADE"))
            else:
                for table in tables:
                    connection.execute(table.delete())


@pytest.fixture
def app(backend_app: Flask) -> Iterator[Flask]:
    empty_tables(backend_app)
    clear_cache()
    with backend_app.app_context():
        limiter.reset()
    yield backend_app


@pytest.fixture
def client(app: Flask) -> Any:
    return app.test_client()


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """A database session of the app's engine, for calling services directly.  It holds no
    app context, so the test client's requests keep their own (as in production)."""
    with app.app_context():
        engine = db.engine
    with Session(engine) as opened:
        yield opened


@pytest.fixture
def ana(session: Session) -> Any:
    from service_helpers import make_user
    return make_user(session, "ana@example.com", "Ana")


@pytest.fixture
def bo(session: Session) -> Any:
    from service_helpers import make_user
    return make_user(session, "bo@example.com", "Bo")
