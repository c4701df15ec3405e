"""The production Celery app with the bare advance task (bench/bare.py), for the worker in
bench/worker.py: `celery -A bench.bare_worker worker`.  Same configuration and queue."""
from typing import Any

from bench.bare import BARE_TASK, bare_advance
from pbem.extensions import db
from worker.celery_app import celery
from worker.tasks import advance_game  # noqa: F401 - the real tasks, registered as in production

app = celery


@celery.task(name=BARE_TASK)
def bare_task(game_id: int) -> Any:
    return bare_advance(db.session(), game_id)
