"""The PostgreSQL server the benchmarks use, a schema of their own on it, and the raw
insert-and-commit baseline measured beside the service figures in the same run.

PBEM_BENCH_POSTGRES picks the server (default: the local test database).
"""
from __future__ import annotations

import os
import time

import psycopg
from sqlalchemy import create_engine, text

POSTGRES = os.environ.get("PBEM_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _execute(*statements: str) -> None:
    engine = create_engine(POSTGRES)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()


def create_schema(name: str) -> str:
    """A fresh, empty schema, and the SQLAlchemy URL that works in it."""
    _execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE', f'CREATE SCHEMA "{name}"')
    return _url(name)


def schema_url(name: str) -> str:
    """The schema as it is (made empty if missing), and the SQLAlchemy URL that works in it."""
    _execute(f'CREATE SCHEMA IF NOT EXISTS "{name}"')
    return _url(name)


def _url(schema: str) -> str:
    return f"{POSTGRES}?options=-csearch_path%3D{schema}"


def drop_schema(name: str) -> None:
    _execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def raw_insert_commit(schema: str, limit: int, seconds: float) -> tuple[int, float]:
    """The baseline: one connection inserting a row and committing, up to `limit` times
    or `seconds`; returns (commits, seconds spent)."""
    url = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, options=f"-csearch_path={schema}") as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS raw_orders (id serial PRIMARY KEY, game int, text text)")
        connection.commit()
        runs, start = 0, time.perf_counter()
        while runs < limit and time.perf_counter() - start < seconds:
            connection.execute("INSERT INTO raw_orders (game, text) VALUES (%s, %s)", (1, "place 12"))
            connection.commit()
            runs += 1
        return runs, time.perf_counter() - start
