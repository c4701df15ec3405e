"""Conformance fixtures: the service suite's app, client and session (tests/service), on a
schema of their own and with mail limits no whole game of commands reaches.  The engine half
(test_engine_conformance.py) uses none of them.

Only on PostgreSQL, the production database: what differs between the databases is the
service suite's business (it runs every test on both); this suite plays whole games of every
registered game, and twice as many would double its minutes for nothing a game can break."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

_HERE = Path(__file__).resolve().parent
_SERVICE = _HERE.parent / "service"
for _path in (str(_HERE), str(_SERVICE), str(_HERE.parent / "gateway")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from databases import service_conftest  # noqa: E402

service = service_conftest("service_conftest_for_conformance")

# The service suite's per-test fixtures; `backend_app` below replaces theirs.
app, client, session = service.app, service.client, service.session

# Every seat mails its commands at every moment checked: far below these, far above the defaults.
MAIL_LIMITS = {"PBEM_MAIL_RATE_PER_HOUR": 100_000, "PBEM_MAIL_ANSWERS_PER_HOUR": 100_000}


@pytest.fixture(scope="session")
def backend_app() -> Iterator[Flask]:
    # A schema of its own: the service suite's fixture may be alive in the same process.
    schema = f"pbem_conformance_{service.worker()}_{os.getpid()}"
    url = service.postgres_schema_url(schema)
    service.upgrade(url)
    flask_app = service.create_app(service.app_config(url, **MAIL_LIMITS))
    yield flask_app
    with flask_app.app_context():
        service.db.engine.dispose()
    service.drop_postgres_schema(schema)
