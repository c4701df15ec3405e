"""Vacations: a person declares an absence; their games wait or let a bot play meanwhile.

What a vacation does depends on each game's rule (deadline_policy "vacation"):
- "stretch" (the default): a decision the person owes waits until the vacation ends plus
  the decision's usual hours (pbem/services/schedule.py; stretched by at most 14 days);
- "bot": the game's default bot plays the person's seat at once while they are away (a
  stand-in, switched on and off by the deadline tick); their own orders still come first.

Caps: a vacation lasts at most MAX_LENGTH; all of a person's vacations in any 365 days
add up to at most YEAR_ALLOWANCE; vacations do not overlap; none starts in the past or
more than MAX_AHEAD ahead.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Iterable

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from pbem.models import Game, Seat, User, Vacation
from pbem.services.advance import advance
from pbem.services.errors import Conflict, Invalid, NotFound, StaleGame
from pbem.services.events import log_event
from pbem.services.locking import bump_version, claim_game, lock_game, lock_row, unit_of_work
from pbem.services.notify import mail_user
from pbem.services.policy import policy_from
from pbem.services.schedule import schedule
from pbem.services.state import game_state
from pbem.timezones import when, zone_of

log = logging.getLogger(__name__)

MAX_LENGTH = timedelta(days=14)
YEAR = timedelta(days=365)
YEAR_ALLOWANCE = timedelta(days=30)
MAX_AHEAD = timedelta(days=365)
PAST_TOLERANCE = timedelta(minutes=5)  # a form filled in a few minutes ago still starts "now"
IN_THE_PAST = "a vacation cannot start in the past"
TOO_FAR_AHEAD = f"a vacation starts at most {MAX_AHEAD.days} days ahead"
ENDS_TOO_EARLY = "a vacation ends after it starts"
TOO_LONG = f"a vacation lasts at most {MAX_LENGTH.days} days"


# ---- declaring and cancelling --------------------------------------------------------------------

def _year_total(periods: list[tuple[datetime, datetime]]) -> timedelta:
    """The most vacation time inside any window of 365 days.  The busiest window starts at a
    vacation's start or ends at a vacation's end, so only those windows are checked."""
    windows = [(start, start + YEAR) for start, _ in periods] + [(end - YEAR, end) for _, end in periods]
    best = timedelta(0)
    for low, high in windows:
        total = sum((min(end, high) - max(start, low) for start, end in periods if start < high and end > low),
                    timedelta(0))
        best = max(best, total)
    return best


def _days(span: timedelta) -> str:
    days = span.total_seconds() / 86400
    return f"{days:g} days" if days == int(days) else f"{days:.1f} days"


@unit_of_work
def declare_vacation(session: Session, user: User, starts_at: datetime, ends_at: datetime,
                     now: datetime) -> Vacation:
    """Declare an absence [starts_at, ends_at); both aware.  A start within a few minutes in
    the past means now."""
    if starts_at.tzinfo is None or ends_at.tzinfo is None:
        raise Invalid("give times with a time zone")
    if starts_at < now - PAST_TOLERANCE:
        raise Invalid(IN_THE_PAST)
    starts_at = max(starts_at, now)
    if ends_at <= starts_at:
        raise Invalid(ENDS_TOO_EARLY)
    if ends_at - starts_at > MAX_LENGTH:
        raise Invalid(TOO_LONG)
    if starts_at > now + MAX_AHEAD:
        raise Invalid(TOO_FAR_AHEAD)
    # The person's row, locked, so that two declarations at once see each other's vacation:
    # locking the vacations already there would not stop a second one being added beside them.
    lock_row(session, User, user.id)
    mine = list(session.scalars(select(Vacation).where(Vacation.user_id == user.id,
                                                       Vacation.ends_at > starts_at - YEAR)))
    if any(v.starts_at < ends_at and v.ends_at > starts_at for v in mine):
        raise Conflict("it overlaps a vacation you declared already; cancel that one first")
    total = _year_total([(v.starts_at, v.ends_at) for v in mine] + [(starts_at, ends_at)])
    if total > YEAR_ALLOWANCE:
        raise Conflict(f"at most {YEAR_ALLOWANCE.days} days of vacation in any 365 days; with this one "
                       f"you would have {_days(total)}")
    vacation = Vacation(user_id=user.id, starts_at=starts_at, ends_at=ends_at, created_at=now)
    session.add(vacation)
    mail_user(session, user, "Your vacation on pbem",
              f"Your vacation is noted: away from {when(starts_at, user)} until {when(ends_at, user)}.\n"
              f"{_effects(session, user)}\nYou can cancel it on your profile page.\n", topic="vacation")
    session.commit()
    _games_changed(session, user, now)
    return vacation


def declare_vacation_dates(session: Session, user: User, start: date, end: date, now: datetime) -> Vacation:
    """Away from the start of `start` to the end of `end` (both days included), in the
    person's time zone; a start today means now."""
    zone = zone_of(user)
    # Whole days first, so a date far out (9999-12-31, 0001-01-01) gets the same answer as
    # any other out of bounds instead of overflowing the arithmetic below.
    today = now.astimezone(zone).date()
    if start < today:
        raise Invalid(IN_THE_PAST)
    if start > today + MAX_AHEAD:
        raise Invalid(TOO_FAR_AHEAD)
    if end < start:
        raise Invalid(ENDS_TOO_EARLY)
    if end > start + MAX_LENGTH:
        raise Invalid(TOO_LONG)
    starts_at = datetime.combine(start, time(0), zone)
    ends_at = datetime.combine(end + timedelta(days=1), time(0), zone)
    if start == now.astimezone(zone).date():
        starts_at = now
    return declare_vacation(session, user, starts_at, ends_at, now)


