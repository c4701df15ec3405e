"""What happens by the clock: the deadline tick, the host's controls, replacements.

`tick(session, now)` is the beat task's command (every 30 s; docs/deadlines.md).  It takes
the time as an argument and never reads the clock itself, so tests drive it with any `now`.
Each game is handled in its own short transaction under the game's lock (FOR UPDATE SKIP
LOCKED on PostgreSQL: a game someone else holds is left for the next tick; SQLite takes
its write lock), and every condition is checked again under that lock, so two ticks that
overlap never both act on one deadline.  In order:

1. Outage back-off: if the previous tick was more than OUTAGE_GAP ago, every deadline
   that fell due meanwhile moves to now + OUTAGE_GRACE instead of firing; the hosts are
   told (one mail per host).  Nobody is charged a missed turn for our outage.
2. Stand-ins for people away under the "bot" vacation rule start and stop; pauses that
   reach the cap end by themselves; running games without a schedule get one.
3. Missed deadlines: every seat still owing the decision gets the game's default (the
   heuristic or minimal bot), stored as the seat's pending order with channel "default"
   and applied by `advance()` like any order (the order log says `by="default"`); or, under
   on_missed "wait", nothing is played: the seat and host are told and the deadline re-arms
   one more window.  Either way it counts as a missed deadline; after `replace_after` in a
   row the seat is offered for takeover and a stand-in bot plays it until someone takes it.
4. Reminders, each once per deadline, to the seats that have not acted.
5. Daily digests of opponents' moves whose local hour has come (pbem/services/moves_mail.py).
"""
from __future__ import annotations

import logging
import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine import get_game
from engine.core import GameState, OrderError
from pbem.models import ERROR_MAX, Game, GameEvent, PendingOrder, QueuedTurn, Seat, TickFailure, TickState, User
from pbem.services import kinds, links
from pbem.services.advance import FALLBACK_BOT, FALLBACK_TRIES, BotFailure, advance
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound, StaleGame
from pbem.services.locking import bump_version, lock_game, unit_of_work
from pbem.services.moves_mail import send_digests
from pbem.services.notify import base_url, mail_seat
from pbem.services.schedule import (REMINDER_HOURS, claim_game, current_kind, iso_utc, log_event, mail_user,
                                    owing, passed_reminder, policy_of, schedule, when)
from pbem.services.state import game_state
from pbem.services.vacations import away_until, sync_stand_ins

log = logging.getLogger(__name__)

OUTAGE_GAP = timedelta(hours=1)  # a longer gap between ticks is an outage
OUTAGE_GRACE = timedelta(hours=24)  # deadlines that fell due in an outage move to now + this
EXTENSIONS_PER_DECISION = 2
EXTENSION_HOURS_PER_DECISION = 72
EXTENSION_HOURS_PER_GAME = 7 * 24
PAUSE_LIMIT = timedelta(days=14)  # all pauses of a game together


# ---- the tick -----------------------------------------------------------------------------------

@dataclass
class TickReport:
    now: datetime
    gap_seconds: float | None = None  # since the previous tick (None: the first tick)
    outage: bool = False
    pushed: list[int] = field(default_factory=list)  # games whose due deadline moved (outage)
    defaulted: list[tuple[int, str]] = field(default_factory=list)  # (game, seat) the default played
    missed: list[tuple[int, str]] = field(default_factory=list)  # (game, seat) missed under "wait"
    offered: list[tuple[int, str]] = field(default_factory=list)  # seats offered for takeover
    reminded: list[tuple[int, str]] = field(default_factory=list)
    stand_ins: list[tuple[int, str, str]] = field(default_factory=list)  # (game, seat, "on"|"off")
    resumed: list[int] = field(default_factory=list)  # pauses ended by the cap
    scheduled: list[int] = field(default_factory=list)  # running games given their first deadline
    skipped: list[int] = field(default_factory=list)  # locked by someone else: next tick
    digests: list[int] = field(default_factory=list)  # users sent their daily digest (moves_mail)
    failed: list[int] = field(default_factory=list)  # games a step raised on (kept in tick_failures)
    errors: dict[int, str] = field(default_factory=dict)  # the failed games' errors, for operators

    def fail(self, game_id: int, error: BaseException) -> None:
        if game_id not in self.errors:
            self.failed.append(game_id)
        self.errors[game_id] = error_text(error)


