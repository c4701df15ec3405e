"""How a request's transaction ends (pbem/transactions.py): one that only read commits, so
psycopg keeps the statements it prepared on the connection; one that wrote and did not commit
is rolled back as before.  Through the app's own teardown: requests, and an app context
ending as a Celery task's does."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, insert, select, text
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.models import User
from pbem.services import accounts
from service_helpers import make_user

REQUESTS = 8  # past psycopg's prepare threshold (5 runs of a statement on a connection)


def _prepared(app: Any) -> int:
    """How many statements the pool's one connection has prepared."""
    with app.app_context():
        return int(db.session.scalar(text("SELECT count(*) FROM pg_prepared_statements")) or 0)


def test_reads_keep_the_statements_psycopg_prepared(app: Any, client: Any, session: Session) -> None:
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    user = make_user(session, "ana@example.com", "Ana")
    _, secret = accounts.create_api_token(session, user, "reads")
    session.close()
    with app.app_context():
        db.engine.dispose()  # a pool of one connection from here: the requests take turns on it
    headers = {"Authorization": f"Bearer {secret}"}
    for _ in range(REQUESTS):
        assert client.get("/api/me", headers=headers).status_code == 200
    # Each request read the token and the person; once prepared, those statements stayed.
    assert _prepared(app) >= 1


def test_a_transaction_that_wrote_and_did_not_commit_is_rolled_back(app: Any, session: Session) -> None:
    with app.app_context():
        db.session.execute(select(func.count(User.id)))
        db.session.execute(insert(User).values(display_name="Never"))
    # The app context ended (as after a request or a task) without a commit.
    assert session.scalar(select(func.count(User.id)).where(User.display_name == "Never")) == 0

