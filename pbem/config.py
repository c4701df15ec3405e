"""Configuration from the environment, with defaults that are safe or clearly development-only.

Every setting can also be passed to `create_app(config)`, which wins over the environment
(tests use that).  The environment variables are listed in docs/service.md.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Mapping

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE = ROOT / "instance" / "pbem.sqlite3"
DEV_SECRET = "pbem-development-only-secret-key"
DEV_ENVS = ("development", "testing")
ADVANCE_MODES = ("inline", "queue")
REPORT_MAIL_MODES = ("queue", "inline", "off")
DEFAULT_QUEUE_DIR = ROOT / "instance" / "celery"


def database_url(url: str | None = None) -> str:
    """The SQLAlchemy URL for DATABASE_URL (default: a SQLite file under instance/).

    Plain `postgres://` and `postgresql://` URLs (as hosting platforms hand them out) are
    pointed at the psycopg 3 driver, the one we install.
    """
    url = url or os.environ.get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def environment() -> str:
    return (os.environ.get("PBEM_ENV") or os.environ.get("FLASK_ENV") or "production").lower()


def load_config(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    overrides = dict(overrides or {})
    env = overrides.get("PBEM_ENV") or environment()
    config: dict[str, Any] = {
        "PBEM_ENV": env,
        "SQLALCHEMY_DATABASE_URI": database_url(overrides.pop("DATABASE_URL", None)),
        # A database error never lists the values sent with the statement: they may hold a
        # hand, an order or a mail body, and errors end up in logs.
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True, "hide_parameters": True},
        "SECRET_KEY": os.environ.get("SECRET_KEY"),
        # Where links in mails point; behind a proxy set it to the public address.
        "PBEM_BASE_URL": os.environ.get("PBEM_BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        # The outbox page shows every mail, sign-in links included: development only.
        "PBEM_DEV_OUTBOX": env in DEV_ENVS,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": _flag("PBEM_SECURE_COOKIES"),
        "PERMANENT_SESSION_LIFETIME": 30 * 24 * 3600,
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        "RATELIMIT_ENABLED": _flag("PBEM_RATELIMIT", True),
        "RATELIMIT_HEADERS_ENABLED": True,
        "PBEM_SIGNIN_LIMIT": os.environ.get("PBEM_SIGNIN_LIMIT", "5 per 15 minutes"),
        "PBEM_SIGNIN_IP_LIMIT": os.environ.get("PBEM_SIGNIN_IP_LIMIT", "30 per hour"),
        "PBEM_ORDER_LIMIT": os.environ.get("PBEM_ORDER_LIMIT", "60 per minute"),
        # Press (docs/service.md, "Press"): per person on the web and API, and per seat and
        # hour on every channel (mail included).
        "PBEM_PRESS_LIMIT": os.environ.get("PBEM_PRESS_LIMIT", "10 per minute"),
        "PBEM_PRESS_PER_HOUR": int(os.environ.get("PBEM_PRESS_PER_HOUR", "30")),
        # The game page learns of changes from its event stream (pbem/live.py); it also asks
        # every this many seconds in case a proxy cuts the stream (0: never).
        "PBEM_PAGE_POLL": int(os.environ.get("PBEM_PAGE_POLL", "60")),
        "WTF_CSRF_TIME_LIMIT": None,  # the token lives as long as the session
        "MAX_CONTENT_LENGTH": 256 * 1024,
        # Workers (docs/workers.md).  "queue": an order that completes what a game waits for
        # queues `pbem.advance_game` for a Celery worker; "inline": the request advances the
        # game itself (the plain test suite, and a deployment without any worker).
        "PBEM_ADVANCE": os.environ.get("PBEM_ADVANCE") or ("inline" if env == "testing" else "queue"),
        # Broker and result backend; without REDIS_URL an embedded transport (files under
        # PBEM_QUEUE_DIR) that needs no server, for `make run`.
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        "PBEM_QUEUE_DIR": os.environ.get("PBEM_QUEUE_DIR") or str(DEFAULT_QUEUE_DIR),
        # Prepended to every Redis key of the queue (lets several services share one Redis).
        "PBEM_QUEUE_PREFIX": os.environ.get("PBEM_QUEUE_PREFIX", ""),
        # Seconds before Redis hands an unacknowledged task (its worker died) to another worker.
        "PBEM_VISIBILITY_TIMEOUT": int(os.environ.get("PBEM_VISIBILITY_TIMEOUT", "900")),
        # How often beat queues the tick (deadlines, reminders, lost advances).
        "PBEM_TICK_SECONDS": float(os.environ.get("PBEM_TICK_SECONDS", "30")),
        # The tick queues again the advance of a game whose orders waited this long for it.
        "PBEM_STALL_GRACE_SECONDS": float(os.environ.get("PBEM_STALL_GRACE_SECONDS", "60")),
        # Seconds of work per tick; what is left then the next tick does (queued at once).
        "PBEM_TICK_BUDGET_SECONDS": float(os.environ.get("PBEM_TICK_BUDGET_SECONDS", "60")),
        # "queue", "inline" or "off"; default below, from PBEM_ADVANCE.
        "PBEM_REPORT_MAIL": os.environ.get("PBEM_REPORT_MAIL") or None,
    }
    config.update(overrides)
    if config["PBEM_ADVANCE"] not in ADVANCE_MODES:
        raise RuntimeError(f"PBEM_ADVANCE must be one of {', '.join(ADVANCE_MODES)}, "
                           f"not {config['PBEM_ADVANCE']!r}")
    if not config.get("PBEM_REPORT_MAIL"):
        # Reports and notices by mail (docs/reports.md): rendered by a worker beside queued
        # advances, in-process without one, never in the test suite unless a test asks.
        testing = config.get("TESTING") or config["PBEM_ENV"] == "testing"
        config["PBEM_REPORT_MAIL"] = "off" if testing else config["PBEM_ADVANCE"]
    if config["PBEM_REPORT_MAIL"] not in REPORT_MAIL_MODES:
        raise RuntimeError(f"PBEM_REPORT_MAIL must be one of {', '.join(REPORT_MAIL_MODES)}, "
                           f"not {config['PBEM_REPORT_MAIL']!r}")
    if not config["SECRET_KEY"]:
        if config["PBEM_ENV"] not in DEV_ENVS:
            raise RuntimeError("SECRET_KEY is not set; set it in the environment "
                               "(or PBEM_ENV=development for a local development key)")
        warnings.warn("SECRET_KEY is not set: using the development key (PBEM_ENV="
                      f"{config['PBEM_ENV']}); never do this in production", stacklevel=2)
        config["SECRET_KEY"] = DEV_SECRET
    return config