def error_text(error: BaseException) -> str:
    """An exception as operators read it (the class tells most), within the column's size."""
    return f"{error.__class__.__name__}: {error}"[:ERROR_MAX]


def tick(session: Session, now: datetime) -> TickReport:
    """Everything due by `now` (aware UTC).  Idempotent: a second tick at the same time does
    nothing; safe when ticks overlap."""
    if now.tzinfo is None:
        raise ValueError("tick needs an aware time")
    report = TickReport(now)
    gap = _touch(session, now)
    report.gap_seconds = gap.total_seconds() if gap is not None else None
    report.outage = gap is not None and gap > OUTAGE_GAP
    try:
        _run(session, now, gap, report)
    except Exception as error:
        session.rollback()
        _finish(session, now, error_text(error))
        raise
    _keep_failures(session, report)
    _finish(session, now, None)
    return report


def _run(session: Session, now: datetime, gap: timedelta | None, report: TickReport) -> None:
    sync_stand_ins(session, now, report=report)
    for game_id in _ids(session, Game.paused_at.is_not(None)):
        _each(session, game_id, report, lambda game: _auto_resume(session, game, now, report))
    for game_id in _ids(session, Game.paused_at.is_(None), Game.decision_seq.is_(None)):
        _each(session, game_id, report, lambda game: _catch_up(session, game, now, report))
    due = _ids(session, Game.paused_at.is_(None), Game.deadline_at <= now)
    if report.outage:
        hosts: dict[int, list[tuple[Game, datetime]]] = defaultdict(list)
        for game_id in due:
            _each(session, game_id, report, lambda game: _push_back(session, game, now, gap, hosts, report))
        _mail_hosts_outage(session, hosts, gap, now)
    else:
        for game_id in due:
            _each(session, game_id, report, lambda game: _fire(session, game, now, report))
    horizon = now + timedelta(hours=max(REMINDER_HOURS))
    for game_id, deadline, decision_at, reminded in session.execute(
            select(Game.id, Game.deadline_at, Game.decision_at, Game.reminded)
            .where(Game.status == Game.ACTIVE, Game.paused_at.is_(None), Game.deadline_at > now,
                   Game.deadline_at <= horizon).order_by(Game.id)).all():
        if _reminder_due(deadline, decision_at, reminded, now) is not None:
            _each(session, game_id, report, lambda game: _remind(session, game, now, report))
    session.rollback()  # end the read transaction of the selections
    report.digests = send_digests(session, now)  # 5. opponents' moves, once a day per person


def _finish(session: Session, now: datetime, error: str | None) -> None:
    """Say how the tick ended: health counts a tick only once it ran to its end, so a tick
    that starts every 30 s but breaks every time shows (with why) instead of looking alive."""
    values: dict[str, Any] = {"error": error} if error else {"finished_at": now, "error": None}
    try:
        session.execute(update(TickState).where(TickState.id == 1).values(**values))
        session.commit()
    except Exception:  # noqa: BLE001 - the tick's own outcome matters more than this note
        session.rollback()
        log.exception("recording how the tick ended failed")


def _keep_failures(session: Session, report: TickReport) -> None:
    """Count, per game, the ticks in a row that failed on it; a game this tick got through
    (or did not need) leaves the list.  Health and the operators' page read it."""
    try:
        session.execute(delete(TickFailure).where(TickFailure.game_id.not_in(report.failed)))
        for game_id in report.failed:
            row = session.get(TickFailure, game_id)
            if row is None:
                session.add(TickFailure(game_id=game_id, first_at=report.now, last_at=report.now, count=1,
                                        error=report.errors[game_id]))
            else:
                row.count += 1
                row.last_at, row.error = report.now, report.errors[game_id]
        session.commit()
    except Exception:  # noqa: BLE001 - bookkeeping must never undo the tick's work
        session.rollback()
        log.exception("recording the tick's failed games failed")


def _touch(session: Session, now: datetime) -> timedelta | None:
    """Record this tick; the time since the previous one (None if there was none)."""
    for _ in range(2):
        if session.get_bind().dialect.name == "sqlite":  # take the write lock first (see locking.py)
            session.execute(update(TickState).values(last_tick_at=TickState.last_tick_at))
        row = session.scalar(select(TickState).where(TickState.id == 1).with_for_update()
                             .execution_options(populate_existing=True))
        if row is None:
            session.add(TickState(id=1, last_tick_at=now))
            try:
                session.commit()
                return None
            except IntegrityError:  # another tick made it first
                session.rollback()
                continue
        gap = now - row.last_tick_at
        if now > row.last_tick_at:
            row.last_tick_at = now
        if gap > OUTAGE_GAP:
            row.last_outage_at = now
        session.commit()
        return gap
    raise RuntimeError("tick_state could not be read")