def _effects(session: Session, user: User) -> str:
    games = _active_games(session, user.id)
    if not games:
        return "You sit in no running game now."
    lines = []
    for game in games:
        rule = policy_from(game.deadline_policy)
        effect = (f"the {rule.default} bot plays for you while you are away" if rule.vacation == "bot"
                  else "decisions you owe wait until you are back")
        lines.append(f"- {game.title}: {effect}")
    return "Your games:\n" + "\n".join(lines) + "\n"


@unit_of_work
def cancel_vacation(session: Session, user: User, vacation_id: int, now: datetime) -> None:
    """Cancel a vacation: one not begun is forgotten; one under way ends now."""
    vacation = session.get(Vacation, vacation_id)
    if vacation is None or vacation.user_id != user.id:
        raise NotFound("you have no such vacation")
    if vacation.ends_at <= now:
        raise Conflict("that vacation is over already")
    if vacation.starts_at > now:
        session.delete(vacation)
    else:
        vacation.ends_at = now
    mail_user(session, user, "Your vacation on pbem", "Your vacation is cancelled: welcome back.\n",
              topic="vacation")
    session.commit()
    _games_changed(session, user, now)


def end_vacations(session: Session, user: User, now: datetime) -> int:
    """Cancel every vacation of the person that has not ended ("VACATION OFF"); how many."""
    mine = upcoming(session, user, now)
    for vacation in mine:
        cancel_vacation(session, user, vacation.id, now)
    return len(mine)


def upcoming(session: Session, user: User, now: datetime) -> list[Vacation]:
    """The person's vacations that have not ended, soonest first."""
    return list(session.scalars(select(Vacation).where(Vacation.user_id == user.id, Vacation.ends_at > now)
                                .order_by(Vacation.starts_at)))


def away_until(session: Session, user_ids: Iterable[int], now: datetime) -> dict[int, datetime]:
    """Who of these people is away now, and until when."""
    ids = list(set(user_ids))
    if not ids:
        return {}
    return dict(session.execute(select(Vacation.user_id, Vacation.ends_at).where(
        Vacation.user_id.in_(ids), Vacation.starts_at <= now, Vacation.ends_at > now)).all())


# ---- what a vacation changes in games ------------------------------------------------------------

