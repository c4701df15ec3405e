"""Gateway test fixtures: the app on SQLite and PostgreSQL (as in tests/service), a real SMTP
sink that receives everything pbem sends, and the real SMTP gateway (aiosmtpd) on a free
loopback port.  Mail processing is inline in the gateway's own thread, and delivery goes over
SMTP to the sink, so a test speaks SMTP both ways."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from sqlalchemy.orm import Session

_HERE = Path(__file__).resolve().parent
for _path in (str(_HERE.parent / "service"), str(_HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

# The service suite's fixtures module, loaded under its own name (two conftest modules clash).
from databases import service_conftest  # noqa: E402

service = service_conftest("service_conftest")

from pbem.app import create_app  # noqa: E402
from pbem.db import upgrade  # noqa: E402
from pbem.extensions import db, limiter  # noqa: E402
from pbem.mail.smtpd import controller  # noqa: E402
from pbem.services.state import clear_cache  # noqa: E402
from gateway_helpers import DOMAIN, TRUSTED, WEBHOOK_SECRET, Sink, free_port  # noqa: E402


@pytest.fixture(scope="session")
def sink() -> Iterator[Sink]:
    server = Sink()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session", params=service.BACKENDS)
def backend_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                sink: Sink) -> Iterator[Flask]:
    schema = f"pbem_gw_{service.worker()}_{os.getpid()}"
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('sqlite')}/pbem.sqlite3"
    else:
        url = service.postgres_schema_url(schema)
    upgrade(url)
    app = create_app(service.app_config(
        url, PBEM_MAIL_DOMAIN=DOMAIN, PBEM_MAIL_PROCESS="inline", PBEM_SMTP_HOST="127.0.0.1",
        PBEM_SMTP_PORT=sink.port, PBEM_SMTP_TLS="off", PBEM_WEBHOOK_SECRET=WEBHOOK_SECRET,
        PBEM_MAIL_TRUSTED_AUTHSERV=TRUSTED, PBEM_MAIL_RATE_PER_HOUR=1000))
    yield app
    with app.app_context():
        db.engine.dispose()
    if request.param == "postgresql":
        service.drop_postgres_schema(schema)


@pytest.fixture
def app(backend_app: Flask, sink: Sink) -> Iterator[Flask]:
    service.empty_tables(backend_app)
    clear_cache()
    sink.clear()
    with backend_app.app_context():
        limiter.reset()
    yield backend_app


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    with app.app_context():
        engine = db.engine
    with Session(engine) as opened:
        yield opened


@pytest.fixture
def gateway(app: Flask) -> Iterator[Any]:
    """The SMTP gateway on a free loopback port: `.port`, `.handler` (GatewayHandler)."""
    server, handler = controller(app, host="127.0.0.1", port=free_port())
    server.start()
    yield server
    server.stop()
    handler.close()
