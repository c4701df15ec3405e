"""How a request's or a task's database transaction ends (issue 18).

psycopg prepares a statement on a connection once it has run there five times; the server
then no longer parses and plans it, which was most of the database's time on the order path
(the advance's locked read: 1.9 ms planned anew, 0.4 ms prepared).  But psycopg forgets every
prepared statement at each ROLLBACK, as it cannot tell what a rolled-back transaction did to
the schema; and a transaction that only read ends with a ROLLBACK when Flask-SQLAlchemy
removes the session, so each page view threw away what the order path had prepared.

`end_read_only(session)`, run as the app context ends (before the session is removed),
commits a transaction that sent nothing but SELECT statements: for it a COMMIT is the same
as a ROLLBACK (row locks a SELECT ... FOR UPDATE took are released alike).  Any other
statement, a failed one, or unflushed changes leave the transaction to the ROLLBACK as before.
"""
from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

_WROTE = "pbem.wrote"  # Connection.info: the open transaction sent something else than a SELECT


@event.listens_for(Engine, "begin")
def _began(connection: Connection) -> None:
    connection.info[_WROTE] = False


@event.listens_for(Engine, "before_cursor_execute")
def _sent(connection: Connection, _cursor: Any, statement: str, *_: Any) -> None:
    # SQLAlchemy renders every SELECT it builds starting with the word; a write in a CTE
    # starts with WITH and counts as a write, and so does anything written by hand.
    if not statement.startswith("SELECT"):
        connection.info[_WROTE] = True


@event.listens_for(Engine, "handle_error")
def _failed(context: Any) -> None:
    if context.connection is not None:
        context.connection.info[_WROTE] = True


def end_read_only(session: Session) -> None:
    """Commit the session's transaction if it only read (see above); otherwise do nothing."""
    if not session.in_transaction() or session.new or session.dirty or session.deleted:
        return
    if session.connection().info.get(_WROTE, True):
        return
    try:
        session.commit()
    except SQLAlchemyError:  # the connection went away: the ROLLBACK that follows cleans up
        log.warning("could not end a read-only transaction", exc_info=True)