def _active_games(session: Session, user_id: int) -> list[Game]:
    return list(session.scalars(select(Game).join(Seat).where(Seat.user_id == user_id,
                                                              Game.status == Game.ACTIVE).order_by(Game.id)))


def _games_changed(session: Session, user: User, now: datetime) -> None:
    """A vacation was declared or cancelled: stand-ins switch now, stretched deadlines move."""
    sync_stand_ins(session, now, user_ids=[user.id])
    for game_id in [game.id for game in _active_games(session, user.id)]:
        game = lock_game(session, game_id)
        if game.status == Game.ACTIVE:
            schedule(session, game, now, game_state(session, game))
        session.commit()


@dataclass
class _Switch:
    seat_id: int
    on: bool


def sync_stand_ins(session: Session, now: datetime, *, report: Any = None,
                   user_ids: list[int] | None = None) -> None:
    """Switch vacation stand-ins on for people away now in games with the "bot" rule, and
    off for people back (the deadline tick runs this; so does declaring a vacation)."""
    away = select(Vacation.user_id).where(Vacation.starts_at <= now, Vacation.ends_at > now)
    if user_ids is not None:
        away = away.where(Vacation.user_id.in_(user_ids))
    away_ids = set(session.scalars(away))
    query = (select(Seat.id, Seat.game_id, Seat.user_id, Seat.stand_in, Seat.stand_in_reason, Game.deadline_policy)
             .join(Game, Game.id == Seat.game_id)
             .where(Game.status == Game.ACTIVE,
                    or_(Seat.user_id.in_(away_ids), Seat.stand_in_reason == "vacation")))
    if user_ids is not None:
        query = query.where(Seat.user_id.in_(user_ids))
    switches: dict[int, list[_Switch]] = {}
    for seat_id, game_id, user_id, stand_in, reason, policy in session.execute(query).all():
        want = user_id in away_ids and policy_from(policy).vacation == "bot"
        if want and stand_in is None:
            switches.setdefault(game_id, []).append(_Switch(seat_id, True))
        elif not want and reason == "vacation":
            switches.setdefault(game_id, []).append(_Switch(seat_id, False))
    session.rollback()
    for game_id, changes in switches.items():
        try:
            _switch(session, game_id, changes, away_ids, now, report)
        except StaleGame:
            session.rollback()  # someone else changed the game: the next tick tries again
        except Exception as error:  # noqa: BLE001 - one game's trouble stops no other; the next tick retries
            session.rollback()
            log.exception("switching vacation stand-ins failed for game %s", game_id)
            if report is not None:
                report.fail(game_id, error)


def _switch(session: Session, game_id: int, changes: list[_Switch], away_ids: set[int], now: datetime,
            report: Any) -> None:
    game = claim_game(session, game_id)
    if game is None or game.status != Game.ACTIVE:
        session.rollback()
        return
    rule = policy_from(game.deadline_policy)
    switched: list[tuple[Seat, bool]] = []
    for change in changes:
        seat = next(s for s in game.seats if s.id == change.seat_id)
        if change.on and seat.stand_in is None and seat.user_id in away_ids:
            seat.stand_in, seat.stand_in_reason = rule.default, "vacation"
            log_event(session, game, "away", f"{seat.label} ({seat.name}) is away: the {rule.default} "
                      "bot plays for them", now, seat=seat.name, user_id=seat.user_id)
        elif not change.on and seat.stand_in_reason == "vacation":
            seat.stand_in = seat.stand_in_reason = None
            log_event(session, game, "back", f"{seat.label} ({seat.name}) is back from vacation",
                      now, seat=seat.name, user_id=seat.user_id)
        else:
            continue
        switched.append((seat, change.on))
    if not switched:
        session.rollback()
        return
    schedule(session, game, now, game_state(session, game))
    bump_version(session, game)
    session.commit()
    if report is not None:
        report.stand_ins.extend((game_id, seat.name, "on" if on else "off") for seat, on in switched)
    if any(on for _, on in switched):
        advance(session, game_id, settle=False, at=now)  # the stand-in plays what the seat owes
