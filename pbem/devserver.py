"""`make run` / `pbem run`: the whole service on embedded defaults, for development.

A SQLite file under instance/ (DATABASE_URL to change it), no Redis, mail kept in the
outbox (listed at /dev/outbox) instead of being sent, and the inbound SMTP gateway on
127.0.0.1:2525 (PBEM_SMTPD_PORT) for orders by mail.  Games advance in a Celery worker
started beside the web server (worker/dev.py; with beat inside it for the 30-second tick),
on an embedded file transport under instance/celery/ unless REDIS_URL is set.
PBEM_ADVANCE=inline runs without any worker (the request advances the game).

Ctrl-C (SIGINT, to the whole foreground group) and SIGTERM (`kill`, or make passing on its
own SIGTERM) are the ordinary way to stop it: the web server, the gateway and the worker
(with its pool and beat) stop, every process it started is waited for, and it exits 0, so
`make run` reports no error.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from typing import Any, Callable

from pbem.config import database_url

HOST = "127.0.0.1"
# The development worker renders report mails too: a pool process whose resident memory grew
# past this many KiB is replaced once its task is done (production: the reports worker's
# --max-memory-per-child in docker-compose.yml).
REPORT_MAX_MEMORY_KIB = 512_000
# How long the processes the worker leaves behind (its beat, a pool process) may take to end
# once the worker has stopped, before they are killed.
LEFTOVER_SECONDS = 10.0
_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def worker_environment() -> dict[str, str]:
    """The web process's environment, plus the worker's memory backstop (Celery reads
    CELERY_WORKER_<OPTION> as its command-line option; one already set is kept)."""
    return {"CELERY_WORKER_MAX_MEMORY_PER_CHILD": str(REPORT_MAX_MEMORY_KIB), **os.environ}


def main() -> None:
    adopt_orphans()
    signal.signal(signal.SIGTERM, _stop)  # stop as on Ctrl-C: the web server returns, we clean up
    try:
        serve()
    except KeyboardInterrupt:  # Ctrl-C before the web server was up: nothing more to stop
        pass
    finally:
        _ignore_stops()  # a second Ctrl-C must not cut the clean-up short
        reap_leftovers(LEFTOVER_SECONDS)


def serve() -> None:
    os.environ.setdefault("PBEM_ENV", "development")
    port = int(os.environ.get("PBEM_PORT", "5000"))
    os.environ.setdefault("PBEM_BASE_URL", f"http://{HOST}:{port}")
    from pbem.app import create_app
    from pbem.db import upgrade

    url = database_url()
    upgrade(url)  # create or migrate the schema first: a fresh clone needs no other step
    app = create_app()
    stops: list[Callable[[], Any]] = []
    try:
        if app.config["PBEM_ADVANCE"] == "queue":
            from worker.dev import start_worker, stop_worker
            worker = start_worker(worker_environment())  # same database, same queue
            stops.append(lambda: stop_worker(worker))
        from pbem.mail.smtpd import controller
        smtpd, _ = controller(app)  # the inbound SMTP gateway, in a thread beside the web server
        smtpd.start()
        stops.append(smtpd.stop)
        queue = app.config["REDIS_URL"] or f"files in {app.config['PBEM_QUEUE_DIR']}"
        print(f"pbem is running at http://{HOST}:{port}/  (database: {url}; "
              f"mail goes to http://{HOST}:{port}/dev/outbox, orders by mail to "
              f"smtp://{smtpd.hostname}:{smtpd.port}; games advance "
              f"{'in a worker (queue: ' + queue + ')' if len(stops) == 2 else 'inline'}; Ctrl-C stops it)",
              flush=True)
        app.run(host=HOST, port=port, debug=False, use_reloader=False)  # returns on Ctrl-C
    finally:
        _ignore_stops()
        for stop in reversed(stops):
            stop()


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # the web server takes it as Ctrl-C and returns


def _ignore_stops() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def adopt_orphans() -> None:
    """On Linux, become the parent of every process our children leave behind (Celery's
    worker may exit before its beat process has), so that we can wait for them: nothing of
    `make run` outlives it, not even a zombie where no init reaps them (a container)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_leftovers(seconds: float) -> None:
    """Wait for every child still running (or adopted); kill those still there after
    `seconds`, and wait a little more for them to go."""
    deadline, killed = time.monotonic() + seconds, False
    while _reap_one():
        if time.monotonic() > deadline:
            if killed:
                return
            for pid in _children():
                _kill(pid)
            deadline, killed = time.monotonic() + 5, True
        time.sleep(0.05)


def _reap_one() -> bool:
    """Collect the children that have ended; False once no child is left."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        return False
    return True


def _children() -> list[int]:
    """Our living children's process ids (Linux's /proc; elsewhere none are known)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid():
            found.append(int(entry))
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    main()
