"""How the service is doing, for the health endpoint and the operators' page
(docs/operations.md): the database answers, the deadline tick ran to its end lately (a tick
that starts but breaks off does not count), and no game keeps failing in the tick.

A game the tick fails on is retried on every tick (pbem/services/tick.py keeps the run
in `tick_failures`); after FAILING_TICKS failures in a row it is shown as failing here, so an
operator hears of it from the health check, not only from a log line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from pbem.models import Game, TickFailure, TickState

FAILING_TICKS = 3  # failures in a row before a game counts as failing (one can be bad luck)
TICK_PERIODS = 4  # a tick older than this many periods means beat or the workers stopped


@dataclass(frozen=True)
class FailingGame:
    game_id: int
    title: str
    since: datetime
    last: datetime
    ticks: int  # failed ticks in a row
    error: str  # for operators only: never on the public health answer


@dataclass
class Health:
    database: bool
    last_tick_at: datetime | None = None  # the last tick that ran to its end
    tick_late: bool = False
    tick_error: str | None = None  # why the last tick broke off (operators only)
    failing: list[FailingGame] = field(default_factory=list)

    @property
    def status(self) -> str:
        if not self.database:
            return "down"
        return "degraded" if self.tick_late or self.tick_error or self.failing else "ok"

    def public(self) -> dict[str, object]:
        """What anyone may read (no titles, no errors: they can name people or positions)."""
        return {"status": self.status, "database": "ok" if self.database else "unreachable",
                "last_tick_at": self.last_tick_at.isoformat() if self.last_tick_at else None,
                "tick_late": self.tick_late, "tick_broke_off": self.tick_error is not None,
                "failing_games": [{"game": f.game_id, "since": f.since.isoformat(), "ticks": f.ticks}
                                  for f in self.failing]}


def check(session: Session, now: datetime, tick_seconds: float) -> Health:
    try:
        tick = session.execute(select(TickState.finished_at, TickState.error).where(TickState.id == 1)).first()
        rows = session.execute(select(TickFailure, Game.title).join(Game, Game.id == TickFailure.game_id)
                               .where(TickFailure.count >= FAILING_TICKS).order_by(TickFailure.game_id)).all()
    except SQLAlchemyError:
        session.rollback()
        return Health(database=False)
    session.rollback()
    failing = [FailingGame(row.game_id, title, row.first_at, row.last_at, row.count, row.error)
               for row, title in rows]
    last, error = tick if tick is not None else (None, None)
    late = last is None or (now - last).total_seconds() > TICK_PERIODS * tick_seconds
    return Health(database=True, last_tick_at=last, tick_late=late, tick_error=error, failing=failing)
