"""Deadlines of the current decision: the policy, who owes what, and when it is due.

`schedule(session, game, now, state)` runs inside `advance()` (and after every change the
host or a vacation makes): when the game's decision changed it starts a new deadline,
otherwise it keeps the current one up to date.  A deadline is derived, never pushed
around by hand:

    deadline = decision_at + hours[kind] + extended_hours + deadline_delay, then stretched
               for owing seats on vacation (rule "stretch"), by at most MAX_STRETCH

where `decision_at` is when the decision began, `extended_hours` the host's extensions of
this decision and `deadline_delay` the seconds added by pauses, outages and the "wait"
policy's re-arming.  The tick (pbem/services/deadlines.py) acts on `games.deadline_at`.

"Owing" means: a person's seat the engine waits for, with no committed (pending) order.
A pending order counts as acted, whether or not anyone confirmed anything.

This module imports nothing that imports `advance`, so `advance` can call it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import GameState
from pbem.mail.delivery import PREFERENCES
from pbem.mail.outbox import send_mail
from pbem.models import ORDER_MAX, Game, GameEvent, PendingOrder, Seat, User, Vacation
from pbem.services.errors import Invalid
from pbem.services.locking import lock_game
from pbem.timezones import zone

# ---- policy ---------------------------------------------------------------------------------

DEFAULT_BOTS = ("heuristic", "minimal")  # what plays a missed decision (on_missed "bot")
VACATION_RULES = ("stretch", "bot")
REPLACE_AFTER = 3  # missed deadlines in a row before the seat is offered to a replacement
REPLACE_AFTER_RANGE = (1, 10)
POLICY_DEFAULTS: dict[str, Any] = {"default": "heuristic", "replace_after": REPLACE_AFTER,
                                   "abandoned": "heuristic", "vacation": "stretch"}

# Reminders, in hours before the deadline; each only when the decision's whole window is
# at least twice as long (no "24 hours left" for a 24-hour turn: it would come at its start).
REMINDER_HOURS = (24, 2)
# A vacation stretches a deadline by at most this much (the longest vacation).
MAX_STRETCH = timedelta(days=14)


@dataclass(frozen=True)
class Policy:
    hours: dict[str, int | None]
    on_missed: str  # "bot": the default plays a missed decision; "wait": remind and re-arm
    default: str  # which bot plays a missed decision: "heuristic" or "minimal"
    replace_after: int
    abandoned: str  # which bot plays a seat offered to a replacement until someone takes it
    vacation: str  # "stretch": deadlines wait for the vacation's end; "bot": the default plays

    def hours_for(self, kind: str) -> int | None:
        return self.hours.get(kind)


def policy_of(game: Game) -> Policy:
    """The game's deadline policy with the defaults filled in (games keep what was given)."""
    return policy_from(game.deadline_policy)


def policy_from(stored: dict[str, Any] | None) -> Policy:
    stored = {**POLICY_DEFAULTS, **(stored or {})}
    return Policy(hours=dict(stored.get("hours") or {}), on_missed=stored.get("on_missed", "bot"),
                  default=stored["default"], replace_after=int(stored["replace_after"]),
                  abandoned=stored["abandoned"], vacation=stored["vacation"])


def check_policy_extras(data: dict[str, Any]) -> dict[str, Any]:
    """Validate (and take out of `data`) the settings beyond hours and on_missed."""
    out: dict[str, Any] = {}
    for key, allowed in (("default", DEFAULT_BOTS), ("abandoned", DEFAULT_BOTS),
                         ("vacation", VACATION_RULES)):
        if key in data:
            value = data.pop(key)
            if value not in allowed:
                raise Invalid(f"{key} must be one of {', '.join(allowed)}")
            out[key] = value
    if "replace_after" in data:
        value = data.pop("replace_after")
        low, high = REPLACE_AFTER_RANGE
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid(f"replace_after must be {low} to {high} missed deadlines in a row")
        out["replace_after"] = value
    return out


# ---- who owes the current decision ------------------------------------------------------------

def current_kind(state: GameState) -> str | None:
    decisions = state.decisions(options=False)
    return decisions[0].kind if decisions else None


def owing(session: Session, game: Game, state: GameState) -> list[Seat]:
    """People's seats the game waits for that have not acted (no pending order), and that no
    bot plays for (a bot seat or a stand-in decides at once)."""
    if state.is_over():
        return []
    waiting = {d.seat for d in state.decisions(options=False)}
    acted = set(session.scalars(select(PendingOrder.seat).where(PendingOrder.game_id == game.id)))
    return [seat for seat in game.seats
            if seat.name in waiting and seat.name not in acted and seat.bot is None
            and seat.stand_in is None and seat.user_id is not None]


# ---- deadlines ---------------------------------------------------------------------------------

