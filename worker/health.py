"""Health checks for containers: `python -m worker.health worker|beat`.

- `worker`: a running worker on this host answers a ping through the broker (remote
  control, so it works while every pool process is busy with tasks).
- `beat`: the tick ran within the last few periods (the tick task records a heartbeat; a
  beat that stopped scheduling, or no worker taking the ticks, both show here).

Exit status 0 when healthy, 1 otherwise, with one line saying why.
"""
from __future__ import annotations

import socket
import sys
from datetime import datetime, timezone

from pbem.services.dispatch import TICK_SECONDS

TICK_PERIODS = 4


def check_worker() -> tuple[bool, str]:
    from worker.celery_app import celery
    name = f"celery@{socket.gethostname()}"
    replies = celery.control.ping(destination=[name], timeout=5.0) or []
    return bool(replies), f"{name}: {'pong' if replies else 'no answer'}"


def check_beat() -> tuple[bool, str]:
    from worker.celery_app import flask_app
    from worker.locks import last_heartbeat
    last = last_heartbeat(flask_app.config, "tick")
    if last is None:
        return False, "the tick never ran"
    period = float(flask_app.config.get("PBEM_TICK_SECONDS") or TICK_SECONDS)
    age = (datetime.now(timezone.utc) - last).total_seconds()
    return age < TICK_PERIODS * period, f"last tick {age:.0f} s ago"


def main(argv: list[str]) -> int:
    what = argv[1] if len(argv) > 1 else "worker"
    checks = {"worker": check_worker, "beat": check_beat}
    if what not in checks:
        print(f"usage: python -m worker.health {'|'.join(checks)}")
        return 2
    healthy, message = checks[what]()
    print(message)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
