"""Alembic environment: the URL comes from `pbem.db.upgrade(url)` or DATABASE_URL."""
from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pbem.config import database_url
from pbem.models import db
import pbem.mail.models  # noqa: E402,F401  - the gateway's table (0003)
import pbem.leagues.models  # noqa: E402,F401  - the leagues' tables (0015)
import pbem.outbox.models  # noqa: E402,F401  - the tables of outgoing mail (0003)

config = context.config
target_metadata = db.metadata


def _url() -> str:
    return database_url(config.get_main_option("sqlalchemy.url") or None)


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is not None:  # handed over by a caller that already holds a connection
        _run(connectable)
        return
    engine = create_engine(_url())
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    # Batch mode lets later migrations alter tables on SQLite, which has no ALTER COLUMN.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
