"""Several writes in one round trip (issue 18: an order's advance is mostly waiting on the
database).

`together(session, statement, writes)` executes a Core statement with other Core writes
(INSERT, UPDATE, DELETE): on PostgreSQL as data-modifying CTEs of the statement, one
statement sent; elsewhere (SQLite, `make run`'s default) one by one before it.  The writes
must touch rows nothing else in the statement touches and must not need each other's
effects (on PostgreSQL they all see the database as it was before the statement), and their
own results are not seen: only the statement's.
"""
from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Delete, Insert, Result, Select, Update
from sqlalchemy.orm import Session

Write = Insert | Update | Delete


def together(session: Session, statement: Select[Any] | Write, writes: Sequence[Write] = (),
             params: dict[str, Any] | None = None) -> Result[Any]:
    """The result of `statement`, executed with `writes` (see the module's docstring)."""
    if writes and session.get_bind().dialect.name == "postgresql":
        statement = statement.add_cte(*(write.cte(f"w{n}") for n, write in enumerate(writes)))
    else:
        for write in writes:
            session.execute(write)
    return session.execute(statement, params)