def _ids(session: Session, *conditions: Any) -> list[int]:
    ids = list(session.scalars(select(Game.id).where(Game.status == Game.ACTIVE, *conditions).order_by(Game.id)))
    session.rollback()
    return ids


def _each(session: Session, game_id: int, report: TickReport, step: Callable[[Game], Any]) -> None:
    """Run `step` on one game in its own transaction; one game's failure stops no other."""
    try:
        game = claim_game(session, game_id)
        if game is None:
            session.rollback()
            report.skipped.append(game_id)
            return
        step(game)
    except StaleGame:
        session.rollback()
        report.skipped.append(game_id)
    except Exception as error:  # noqa: BLE001 - logged and kept; the next tick tries again
        session.rollback()
        log.exception("deadline tick failed for game %s", game_id)
        report.fail(game_id, error)
    finally:
        session.rollback()  # whatever the step left open (a no-op after its commit)


def _seconds(span: timedelta) -> int:
    """Whole seconds, rounded up: a delay never ends early."""
    return math.ceil(span.total_seconds())


def _running(game: Game) -> bool:
    return game.status == Game.ACTIVE and game.paused_at is None


def _name(seat: Seat) -> str:
    return f"{seat.label} ({seat.name})"


def _age(state: GameState) -> str:
    """"age 2: " (the game's word for a round), to begin a line about the current round."""
    return f"{get_game(state.game).round_name} {state.round}: "


