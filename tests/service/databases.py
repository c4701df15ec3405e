"""The test databases: the PostgreSQL server's test database (a fresh schema per test
process) and the app configuration the service tests use (conftest.py builds the apps), and
that conftest as a module for the other directories that reuse its fixtures."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

POSTGRES = os.environ.get("PBEM_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")
BASE_URL = "http://pbem.test"


def worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def ensure_database() -> None:
    """Create the test database if the server lacks it (a fresh CI machine)."""
    url = make_url(POSTGRES)
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                       {"name": url.database})
            if not exists:
                try:
                    connection.execute(text(f'CREATE DATABASE "{url.database}"'))
                except (ProgrammingError, IntegrityError):
                    pass  # the other xdist worker created it first
    except OperationalError as error:
        pytest.fail(f"PostgreSQL at {POSTGRES} is unreachable; the service suite needs it "
                    f"(start it, or set PBEM_TEST_POSTGRES): {error}", pytrace=False)
    finally:
        admin.dispose()


def postgres_schema_url(name: str) -> str:
    """A fresh, empty schema `name` in the test database, and a URL that uses it."""
    ensure_database()
    engine = create_engine(POSTGRES)
    try:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA "{name}"'))
    except OperationalError as error:
        pytest.fail(f"PostgreSQL at {POSTGRES} is unreachable; the service suite needs it "
                    f"(start it, or set PBEM_TEST_POSTGRES): {error}", pytrace=False)
    finally:
        engine.dispose()
    return f"{POSTGRES}?options=-csearch_path%3D{name}"


def drop_postgres_schema(name: str) -> None:
    engine = create_engine(POSTGRES)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    engine.dispose()


def app_config(url: str, **extra: Any) -> dict[str, Any]:
    return {"TESTING": True, "PBEM_ENV": "testing", "SECRET_KEY": "test-secret", "DATABASE_URL": url,
            "PBEM_BASE_URL": BASE_URL, "PBEM_ORDER_LIMIT": "1000 per minute", "PBEM_PRESS_LIMIT": "1000 per minute",
            "PBEM_SIGNIN_LIMIT": "100 per minute", "PBEM_SIGNIN_IP_LIMIT": "1000 per minute", **extra}


def service_conftest(name: str) -> ModuleType:
    """The service suite's conftest.py (its fixtures and helpers) loaded as a module named
    `name`: a directory that reuses its fixtures cannot import it as `conftest`, its own
    conftest's name."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
