"""Clocks: each seat's reserve of time under a game's clock (docs/deadlines.md, "Clocks").

A clock is Fischer time as correspondence servers run it (OGS's "3 days + 1 day up to 1
week"): a seat's reserve starts at the clock's initial hours; a decision of the seat is due
`per_turn` hours plus its reserve after the decision began (plus extensions, pauses and
outage delays, stretched for its own vacation); when the decision ends the seat keeps what it
did not use of its reserve, plus the increment, up to the maximum.  The free parts of a
window (per_turn, extensions, delays, a vacation's stretch) are used before the reserve.

Per seat (pbem.models.Seat): `reserve_seconds` is the reserve at the start of its current
decision (None: its clock has not begun, so the initial); `clock_seq` the decision its clock
runs in; `clock_acted_at` when it acted there (None while it owes); `deadline_at` its own
deadline, kept once it acted so the charge uses it.  `pbem.services.schedule` starts the
clocks and keeps the deadlines; `settle` ends a decision's clocks.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, GameEvent, Seat
from pbem.services.policy import Clock

HOUR = 3600
MISSES = ("default", "missed")  # the game's log says a seat missed a deadline (pbem/services/tick.py)


def reserve_of(seat: Seat, clock: Clock) -> int:
    """The seat's reserve in seconds at the start of its current (or next) decision."""
    return seat.reserve_seconds if seat.reserve_seconds is not None else clock.initial * HOUR


def clock_now(game: Game, now: datetime) -> datetime:
    """The time on the game's clocks: a paused game's clocks stand where the pause stopped them
    (or at the start of a decision begun during the pause), since resuming gives that time back."""
    if game.paused_at is None:
        return now
    stopped = max(game.paused_at, game.decision_at) if game.decision_at is not None else game.paused_at
    return min(now, stopped)


def settle(session: Session, game: Game, clock: Clock, now: datetime) -> None:
    """The game's current decision (`game.decision_seq`) ends: every seat whose clock ran in it
    keeps what is left of its reserve plus the increment, capped at the maximum.  A seat that
    missed it has nothing left (it starts its next decision with one increment)."""
    missed = set(session.scalars(select(GameEvent.seat).where(
        GameEvent.game_id == game.id, GameEvent.decision_seq == game.decision_seq, GameEvent.type.in_(MISSES))))
    for seat in game.seats:
        if seat.clock_seq is None:
            continue
        if seat.deadline_at is not None:
            acted = seat.clock_acted_at or clock_now(game, now)
            left = 0 if seat.name in missed else int((seat.deadline_at - acted).total_seconds())
            kept = max(0, min(reserve_of(seat, clock), left))
            seat.reserve_seconds = min(clock.maximum * HOUR, kept + clock.increment * HOUR)
        seat.clock_seq = seat.clock_acted_at = seat.deadline_at = seat.reminded = None


def hours_text(seconds: int) -> str:
    """A reserve as people read it: "30 hours", "2.5 hours", "3 days 4 hours"."""
    hours = seconds / HOUR
    if hours < 10:
        return f"{hours:.1f} hours".replace(".0 hours", " hours")
    days, rest = divmod(round(hours), 24)
    if days < 2:
        return f"{round(hours)} hours"
    return f"{days} days" + (f" {rest} hours" if rest else "")


def clock_text(seat: Seat, clock: Clock) -> str:
    """One sentence for a seat's mails: its reserve and how the clock fills it."""
    free = f"{clock.per_turn} hours of each decision are free; " if clock.per_turn else ""
    return (f"Your clock: {hours_text(reserve_of(seat, clock))} in reserve; "
            f"{free}each decision adds {clock.increment} hours, up to {clock.maximum} hours.")
