"""The Alembic migrations build exactly the schema the models describe, on both databases."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from sqlalchemy.exc import DBAPIError

from pbem.db import upgrade
from pbem.extensions import db
from pbem.models import OutboxMessage


def test_the_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert context.get_current_revision() is not None


def test_upgrading_an_up_to_date_database_changes_nothing(app):
    with app.app_context():
        url = db.engine.url.render_as_string(hide_password=False)
        with db.engine.connect() as connection:
            before = MigrationContext.configure(connection).get_current_revision()
    upgrade(url)
    with app.app_context(), db.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == before


def test_a_database_error_does_not_list_the_values_sent(app, session):
    # (PostgreSQL's own DETAIL line may still show a failing row; what we send is never listed.)
    secret = "hand: Great Tlatoani, Sacred Games"
    session.add(OutboxMessage(to_address="a@example.com", subject=None, body=secret, topic="turn"))
    with pytest.raises(DBAPIError) as caught:
        session.commit()
    session.rollback()
    assert "[parameters:" not in str(caught.value) and "parameters hidden" in str(caught.value)
