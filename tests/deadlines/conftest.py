"""Deadline tests: the service suite's app fixtures (SQLite and PostgreSQL), on a schema of
their own, and a controllable clock: every service call here takes `now`; nothing sleeps."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

_HERE = Path(__file__).resolve().parent
_SERVICE = _HERE.parent / "service"
for _path in (str(_HERE), str(_SERVICE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from databases import service_conftest  # noqa: E402

service = service_conftest("service_conftest_for_deadlines")

# The service suite's per-test fixtures; `backend_app` below replaces theirs.
app, client, session, ana, bo = service.app, service.client, service.session, service.ana, service.bo


@pytest.fixture(scope="session", params=service.BACKENDS)
def backend_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    # A schema of its own: the service suite's fixture may be alive in the same process.
    schema = f"pbem_deadlines_{service.worker()}_{os.getpid()}"
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('sqlite-deadlines')}/pbem.sqlite3"
    else:
        url = service.postgres_schema_url(schema)
    service.upgrade(url)
    flask_app = service.create_app(service.app_config(url))
    yield flask_app
    with flask_app.app_context():
        service.db.engine.dispose()
    if request.param == "postgresql":
        service.drop_postgres_schema(schema)
