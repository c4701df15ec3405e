"""What the benchmarks that start servers share: a free port, a Celery worker's command line
(as docker-compose.yml runs one, without the cluster chatter a lone worker has no use for),
and stopping what they started."""
from __future__ import annotations

import socket
import subprocess
import sys

from pbem.tasks import QUEUE


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def celery_worker(app: str, concurrency: int, *, queue: str = QUEUE, hostname: str | None = None) -> list[str]:
    """The command that runs a Celery worker of `app` on `queue`."""
    return [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "--loglevel", "WARNING",
            "--concurrency", str(concurrency), *(["--hostname", hostname] if hostname else []),
            "--without-gossip", "--without-mingle", "--without-heartbeat"]


def stop(processes: list[subprocess.Popen[bytes]], seconds: float = 15) -> None:
    """Terminate the processes, then kill those still running after `seconds`."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
