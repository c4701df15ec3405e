"""The leagues' tasks (pbem/leagues/rounds.py; docs/leagues.md, "Running a league"): thin,
each calls one command of the league services, and each is safe to run twice.

- `pbem.league_check(round_id)`: sent when a game of a league round ends (after the advance
  that ended it commits): the round ends if every game of it has, and the next one starts.
- `pbem.league_tick`: beat, every tick: rounds past their hard date, and whatever a lost
  message missed.  Under a lock, so two never run at once.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy.exc import OperationalError

from pbem.extensions import db
from pbem.leagues import rounds
from pbem.services.dispatch import LEAGUE_CHECK_TASK, LEAGUE_TICK_TASK
from pbem.services.errors import StaleGame
from worker.celery_app import celery, flask_app
from worker.locks import single_flight

TICK_LOCK_SECONDS = 180


@celery.task(name=LEAGUE_CHECK_TASK, autoretry_for=(OperationalError, StaleGame), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def league_check(round_id: int) -> dict[str, Any]:
    ended = rounds.check_round(db.session(), round_id, datetime.now(timezone.utc))
    return {"round": round_id, "ended": ended}


@celery.task(name=LEAGUE_TICK_TASK)
def league_tick() -> dict[str, Any]:
    with single_flight(flask_app.config, "league-tick", TICK_LOCK_SECONDS) as mine:
        if not mine:
            return {"skipped": "another league tick is running"}
        return rounds.tick(db.session(), datetime.now(timezone.utc))
