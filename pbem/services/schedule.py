"""Deadlines of the current decision: who owes what, and when it is due.

`schedule(session, game, now, state)` runs inside `advance()` (and after every change the
host or a vacation makes): when the game's decision changed it starts a new deadline,
otherwise it keeps the current one up to date.  A deadline is derived, never pushed
around by hand:

    deadline = decision_at + hours[kind] + extended_hours + deadline_delay, then stretched
               for owing seats on vacation (rule "stretch"), by at most MAX_STRETCH

Under a clock (pbem/services/clock.py) each owing seat has its own deadline, with the clock's
per_turn hours plus the seat's reserve in place of hours[kind], stretched for its own
vacations; the game's deadline is the earliest of them.

where `decision_at` is when the decision began, `extended_hours` the host's extensions of
this decision and `deadline_delay` the seconds added by pauses, outages and the "wait"
policy's re-arming; `hours[kind]` and the vacation rule are the game's deadline policy
(pbem/services/policy.py).  The tick (pbem/services/tick.py) acts on `games.deadline_at`.

"Owing" means: a person's seat the engine waits for, with no committed (pending) order.
A pending order counts as acted, whether or not anyone confirmed anything.

This module imports nothing that imports `advance`, so `advance` can call it.
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Collection, Iterable

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm import Session

from engine.core import GameState, decision_line
from pbem.models import Game, PendingOrder, Seat, Vacation
from pbem.services.clock import clock_now, reserve_of, settle
from pbem.services.policy import Clock, policy_of

# Reminders, in hours before the deadline; each only when the decision's whole window is
# at least twice as long (no "24 hours left" for a 24-hour turn: it would come at its start).
REMINDER_HOURS = (24, 2)
# A vacation stretches a deadline by at most this much (the longest vacation).
MAX_STRETCH = timedelta(days=14)


# ---- who owes the current decision ------------------------------------------------------------

def current_kind(state: GameState) -> str | None:
    decisions = state.decisions(options=False)
    return decisions[0].kind if decisions else None


def owing(session: Session, game: Game, state: GameState, acted: Collection[str] | None = None) -> list[Seat]:
    """People's seats the game waits for that have not acted (no pending order), and that no
    bot plays for (a bot seat or a stand-in decides at once).  `acted`: the seats with
    pending orders, when the caller has them (else they are read)."""
    if state.is_over():
        return []
    waiting = {d.seat for d in state.decisions(options=False)}
    if acted is None:
        acted = set(session.scalars(select(PendingOrder.seat).where(PendingOrder.game_id == game.id)))
    return [seat for seat in game.seats
            if seat.name in waiting and seat.name not in acted and seat.bot is None
            and seat.stand_in is None and seat.user_id is not None]


# ---- deadlines ---------------------------------------------------------------------------------

def known_home(seats: Iterable[Seat], after: datetime) -> bool:
    """Whether these seats' people are known to have no vacation ending after `after`: their
    last vacation's end was read with them (`User.vacations_end`, as the advance reads a game's
    people) and none ends later.  False when unknown: then the vacations are asked for."""
    for seat in seats:
        if seat.user_id is None:
            continue
        if "user" in inspect(seat).unloaded or seat.user is None or "vacations_end" in inspect(seat.user).unloaded:
            return False
        if seat.user.vacations_end is not None and seat.user.vacations_end > after:
            return False
    return True


def vacations_of(session: Session, user_ids: Iterable[int], after: datetime) -> dict[int, list[Vacation]]:
    """Vacations of these people that end after `after`, by person, in order of start."""
    ids = list(set(user_ids))
    found: dict[int, list[Vacation]] = {user_id: [] for user_id in ids}
    if ids:
        for row in session.scalars(_VACATIONS, {"ids": ids, "after": after}):
            found[row.user_id].append(row)
    return found


# Built once: every advance asks (bound values, not a new statement each time).
_VACATIONS = select(Vacation).where(Vacation.user_id.in_(bindparam("ids", expanding=True)),
                                    Vacation.ends_at > bindparam("after")).order_by(Vacation.starts_at)


def compute_deadline(session: Session, game: Game, state: GameState,
                     seats: list[Seat] | None = None) -> datetime | None:
    """The current decision's deadline (None: this kind has none, or nobody owes it); under a
    clock, the earliest of the owing seats' own deadlines."""
    deadlines = seat_deadlines(session, game, state, owing(session, game, state) if seats is None else seats)
    return min(deadlines.values(), default=None)


def seat_deadlines(session: Session, game: Game, state: GameState, seats: list[Seat]) -> dict[str, datetime]:
    """Each owing seat's deadline: the game's one, or under a clock the seat's own (its reserve
    added to the window, stretched for its own vacations).  Empty: this kind has no deadline."""
    window = _window(game, state)
    if window is None or not seats:
        return {}
    clock = policy_of(game).clock
    if clock is None:
        deadline = _stretched(session, game, seats, window)
        return {seat.name: deadline for seat in seats if seat.name}
    return {seat.name: _stretched(session, game, [seat], window + timedelta(seconds=reserve_of(seat, clock)))
            for seat in seats if seat.name}


