"""A worker beside the development server (`make run`).

`start_worker()` starts `celery -A worker.celery_app worker --beat` as a child process with
the same environment as the web process (so the same DATABASE_URL, and REDIS_URL if set;
without it the embedded file transport under instance/celery/), and `stop_worker(proc)`
stops it (warm shutdown: the task in hand finishes).  The web process calls both; see
pbem/devserver.py.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Mapping

STOP_SECONDS = 15


def worker_command(concurrency: int = 2, beat: bool = True, name: str = "dev") -> list[str]:
    command = [sys.executable, "-m", "celery", "-A", "worker.celery_app", "worker",
               "--loglevel", "INFO", "--concurrency", str(concurrency), "--hostname", f"{name}@%h",
               "--without-gossip", "--without-mingle"]
    if beat:
        command.append("--beat")  # one process for both: fine on one machine, never in production
    return command


def start_worker(env: Mapping[str, str] | None = None, *, concurrency: int = 2, beat: bool = True,
                 stdout: int | None = None) -> subprocess.Popen[bytes]:
    environment = dict(os.environ if env is None else env)
    environment.setdefault("PBEM_ENV", "development")
    return subprocess.Popen(worker_command(concurrency, beat), env=environment, stdout=stdout,
                            stderr=subprocess.STDOUT if stdout is not None else None)


def stop_worker(process: subprocess.Popen[bytes], timeout: float = STOP_SECONDS) -> int | None:
    """Ask for a warm shutdown; kill the worker if it does not stop within `timeout`."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    return process.returncode
