"""What a game page or API answer shows of a game's deadlines: the current deadline, who owes
it, each seat's clock (reserve and own deadline), pauses, vacations, extensions, seats open for
takeover, the event log and the policy.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, GameEvent, Seat, User
from pbem.services import kinds
from pbem.services.host import EXTENSION_HOURS_PER_DECISION, EXTENSION_HOURS_PER_GAME, EXTENSIONS_PER_DECISION, \
    extensions, pause_left
from pbem.services.clock import reserve_of
from pbem.services.policy import Clock, policy_of
from pbem.services.schedule import current_kind, owing
from pbem.services.state import game_state
from pbem.services.vacations import away_until
from pbem.timezones import iso_utc, when

@dataclass
class DeadlineInfo:
    game: Game
    deadline_at: datetime | None
    kind: str | None
    paused_at: datetime | None
    pause_left: timedelta
    owing: list[Seat]
    away: dict[str, datetime]  # seat -> end of its person's current vacation
    extensions: int  # of the current decision
    extension_hours: int  # of the current decision
    game_extension_hours: int
    offered: list[Seat]  # seats open for takeover
    log: list[GameEvent]
    policy: Any
    is_host: bool
    clocks: dict[str, tuple[int, datetime | None]]  # under a clock: seat -> (reserve seconds, its own deadline)

    @property
    def kind_name(self) -> str:
        return kinds.noun(self.game.kind, self.kind)

    @property
    def extension_hours_left(self) -> int:
        if self.extensions >= EXTENSIONS_PER_DECISION:
            return 0
        return max(0, min(EXTENSION_HOURS_PER_DECISION - self.extension_hours,
                          EXTENSION_HOURS_PER_GAME - self.game_extension_hours))


def deadline_info(session: Session, game: Game, user: User | None, now: datetime) -> DeadlineInfo:
    state = game_state(session, game) if game.status in (Game.ACTIVE, Game.FINISHED) else None
    running = state is not None and game.status == Game.ACTIVE
    count, used, total = extensions(session, game) if running else (0, 0, 0)
    events = list(session.scalars(select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.id)))
    away = away_until(session, [s.user_id for s in game.seats if s.user_id], now)
    policy = policy_of(game)
    owing_seats = owing(session, game, state) if running and state is not None else []
    return DeadlineInfo(
        game=game, deadline_at=game.deadline_at if running else None,
        kind=current_kind(state) if running and state is not None else None,
        paused_at=game.paused_at, pause_left=pause_left(game, now),
        owing=owing_seats,
        away={s.name: away[s.user_id] for s in game.seats if s.name and s.user_id in away},
        extensions=count, extension_hours=used, game_extension_hours=total,
        offered=[s for s in game.seats if s.replacement_offered_at is not None] if running else [],
        log=events, policy=policy, is_host=user is not None and user.id == game.created_by,
        clocks=_clocks(game, policy.clock, owing_seats))


def _clocks(game: Game, clock: Clock | None, owing_seats: list[Seat]) -> dict[str, tuple[int, datetime | None]]:
    """Each person's seat's reserve, and its own deadline while it owes the decision."""
    if clock is None:
        return {}
    owes = {seat.name for seat in owing_seats}
    return {seat.name: (reserve_of(seat, clock), seat.deadline_at if seat.name in owes else None)
            for seat in game.seats if seat.name and seat.bot is None}


def deadline_json(info: DeadlineInfo, reader: User | None) -> dict[str, Any]:
    """The API's answer: times as ISO UTC plus the reader's local rendering."""
    def moment(value: datetime | None) -> dict[str, Any] | None:
        return None if value is None else {"utc": iso_utc(value), "local": when(value, reader)}
    policy = info.policy
    return {
        "deadline": moment(info.deadline_at), "kind": info.kind,
        "time_zone": reader.time_zone if reader is not None else "UTC",
        "paused": moment(info.paused_at),
        "pause_left_hours": round(info.pause_left.total_seconds() / 3600, 1),
        "owing": [s.name for s in info.owing],
        "away": {seat: moment(end) for seat, end in info.away.items()},
        "extensions": {"this_decision": info.extensions, "hours_this_decision": info.extension_hours,
                       "hours_this_game": info.game_extension_hours, "hours_left": info.extension_hours_left},
        "takeover": [s.name for s in info.offered],
        "missed": {s.name: {"in_row": s.missed_in_row, "total": s.missed_total}
                   for s in info.game.seats if s.name},
        "policy": {"hours": policy.hours, "on_missed": policy.on_missed, "default": policy.default,
                   "replace_after": policy.replace_after, "abandoned": policy.abandoned,
                   "vacation": policy.vacation, "clock": asdict(policy.clock) if policy.clock else None},
        "clocks": {seat: {"reserve_hours": round(reserve / 3600, 2), "deadline": moment(due)}
                   for seat, (reserve, due) in info.clocks.items()},
        # "kind": the old name of "type", answered one release more (docs/api.md).
        "log": [{"at": moment(e.at), "type": e.type, "kind": e.type, "seat": e.seat, "text": e.text} for e in info.log],
    }
