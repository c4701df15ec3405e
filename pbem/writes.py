"""Several writes in one round trip (issue 18: an order's advance is mostly waiting on the
database, and building statements anew costs more than sending them).

`together(session, statement, params, writes)` executes a Core statement with other Core
writes (INSERT, UPDATE, DELETE): on PostgreSQL as data-modifying CTEs of the statement, one
statement sent; elsewhere (SQLite, `make run`'s default) one by one before it.  The writes
must touch rows nothing else in the statement touches and must not need each other's
effects (on PostgreSQL they all see the database as it was before the statement), and their
own results are not seen: only the statement's.  Two UPDATEs of one row made by `row_write`
are merged into one (PostgreSQL would apply only one of them).

Statements are built once (`functools.cache` at their makers) with named bind parameters, so
SQLAlchemy keys and compiles each shape once: a `Write` is such a statement and its values.
Bind names must differ between the statement and its writes (the makers number them).
"""
from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache
from typing import Any, NamedTuple, Sequence

from sqlalchemy import Delete, Insert, Result, Select, String, Update, bindparam, delete, func, insert, inspect, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

Statement = Insert | Update | Delete


class Write(NamedTuple):
    statement: Statement  # built once, its values bound by name
    params: dict[str, Any]
    row: Row | None = None  # an UPDATE of one row (`row_write`): merged with another of that row


class Row(NamedTuple):
    table: Any
    ident: int
    prefix: str
    values: dict[str, Any]


def together(session: Session, statement: Select[Any] | Statement, params: dict[str, Any],
             writes: Sequence[Write] = ()) -> Result[Any]:
    """The result of `statement` with `params`, executed with `writes` (see above)."""
    if not writes:
        return session.execute(statement, params)
    if session.get_bind().dialect.name == "postgresql":
        writes = _one_per_row(writes)
        merged = dict(params)
        for write in writes:
            merged.update(write.params)
        return session.execute(_with_ctes(statement, tuple(write.statement for write in writes)), merged)
    execute(session, writes)
    return session.execute(statement, params)


def execute(session: Session, writes: Sequence[Write]) -> None:
    """The writes one by one (with nothing to send them with)."""
    for write in writes:
        session.execute(write.statement, write.params)


@lru_cache(maxsize=512)
def _with_ctes(statement: Select[Any] | Statement, writes: tuple[Statement, ...]) -> Select[Any] | Statement:
    """`statement` WITH w0 AS (writes[0]), w1 AS (...): one object per combination, so its
    cache key is computed once."""
    return statement.add_cte(*(write.cte(f"w{n}") for n, write in enumerate(writes)))


@cache
def row_update(table: Any, prefix: str, columns: tuple[str, ...]) -> Update:
    """UPDATE `table` SET each column = :<prefix>_<column> WHERE id = :<prefix>_id."""
    return update(table).where(table.c.id == bindparam(f"{prefix}_id")) \
        .values({name: bindparam(f"{prefix}_{name}") for name in columns})


@cache
def row_insert(table: Any, prefix: str, columns: tuple[str, ...]) -> Insert:
    """INSERT INTO `table` one row, each column's value bound as :<prefix>_<column>."""
    return insert(table).values({name: bindparam(f"{prefix}_{name}") for name in columns})


def rows_insert(session: Session, table: Any, prefix: str, rows: Sequence[dict[str, Any]]) -> list[Write]:
    """The INSERT of these rows (all with the same columns) for the caller to send.  On PostgreSQL
    one write of one shape however many rows: each column's values bound as one array
    (:<prefix>_<column>) and unnested, so SQLAlchemy compiles it and PostgreSQL plans it once,
    where a row each made a new statement for every number of rows.  Elsewhere a `row_insert`
    each (row n's values bound as <prefix><n>_<column>)."""
    if not rows:
        return []
    columns = tuple(rows[0])
    if session.get_bind().dialect.name == "postgresql":
        arrays = {f"{prefix}_{column}": [row[column] for row in rows] for column in columns}
        return [Write(_unnested_insert(table, prefix, columns), arrays)]
    return [Write(row_insert(table, f"{prefix}{n}", columns), bound(f"{prefix}{n}", row)) for n, row in enumerate(rows)]


@cache
def _unnested_insert(table: Any, prefix: str, columns: tuple[str, ...]) -> Insert:
    """INSERT INTO `table` (columns) SELECT * FROM unnest(:<prefix>_<column>, ...) (PostgreSQL)."""
    arrays = (bindparam(f"{prefix}_{column}", type_=ARRAY(_unsized(table.c[column].type))) for column in columns)
    rows = func.unnest(*arrays).table_valued(*columns).render_derived()
    return insert(table).from_select(list(columns), select(*(rows.c[column] for column in columns)))


def _unsized(kind: Any) -> Any:
    """A column's type for the elements of its array: strings without their length, as a cast
    to VARCHAR(n) would cut a longer value where the column refuses it."""
    return String() if isinstance(kind, String) else kind


def row_write(table: Any, prefix: str, ident: int, values: dict[str, Any]) -> Write:
    """The UPDATE of these columns of one row (by id), as a Write that `together` merges with
    another UPDATE of the same row: PostgreSQL leaves two updates of one row in one statement
    undefined (only one of them takes effect)."""
    return Write(row_update(table, prefix, tuple(sorted(values))), bound(prefix, {"id": ident, **values}),
                 Row(table, ident, prefix, values))


def _one_per_row(writes: Sequence[Write]) -> list[Write]:
    """`writes` with the UPDATEs of one row (`row_write`) merged into the first of them."""
    rows: dict[tuple[Any, int], int] = {}
    merged: list[Write] = []
    for write in writes:
        if write.row is None:
            merged.append(write)
            continue
        key = (write.row.table, write.row.ident)
        if key not in rows:
            rows[key] = len(merged)
            merged.append(write)
            continue
        first = merged[rows[key]].row
        assert first is not None
        merged[rows[key]] = row_write(first.table, first.prefix, first.ident, {**first.values, **write.row.values})
    return merged


def bound(prefix: str, values: dict[str, Any]) -> dict[str, Any]:
    """`values` named as `row_update` and `row_insert` bind them."""
    return {f"{prefix}_{key}": value for key, value in values.items()}


def deleted(session: Session, rows: Sequence[Any]) -> list[Write]:
    """These ORM objects out of the session now, and the DELETEs of those stored, by id (one per
    table), for the caller to send: no unit of work at the next flush.  One added in this
    transaction and not flushed yet is simply never written."""
    stored: dict[Any, list[int]] = defaultdict(list)
    for row in rows:
        if inspect(row).persistent:
            stored[type(row).__table__].append(row.id)
        session.expunge(row)
    return [Write(_delete(table, len(ids)), {f"gone_{table.name}{n}": ident for n, ident in enumerate(ids)})
            for table, ids in stored.items()]


@cache
def _delete(table: Any, count: int) -> Delete:
    """DELETE of `count` rows by id: a bind each (an "expanding" IN would be rendered anew each time)."""
    return delete(table).where(table.c.id.in_([bindparam(f"gone_{table.name}{n}") for n in range(count)]))