def vacations_of(session: Session, user_ids: Iterable[int], after: datetime) -> dict[int, list[Vacation]]:
    """Vacations of these people that end after `after`, by person, in order of start."""
    ids = list(set(user_ids))
    found: dict[int, list[Vacation]] = {user_id: [] for user_id in ids}
    if ids:
        for row in session.scalars(select(Vacation).where(Vacation.user_id.in_(ids), Vacation.ends_at > after)
                                   .order_by(Vacation.starts_at)):
            found[row.user_id].append(row)
    return found


def compute_deadline(session: Session, game: Game, state: GameState,
                     seats: list[Seat] | None = None) -> datetime | None:
    """The current decision's deadline (None: this kind has none, or nobody owes it)."""
    if game.decision_at is None:
        return None
    policy = policy_of(game)
    kind = current_kind(state)
    hours = policy.hours_for(kind) if kind else None
    seats = owing(session, game, state) if seats is None else seats
    if hours is None or not seats:
        return None
    window = timedelta(hours=hours)
    base = (game.decision_at + window + timedelta(hours=game.extended_hours or 0)
            + timedelta(seconds=game.deadline_delay or 0))
    if policy.vacation != "stretch":
        return base
    deadline = base
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


def schedule(session: Session, game: Game, now: datetime, state: GameState | None = None) -> bool:
    """Start the deadline of a new decision, or bring the current one up to date.  Returns
    whether anything changed.  The caller holds the game's lock and commits."""
    before = (game.deadline_at, game.decision_seq)
    if game.status != Game.ACTIVE or state is None or state.is_over():
        game.deadline_at = None
        return before != (game.deadline_at, game.decision_seq)
    seq = len(state.order_log())
    if game.decision_seq != seq:  # a new decision
        game.decision_seq, game.decision_at = seq, now
        game.extended_hours, game.deadline_delay, game.reminded = 0, 0, None
        for seat in game.seats:  # a queue hold lasts for the decision it was set in
            if seat.queue_held_seq is not None and seat.queue_held_seq != seq:
                seat.queue_held_seq = None
    deadline = compute_deadline(session, game, state)
    if deadline != game.deadline_at:
        game.deadline_at = deadline
        if deadline is not None and game.decision_at is not None:
            # Reminders whose time has passed already count as given: a new or moved
            # deadline is announced by whatever moved it, not by a burst of reminders.
            passed = passed_reminder(deadline, game.decision_at, now)
            if passed is not None and (game.reminded is None or passed < game.reminded):
                game.reminded = passed
    return before != (game.deadline_at, game.decision_seq)


# ---- small shared pieces --------------------------------------------------------------------------

def claim_game(session: Session, game_id: int) -> Game | None:
    """The game locked for this transaction, or None if another transaction holds it
    (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite has one write lock, taken by waiting)."""
    if session.get_bind().dialect.name == "sqlite":
        return lock_game(session, game_id)
    return session.scalar(select(Game).where(Game.id == game_id).with_for_update(skip_locked=True)
                          .execution_options(populate_existing=True))


def seat_acted(seat: Seat) -> None:
    """The seat's person gave an order of their own: the run of missed deadlines ends, and a
    seat offered to a replacement is theirs again."""
    seat.missed_in_row = 0
    if seat.stand_in_reason == "abandoned":
        seat.stand_in = seat.stand_in_reason = None
        seat.replacement_offered_at = None


def log_event(session: Session, game: Game, kind: str, text: str, at: datetime, *,
              seat: str | None = None, user_id: int | None = None, hours: int | None = None) -> GameEvent:
    event = GameEvent(game_id=game.id, at=at, kind=kind, seat=seat, user_id=user_id, hours=hours,
                      decision_seq=game.decision_seq, text=text[:ORDER_MAX])
    session.add(event)
    return event


def zone_of(user: User | None) -> ZoneInfo:
    return zone(user.time_zone if user is not None else None)


def when(moment: datetime | None, user: User | None) -> str:
    """A time for a reader: in their time zone, with the zone named ("Tue 3 Dec 2026 18:00 CET")."""
    if moment is None:
        return "no deadline"
    local = moment.astimezone(zone_of(user))
    return f"{local:%a} {local.day} {local:%b %Y %H:%M} {local.tzname() or ''}".rstrip()


def iso_utc(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def mail_user(session: Session, user: User | None, subject: str, body: str, *, kind: str,
              key: str | None = None, reply_to: str | None = None) -> bool:
    """Queue a mail to a person's primary address, unless they turned this kind of mail off
    (the preference its List-Unsubscribe link sets).  Mails about a game and a seat go through
    `notify.mail_seat`, which adds the idempotency key and the seat's reply address."""
    address = user.primary_address if user is not None else None
    if not address or not wants(user, kind):
        return False
    send_mail(session, address, subject, body, kind=kind, key=key, reply_to=reply_to)
    return True


def wants(user: User, kind: str) -> bool:
    preference = PREFERENCES.get(kind)
    return preference is None or getattr(user, preference) not in (False, "off")