def _window(game: Game, state: GameState) -> timedelta | None:
    """The current decision's window before vacations: the kind's hours, or under a clock its
    free hours (each seat adds its reserve); None: this kind has no deadline."""
    if game.decision_at is None:
        return None
    policy = policy_of(game)
    kind = current_kind(state)
    hours = policy.hours_for(kind) if kind else None
    if hours is None:
        return None
    return timedelta(hours=hours if policy.clock is None else policy.clock.per_turn)


def _stretched(session: Session, game: Game, seats: list[Seat], window: timedelta) -> datetime:
    """decision_at + window + extensions + delays, stretched for these seats' vacations."""
    assert game.decision_at is not None
    base = (game.decision_at + window + timedelta(hours=game.extended_hours or 0)
            + timedelta(seconds=game.deadline_delay or 0))
    if policy_of(game).vacation != "stretch":
        return base
    deadline = base
    if known_home(seats, game.decision_at):
        return base  # nobody's vacation ends after the decision began: none can stretch it
    away = vacations_of(session, (seat.user_id for seat in seats if seat.user_id), game.decision_at)
    for vacation in sorted((v for rows in away.values() for v in rows), key=lambda v: v.starts_at):
        if vacation.starts_at < deadline:  # away during the (stretched) window
            deadline = max(deadline, vacation.ends_at + window)
    return min(deadline, base + MAX_STRETCH)


def passed_reminder(deadline: datetime, decision_at: datetime, now: datetime) -> int | None:
    """The smallest reminder (hours before `deadline`) whose time has come by `now`."""
    due = [hours for hours in REMINDER_HOURS
           if deadline - decision_at >= timedelta(hours=2 * hours) and now >= deadline - timedelta(hours=hours)]
    return min(due) if due else None


def schedule(session: Session, game: Game, now: datetime, state: GameState | None = None, *,
             acted: Collection[str] | None = None) -> bool:
    """Start the deadline of a new decision, or bring the current one up to date.  Returns
    whether anything changed.  The caller holds the game's lock and commits.  `acted`: the
    seats with pending orders, if the caller has them (`owing`)."""
    before = (game.deadline_at, game.decision_seq)
    if game.status != Game.ACTIVE or state is None or state.is_over():
        game.deadline_at = None
        return before != (game.deadline_at, game.decision_seq)
    seq = decision_line(state)  # orders riding with the decision owed (secret) start no new one
    clock = policy_of(game).clock
    if game.decision_seq != seq:  # a new decision
        if clock is not None:
            settle(session, game, clock, now)  # the decision that ended takes its time from the reserves
        game.decision_seq, game.decision_at = seq, now
        if (game.extended_hours, game.deadline_delay, game.reminded) != (0, 0, None):  # only a change: no flush
            game.extended_hours, game.deadline_delay, game.reminded = 0, 0, None
        for seat in game.seats:  # a queue hold lasts for the decision it was set in
            if seat.queue_held_seq is not None and seat.queue_held_seq != seq:
                seat.queue_held_seq = None
    seats = owing(session, game, state, acted)
    deadlines = seat_deadlines(session, game, state, seats)
    if clock is not None:
        _keep_clocks(game, clock, seats, deadlines, now)
    deadline = min(deadlines.values(), default=None)
    if deadline != game.deadline_at:
        game.deadline_at = deadline
        reminded = _reminded(game, deadline, game.reminded, now)
        if reminded != game.reminded:
            game.reminded = reminded
    return before != (game.deadline_at, game.decision_seq)


def _reminded(game: Game, deadline: datetime | None, reminded: int | None, now: datetime) -> int | None:
    """Reminders whose time has passed already count as given: a new or moved deadline is
    announced by whatever moved it, not by a burst of reminders."""
    if deadline is None or game.decision_at is None:
        return reminded
    passed = passed_reminder(deadline, game.decision_at, now)
    return passed if passed is not None and (reminded is None or passed < reminded) else reminded


def _keep_clocks(game: Game, clock: Clock, seats: list[Seat], deadlines: dict[str, datetime], now: datetime) -> None:
    """Start the clock of each seat that owes the decision, keep its own deadline, and note when
    a seat acts (its charge counts from then; withdrawing its orders runs its clock again)."""
    if not deadlines:  # no deadline for this kind: no clock runs
        return
    owes = {seat.name for seat in seats}
    for seat in game.seats:
        if seat.name in owes:
            if seat.clock_seq != game.decision_seq:
                seat.clock_seq, seat.reserve_seconds, seat.reminded = game.decision_seq, reserve_of(seat, clock), None
            seat.clock_acted_at = None
            if deadlines[seat.name] != seat.deadline_at:
                seat.deadline_at = deadlines[seat.name]
                seat.reminded = _reminded(game, seat.deadline_at, seat.reminded, now)
        elif seat.clock_seq == game.decision_seq and seat.clock_acted_at is None:
            seat.clock_acted_at = clock_now(game, now)


def due_of(game: Game, seat: Seat) -> datetime | None:
    """When the seat's current decision is due: its own deadline under a clock, else the game's."""
    return seat.deadline_at if seat.deadline_at is not None else game.deadline_at


def whole_seconds(span: timedelta) -> int:
    """Whole seconds, rounded up, for `deadline_delay`: a delay never ends early."""
    return math.ceil(span.total_seconds())