def _catch_up(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if _running(game) and game.decision_seq is None:
        schedule(session, game, now, game_state(session, game))
        session.commit()
        report.scheduled.append(game.id)


# ---- outage --------------------------------------------------------------------------------------

def _push_back(session: Session, game: Game, now: datetime, gap: timedelta | None,
               hosts: dict[int, list[tuple[Game, datetime]]], report: TickReport) -> None:
    if not _running(game) or game.deadline_at is None or game.deadline_at > now:
        return
    old = game.deadline_at
    game.deadline_delay = (game.deadline_delay or 0) + _seconds(now + OUTAGE_GRACE - old)
    schedule(session, game, now, game_state(session, game))
    moved = _hours(game.deadline_at - old) if game.deadline_at is not None else "a while"
    log_event(session, game, "outage", f"pbem was down for {_hours(gap)}: the deadline that fell due meanwhile "
              f"moved by {moved}; nobody was charged a missed turn", now)
    bump_version(session, game)
    session.commit()
    report.pushed.append(game.id)
    if game.created_by is not None:
        hosts[game.created_by].append((game, old))


def _hours(gap: timedelta | None) -> str:
    if gap is None:
        return "a while"
    hours = gap.total_seconds() / 3600
    return f"{hours:.0f} hours" if hours >= 10 else f"{hours:.1f} hours"


def _mail_hosts_outage(session: Session, hosts: dict[int, list[tuple[Game, datetime]]],
                       gap: timedelta | None, now: datetime) -> None:
    for host_id, games in hosts.items():
        host = session.get(User, host_id)
        # One mail per host and outage, naming all their games: keyed by the tick that found it.
        lines = [f"- {game.title} (game {game.id}): was due {when(old, host)}, now {when(game.deadline_at, host)}"
                 for game, old in games]
        mail_user(session, host, "pbem was down: your games' deadlines moved",
                  f"The deadline service did not run for {_hours(gap)}. Rather than play every missed "
                  f"deadline at once, pbem moved the deadlines that fell due meanwhile by "
                  f"{int(OUTAGE_GRACE.total_seconds() // 3600)} hours from now:\n\n" + "\n".join(lines)
                  + "\n\nNobody was charged a missed turn. You can extend or pause a game from its page.\n",
                  kind="outage", key=f"outage:{now.isoformat()}:user{host_id}")
    session.commit()


# ---- missed deadlines -----------------------------------------------------------------------------

def default_order(state: GameState, seed: Any, seat: str, kind: str) -> str:
    """The default bot's order for the seat's current decision (canonical text), checked on a
    copy; the random bot stands in if the chosen bot finds nothing legal (a bot bug)."""
    index = state.seats.index(seat)
    count = len(state.order_log())
    rules = get_game(state.game)
    for attempt in range(FALLBACK_TRIES + 1):
        bot = kind if attempt == 0 else FALLBACK_BOT
        order = rules.make_bot(bot, f"{seed}:{seat}:{count}:default:{attempt}").order(state.clone(), index)
        try:
            state.clone().apply(seat, order)
        except OrderError:
            continue
        return state.order_text(order)
    raise BotFailure(f"no legal default found for {seat}")


def _fire(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if not _running(game) or game.deadline_at is None or game.deadline_at > now:
        return
    state = game_state(session, game)
    seats = owing(session, game, state)
    if not seats:  # nobody owes it any more (orders came in): just bring the schedule up to date
        schedule(session, game, now, state)
        session.commit()
        return
    policy = policy_of(game)
    kind = current_kind(state) or ""
    what, public = kinds.ask(game.kind, kind), kinds.noun(game.kind, kind)
    url = links.game(base_url(), game.id)
    passed = f"due{int(game.deadline_at.timestamp())}"  # the event of every mail about this miss
    play_default = policy.on_missed == "bot"
    offered = []
    for seat in seats:
        seat.missed_in_row += 1
        seat.missed_total += 1
        assert seat.name is not None
        if play_default:
            text = default_order(state, game.setup.get("seed"), seat.name, policy.default)
            session.add(PendingOrder(game_id=game.id, seat=seat.name, text=text, channel="default",
                                     submitted_at=now))
            log_event(session, game, "default", f"{_age(state)}{_name(seat)} missed the deadline for {public} "
                      f"(missed: default — the {policy.default} bot decided)", now, seat=seat.name,
                      user_id=seat.user_id)
            mail_seat(session, game, seat.user, passed, f"{game.title}: you missed a deadline",
                      f"You missed the deadline ({when(game.deadline_at, seat.user)}) to {what} in "
                      f"{game.title}. The {policy.default} bot played for you: {text}\n\n"
                      f"Missed in a row: {seat.missed_in_row} (after {policy.replace_after} the seat is "
                      f"offered to a replacement player).\n\n{url}\n", kind="missed")
            report.defaulted.append((game.id, seat.name))
        else:
            log_event(session, game, "missed", f"{_age(state)}{_name(seat)} missed the deadline for {public}; "
                      "the game waits for them", now, seat=seat.name, user_id=seat.user_id)
            report.missed.append((game.id, seat.name))
        if seat.missed_in_row >= policy.replace_after and seat.replacement_offered_at is None:
            _offer(session, game, seat, now, policy.abandoned, url, passed)
            offered.append(seat)
            report.offered.append((game.id, seat.name))
    if not play_default:
        window = policy.hours_for(kind) or 24
        game.deadline_delay = (game.deadline_delay or 0) + window * 3600  # the game waits one more window
        schedule(session, game, now, state)
        host = session.get(User, game.created_by) if game.created_by else None
        names = ", ".join(_name(seat) for seat in seats)
        people = {person.id: person for person in [seat.user for seat in seats] + [host] if person is not None}
        for person in people.values():
            mail_seat(session, game, person, passed, f"{game.title}: a deadline passed",
                      f"{names} missed the deadline to {what} in {game.title}. This game waits rather "
                      f"than play a default; the next deadline is {when(game.deadline_at, person)}.\n\n{url}\n",
                      kind="missed")
    bump_version(session, game)
    session.commit()
    if play_default or offered:
        try:
            advance(session, game.id, settle=False, at=now)
        except StaleGame:
            session.rollback()  # someone else is advancing it: they apply the defaults


def _offer(session: Session, game: Game, seat: Seat, now: datetime, bot: str, url: str, passed: str) -> None:
    """Offer a seat to a replacement; a stand-in bot plays it until someone takes it over."""
    seat.replacement_offered_at = now
    seat.stand_in, seat.stand_in_reason = bot, "abandoned"
    log_event(session, game, "offered", f"{_name(seat)} missed {seat.missed_in_row} deadlines in a row: "
              f"the seat is open for takeover; the {bot} bot plays it until someone takes it over",
              now, seat=seat.name, user_id=seat.user_id)
    host = session.get(User, game.created_by) if game.created_by else None
    mail_seat(session, game, host, f"offer-{seat.name}-{passed}",
              f"{game.title}: {seat.name} is offered to a replacement",
              f"{_name(seat)} missed {seat.missed_in_row} deadlines in a row in {game.title}. The seat is "
              f"now listed for takeover in the lobby, and the {bot} bot plays it until someone takes it "
              f"over. As the host you may also hand it to a bot for good on the game's page.\n\n{url}\n",
              kind="replacement")
    mail_seat(session, game, seat.user, f"offered-{passed}",
              f"{game.title}: your seat is offered to a replacement",
              f"You missed {seat.missed_in_row} deadlines in a row in {game.title}, so your seat is offered "
              f"to a replacement player and the {bot} bot plays it meanwhile. Send an order to take it "
              f"back before someone takes it over.\n\n{url}\n", kind="replacement")


# ---- reminders --------------------------------------------------------------------------------------

def _reminder_due(deadline: datetime | None, decision_at: datetime | None, reminded: int | None,
                  now: datetime) -> int | None:
    if deadline is None or decision_at is None or deadline <= now:
        return None
    offset = passed_reminder(deadline, decision_at, now)
    if offset is None or (reminded is not None and offset >= reminded):
        return None
    return offset


def _remind(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if not _running(game):
        return
    offset = _reminder_due(game.deadline_at, game.decision_at, game.reminded, now)
    if offset is None:
        return
    state = game_state(session, game)
    what = kinds.ask(game.kind, current_kind(state))
    url = links.game(base_url(), game.id)
    left = game.deadline_at - now  # type: ignore[operator]
    for seat in owing(session, game, state):
        if mail_seat(session, game, seat.user, f"d{game.decision_seq}-{offset}h",
                     f"Reminder: {game.title} waits for you",
                     f"{game.title} waits for you to {what}. The deadline is {when(game.deadline_at, seat.user)} "
                     f"(in about {max(1, round(left.total_seconds() / 3600))} hours).\n\n{url}\n",
                     kind="reminder"):
            report.reminded.append((game.id, seat.name or ""))
    game.reminded = offset
    session.commit()


# ---- the host's controls -------------------------------------------------------------------------

def _host_game(session: Session, game_id: int, user: User, action: str) -> Game:
    game = lock_game(session, game_id)
    if game.created_by != user.id:
        raise Forbidden(f"only the host (who created the game) can {action}")
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    return game


def extensions(session: Session, game: Game) -> tuple[int, int, int]:
    """(extensions of the current decision, their hours, extension hours of the whole game)."""
    rows = session.execute(select(GameEvent.decision_seq, GameEvent.hours)
                           .where(GameEvent.game_id == game.id, GameEvent.kind == "extend")).all()
    mine = [hours or 0 for seq, hours in rows if seq == game.decision_seq]
    return len(mine), sum(mine), sum(hours or 0 for _, hours in rows)


@unit_of_work
def extend_deadline(session: Session, game_id: int, user: User, hours: int, now: datetime) -> Game:
    """The host gives the current decision `hours` more (capped per decision and per game)."""
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= EXTENSION_HOURS_PER_DECISION:
        raise Invalid(f"an extension is 1 to {EXTENSION_HOURS_PER_DECISION} hours")
    game = _host_game(session, game_id, user, "extend a deadline")
    if game.paused_at is not None:
        raise Conflict("the game is paused: its deadlines stand still until you resume it")
    if game.deadline_at is None:
        raise Conflict("there is no deadline to extend: the game waits for nobody's decision with a deadline")
    count, used, total = extensions(session, game)
    if count >= EXTENSIONS_PER_DECISION:
        raise Conflict(f"this decision's deadline was extended {count} times already; "
                       f"at most {EXTENSIONS_PER_DECISION} extensions per decision")
    if used + hours > EXTENSION_HOURS_PER_DECISION:
        raise Conflict(f"at most {EXTENSION_HOURS_PER_DECISION} hours of extension per decision; "
                       f"{EXTENSION_HOURS_PER_DECISION - used} left for this one")
    if total + hours > EXTENSION_HOURS_PER_GAME:
        raise Conflict(f"at most {EXTENSION_HOURS_PER_GAME} hours of extension per game; "
                       f"{EXTENSION_HOURS_PER_GAME - total} left")
    state = game_state(session, game)
    game.extended_hours = (game.extended_hours or 0) + hours
    schedule(session, game, now, state)
    event = _event(session, log_event(session, game, "extend", f"{_age(state)}{user.display_name} (host) extended "
                                      f"the deadline by {hours} hours", now, user_id=user.id, hours=hours))
    url = links.game(base_url(), game.id)
    for seat in owing(session, game, state):
        mail_seat(session, game, seat.user, event, f"{game.title}: deadline extended",
                  f"The host extended the deadline of {game.title} by {hours} hours: it is now "
                  f"{when(game.deadline_at, seat.user)}.\n\n{url}\n", kind="deadline")
    bump_version(session, game)
    session.commit()
    return game


def pause_left(game: Game, now: datetime) -> timedelta:
    used = timedelta(seconds=game.paused_seconds or 0)
    if game.paused_at is not None:
        used += now - game.paused_at
    return max(timedelta(0), PAUSE_LIMIT - used)


@unit_of_work
def pause_game(session: Session, game_id: int, user: User, now: datetime) -> Game:
    """The host stops the clock: no deadlines, reminders or defaults until resumed (or until
    the game's pause allowance runs out).  Orders are still taken and applied."""
    game = _host_game(session, game_id, user, "pause the game")
    if game.paused_at is not None:
        raise Conflict("the game is paused already")
    left = pause_left(game, now)
    if left <= timedelta(0):
        raise Conflict(f"this game has used all of its {PAUSE_LIMIT.days} days of pause")
    game.paused_at, game.paused_by = now, user.id
    event = log_event(session, game, "pause", f"{user.display_name} (host) paused the game; it resumes by itself "
                      f"after {_days(left)} more of pause at the latest", now, user_id=user.id)
    _tell_players(session, game, event, f"{game.title} is paused",
                  lambda person: f"The host paused {game.title}: deadlines stand still. It resumes when the "
                                 f"host says so, at the latest {when(now + left, person)}.")
    bump_version(session, game)
    session.commit()
    return game


def _days(span: timedelta) -> str:
    days = span.total_seconds() / 86400
    return f"{days:.1f} days" if days < 10 else f"{round(days)} days"


@unit_of_work
def resume_game(session: Session, game_id: int, user: User, now: datetime) -> Game:
    game = _host_game(session, game_id, user, "resume the game")
    if game.paused_at is None:
        raise Conflict("the game is not paused")
    _resume(session, game, now, f"{user.display_name} (host) resumed the game", user.id)
    session.commit()
    return game


def _resume(session: Session, game: Game, now: datetime, text: str, user_id: int | None) -> None:
    paused_at = game.paused_at
    assert paused_at is not None
    game.paused_seconds = (game.paused_seconds or 0) + _seconds(now - paused_at)
    if game.decision_at is not None:  # this decision's clock stood still while paused
        game.deadline_delay = (game.deadline_delay or 0) + _seconds(now - max(paused_at, game.decision_at))
    game.paused_at = game.paused_by = None
    schedule(session, game, now, game_state(session, game))
    event = log_event(session, game, "resume", text, now, user_id=user_id)
    _tell_players(session, game, event, f"{game.title} is running again",
                  lambda person: f"{text}. The current deadline is {when(game.deadline_at, person)}.")
    bump_version(session, game)


def _auto_resume(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if game.status == Game.ACTIVE and game.paused_at is not None and pause_left(game, now) <= timedelta(0):
        _resume(session, game, now, f"The game resumed by itself: its {PAUSE_LIMIT.days} days of pause are used up",
                None)
        session.commit()
        report.resumed.append(game.id)


def _tell_players(session: Session, game: Game, event: GameEvent, subject: str,
                  body: Callable[[User], str]) -> None:
    url, key = links.game(base_url(), game.id), _event(session, event)
    for seat in game.seats:
        if seat.user is not None:
            mail_seat(session, game, seat.user, key, subject, f"{body(seat.user)}\n\n{url}\n", kind="deadline")


def _event(session: Session, event: GameEvent) -> str:
    """A logged event as the event of its mails' keys (the host's controls, takeovers)."""
    session.flush()  # for its id
    return f"event{event.id}"


# ---- replacement --------------------------------------------------------------------------------------

def takeover_games(session: Session, limit: int = 100) -> list[Game]:
    """Running games with a seat offered to a replacement."""
    ids = select(Seat.game_id).where(Seat.replacement_offered_at.is_not(None))
    return list(session.scalars(select(Game).where(Game.status == Game.ACTIVE, Game.id.in_(ids))
                                .order_by(Game.updated_at.desc()).limit(limit)))


def _offered_seat(game: Game, seat_name: str) -> Seat:
    seat = next((s for s in game.seats if s.name == seat_name), None)
    if seat is None:
        raise NotFound(f"there is no seat {str(seat_name)[:16]!r} in this game")
    if seat.replacement_offered_at is None:
        raise Conflict("this seat is not offered to a replacement")
    return seat


def rename_seat(session: Session, game: Game, seat_name: str, player_name: str) -> None:
    """The record's player name for a seat that changed hands (bumps the version)."""
    players = [dict(p, name=player_name[:60]) if p["seat"] == seat_name else dict(p)
               for p in game.setup.get("players", [])]
    bump_version(session, game, setup={**game.setup, "players": players})


def clear_seat(session: Session, game: Game, seat: Seat) -> None:
    """Forget what the seat's previous player left: plans, misses, offers (it changes hands)."""
    seat.replacement_offered_at = seat.stand_in = seat.stand_in_reason = None
    seat.missed_in_row, seat.last_error, seat.queue_held_seq = 0, None, None
    for model in (PendingOrder, QueuedTurn):  # the previous player's plans are not the new one's
        for row in session.scalars(select(model).where(model.game_id == game.id, model.seat == seat.name)):
            session.delete(row)


@unit_of_work
def take_over(session: Session, game_id: int, user: User, seat_name: str, now: datetime) -> Seat:
    """A person takes over a seat offered to a replacement: from now on it is theirs, with
    its view, hand and score."""
    game = lock_game(session, game_id)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    seat = _offered_seat(game, seat_name)
    if any(s.user_id == user.id for s in game.seats):
        raise Conflict("you already have a seat in this game")
    before, previous = _name(seat), seat.user
    clear_seat(session, game, seat)
    seat.user_id, seat.joined_at = user.id, now
    rename_seat(session, game, seat_name, user.display_name)
    event = _event(session, log_event(session, game, "takeover", f"{user.display_name} took over {before}", now,
                                      seat=seat_name, user_id=user.id))
    host = session.get(User, game.created_by) if game.created_by else None
    url = links.game(base_url(), game.id)
    for person in {host, previous} - {None}:
        mail_seat(session, game, person, event, f"{game.title}: {seat_name} has a new player",
                  f"{user.display_name} took over {before} in {game.title}.\n\n{url}\n", kind="replacement")
    session.commit()
    advance(session, game.id, at=now)  # the seat now waits for its new player (who is told)
    return seat


@unit_of_work
def hand_to_bot(session: Session, game_id: int, host: User, seat_name: str, bot: str, now: datetime) -> Seat:
    """The host gives a seat offered to a replacement to a bot for the rest of the game."""
    game = _host_game(session, game_id, host, "hand a seat to a bot")
    kinds.check_bot(game.kind, bot)
    seat = _offered_seat(game, seat_name)
    before = _name(seat)
    clear_seat(session, game, seat)
    seat.user_id, seat.user, seat.bot = None, None, bot
    rename_seat(session, game, seat_name, seat.label)
    log_event(session, game, "bot", f"{host.display_name} (host) handed {before} to the {bot} bot", now,
              seat=seat_name, user_id=host.id)
    session.commit()
    advance(session, game.id, at=now)
    return seat


# ---- what a page or API answer shows ---------------------------------------------------------------

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
    return DeadlineInfo(
        game=game, deadline_at=game.deadline_at if running else None,
        kind=current_kind(state) if running and state is not None else None,
        paused_at=game.paused_at, pause_left=pause_left(game, now),
        owing=owing(session, game, state) if running and state is not None else [],
        away={s.name: away[s.user_id] for s in game.seats if s.name and s.user_id in away},
        extensions=count, extension_hours=used, game_extension_hours=total,
        offered=[s for s in game.seats if s.replacement_offered_at is not None] if running else [],
        log=events, policy=policy_of(game), is_host=user is not None and user.id == game.created_by)


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
                   "vacation": policy.vacation},
        "log": [{"at": moment(e.at), "kind": e.kind, "seat": e.seat, "text": e.text} for e in info.log],
    }

