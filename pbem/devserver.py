"""`make run` / `pbem run`: the whole service on embedded defaults, for development.

A SQLite file under instance/ (DATABASE_URL to change it), no Redis, mail kept in the
outbox (listed at /dev/outbox) instead of being sent, and the inbound SMTP gateway on
127.0.0.1:2525 (PBEM_SMTPD_PORT) for orders by mail.  Games advance in a Celery worker
started beside the web server (worker/dev.py; with beat inside it for the 30-second tick),
on an embedded file transport under instance/celery/ unless REDIS_URL is set.
PBEM_ADVANCE=inline runs without any worker (the request advances the game).
"""
from __future__ import annotations

import os
import signal
from typing import Any

from pbem.config import database_url

HOST = "127.0.0.1"
# The development worker renders report mails too: a pool process whose resident memory grew
# past this many KiB is replaced once its task is done (production: the reports worker's
# --max-memory-per-child in docker-compose.yml).
REPORT_MAX_MEMORY_KIB = 512_000


def worker_environment() -> dict[str, str]:
    """The web process's environment, plus the worker's memory backstop (Celery reads
    CELERY_WORKER_<OPTION> as its command-line option; one already set is kept)."""
    return {"CELERY_WORKER_MAX_MEMORY_PER_CHILD": str(REPORT_MAX_MEMORY_KIB), **os.environ}


def main() -> None:
    os.environ.setdefault("PBEM_ENV", "development")
    port = int(os.environ.get("PBEM_PORT", "5000"))
    os.environ.setdefault("PBEM_BASE_URL", f"http://{HOST}:{port}")
    from pbem.app import create_app
    from pbem.db import upgrade

    url = database_url()
    upgrade(url)  # create or migrate the schema first: a fresh clone needs no other step
    app = create_app()
    worker = None
    if app.config["PBEM_ADVANCE"] == "queue":
        from worker.dev import start_worker
        worker = start_worker(worker_environment())  # same database, same queue
    from pbem.mail.smtpd import controller
    smtpd, _ = controller(app)  # the inbound SMTP gateway, in a thread beside the web server
    smtpd.start()
    queue = app.config["REDIS_URL"] or f"files in {app.config['PBEM_QUEUE_DIR']}"
    print(f"pbem is running at http://{HOST}:{port}/  (database: {url}; "
          f"mail goes to http://{HOST}:{port}/dev/outbox, orders by mail to "
          f"smtp://{smtpd.hostname}:{smtpd.port}; games advance "
          f"{'in a worker (queue: ' + queue + ')' if worker else 'inline'}; Ctrl-C stops it)", flush=True)
    signal.signal(signal.SIGTERM, _terminate)  # stop the worker too when we are told to stop
    try:
        app.run(host=HOST, port=port, debug=False, use_reloader=False)
    finally:
        smtpd.stop()
        if worker is not None:
            from worker.dev import stop_worker
            stop_worker(worker)


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    main()
