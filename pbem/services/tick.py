"""What happens by the clock: the deadline tick.

`tick(session, now)` is the beat task's command (every 30 s; docs/deadlines.md).  It takes
the time as an argument and never reads the clock itself, so tests drive it with any `now`.
Each game is handled in a short transaction under the game's lock (its own, or for missed
deadlines one per BATCH games, done again game by game if it fails; FOR UPDATE SKIP LOCKED
on PostgreSQL: a game someone else holds is left for the next tick; SQLite takes its write
lock), and every condition is checked again under that lock, so two ticks that overlap never
both act on one deadline.  In order:

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
   row the seat is offered for takeover and a stand-in bot plays it until someone takes it
   (pbem/services/takeover.py).
4. Reminders, each once per deadline, to the seats that have not acted (under a clock, by
   each seat's own deadline).
5. Daily digests of opponents' moves whose local hour has come (pbem/services/moves_mail.py).

A tick works for about `budget` seconds at most (TICK_BUDGET, well inside a task's time
limit; each step takes at least one game or one batch of digests, so every tick gets
somewhere): what it has not reached then it leaves for the next tick and says so
(`TickReport.more`; the beat task then queues the next tick at once).  Nothing is lost or
done twice that way: every game and every digest is decided under its own lock with its
conditions checked again, whichever tick gets there.
"""
from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine import get_game
from engine.core import GameState, OrderError
from pbem.live import changed
from pbem.outbox.messages import Mail, queued_keys
from pbem.models import ERROR_MAX, Game, GameEvent, PendingOrder, Seat, TickFailure, TickState, User
from pbem.services import kinds, links
from pbem.services.advance import FALLBACK_BOT, FALLBACK_TRIES, BotFailure, advance
from pbem.services.errors import StaleGame
from pbem.services.events import event_row, events_insert, log_event, round_prefix, seat_title
from pbem.services.host import PAUSE_LIMIT, pause_left, resume
from pbem.services.links import base_url
from pbem.services.locking import bump_version, claim_game, claim_games
from pbem.services.moves_mail import send_digests
from pbem.services.notify import mail_seat, mail_user, seat_mail, seat_mail_key
from pbem.services.policy import policy_of
from pbem.services.clock import clock_text
from pbem.services.schedule import (REMINDER_HOURS, current_kind, due_of, owing, passed_reminder, schedule,
                                    whole_seconds)
from pbem.services.state import game_state, game_states
from pbem.services.takeover import offer_seat
from pbem.services.vacations import sync_stand_ins
from pbem.timezones import when
from pbem.writes import Write, row_write

log = logging.getLogger(__name__)

OUTAGE_GAP = timedelta(hours=1)  # a longer gap between ticks is an outage
OUTAGE_GRACE = timedelta(hours=24)  # deadlines that fell due in an outage move to now + this
TICK_BUDGET = 60.0  # seconds of work per tick: half a task's soft time limit (pbem/tasks.py)
# Missed deadlines per transaction: claimed and loaded in a few statements, one commit; small
# enough that an order sent to one of them waits a few seconds at most for the batch's lock.
BATCH = 25


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
    more: bool = False  # the budget ran out with work left: the next tick goes on with it

    def merge(self, other: TickReport) -> None:
        """Add the lists of `other` (a part of this tick done in a transaction of its own)."""
        for name in ("pushed", "defaulted", "missed", "offered", "reminded", "stand_ins", "resumed", "scheduled",
                     "skipped", "digests"):
            getattr(self, name).extend(getattr(other, name))
        for game_id, error in other.errors.items():
            if game_id not in self.errors:
                self.failed.append(game_id)
            self.errors[game_id] = error

    def fail(self, game_id: int, error: BaseException) -> None:
        if game_id not in self.errors:
            self.failed.append(game_id)
        self.errors[game_id] = error_text(error)


def error_text(error: BaseException) -> str:
    """An exception as operators read it (the class tells most), within the column's size."""
    return f"{error.__class__.__name__}: {error}"[:ERROR_MAX]


def tick(session: Session, now: datetime, *, budget: float = TICK_BUDGET) -> TickReport:
    """Everything due by `now` (aware UTC), or as much of it as `budget` seconds allow
    (`report.more`: the rest is left for the next tick).  Idempotent: a second tick at the
    same time does nothing; safe when ticks overlap."""
    if now.tzinfo is None:
        raise ValueError("tick needs an aware time")
    report = TickReport(now)
    stop_at = time.monotonic() + budget
    gap = _touch(session, now)
    report.gap_seconds = gap.total_seconds() if gap is not None else None
    report.outage = gap is not None and gap > OUTAGE_GAP
    try:
        _run(session, now, gap, report, lambda: time.monotonic() >= stop_at)
    except Exception as error:
        session.rollback()
        _finish(session, now, error_text(error))
        raise
    _keep_failures(session, report)
    _finish(session, now, None)
    return report


def _run(session: Session, now: datetime, gap: timedelta | None, report: TickReport,
         out_of_time: Callable[[], bool]) -> None:
    def each(game_ids: list[int], step: Callable[[Game], Any], claim: Callable[..., Game | None] = claim_game) -> None:
        for index, game_id in enumerate(game_ids):
            if report.more or (index and out_of_time()):  # after one game: every tick gets somewhere
                report.more = True
                return
            _each(session, game_id, report, step, claim)

    sync_stand_ins(session, now, report=report)
    each(_ids(session, Game.paused_at.is_not(None)), lambda game: _auto_resume(session, game, now, report))
    each(_ids(session, Game.paused_at.is_(None), Game.decision_seq.is_(None)),
         lambda game: _catch_up(session, game, now, report))
    due = _ids(session, Game.paused_at.is_(None), Game.deadline_at <= now)
    if report.outage:
        hosts: dict[int, list[tuple[Game, datetime]]] = defaultdict(list)
        each(due, lambda game: _push_back(session, game, now, gap, hosts, report))
        _mail_hosts_outage(session, hosts, gap, now)
    else:
        _fire_all(session, due, now, report, out_of_time, each)
    each(_reminders_due(session, now), lambda game: _remind(session, game, now, report))
    session.rollback()  # end the read transaction of the selections
    if report.more:
        return  # the deadlines first: digests wait for a tick that got through them
    # 5. opponents' moves, once a day per person
    report.digests, report.more = send_digests(session, now, out_of_time)


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
        if not report.more:  # a tick cut short did not get to every game: their counts stand
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


def _each(session: Session, game_id: int, report: TickReport, step: Callable[[Game], Any],
          claim: Callable[..., Game | None] = claim_game) -> None:
    """Run `step` on one game in its own transaction; one game's failure stops no other."""
    try:
        game = claim(session, game_id)
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


def _running(game: Game) -> bool:
    return game.status == Game.ACTIVE and game.paused_at is None


def _catch_up(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if _running(game) and game.decision_seq is None:
        schedule(session, game, now, game_state(session, game))
        session.commit()
        report.scheduled.append(game.id)


def _auto_resume(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if game.status == Game.ACTIVE and game.paused_at is not None and pause_left(game, now) <= timedelta(0):
        resume(session, game, now, f"The game resumed by itself: its {PAUSE_LIMIT.days} days of pause are used up",
               None)
        session.commit()
        report.resumed.append(game.id)


# ---- outage --------------------------------------------------------------------------------------

def _push_back(session: Session, game: Game, now: datetime, gap: timedelta | None,
               hosts: dict[int, list[tuple[Game, datetime]]], report: TickReport) -> None:
    if not _running(game) or game.deadline_at is None or game.deadline_at > now:
        return
    old = game.deadline_at
    game.deadline_delay = (game.deadline_delay or 0) + whole_seconds(now + OUTAGE_GRACE - old)
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
                  topic="outage", key=f"outage:{now.isoformat()}:user{host_id}")
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


def _fire_all(session: Session, due: list[int], now: datetime, report: TickReport,
              out_of_time: Callable[[], bool], each: Callable[..., None]) -> None:
    """The missed deadlines of the games `due`, BATCH games per transaction (claimed and loaded
    together); a batch that fails is done again game by game with `each`, so only the broken
    game is left out.  The first game goes whatever the time: every tick gets somewhere."""
    for start in range(0, len(due), BATCH):
        if report.more or (start and out_of_time()):
            report.more = True
            return
        batch = due[start:start + BATCH]
        done = TickReport(now)  # this batch's part, kept once it commits
        try:
            report.more = _fire_batch(session, batch, now, done, lambda index: (start or index) and out_of_time())
        except Exception:  # noqa: BLE001 - done again one game at a time, each failure kept apart
            session.rollback()
            each(batch, lambda game: _fire_one(session, game, now, report), _claim_whole)
            continue
        report.merge(done)


def _fire_batch(session: Session, game_ids: list[int], now: datetime, report: TickReport,
                stop: Callable[[int], Any]) -> bool:
    """The games' missed deadlines in one transaction, until `stop(index)` says the time is up
    before a game (then True: some are left)."""
    games = claim_games(session, game_ids)
    claimed = {game.id for game in games}
    report.skipped += [game_id for game_id in game_ids if game_id not in claimed]
    running = [game for game in games if _running(game)]
    game_states(session, running)  # the order logs in one query
    with session.no_autoflush:  # and the mails about these deadlines queued already, in one
        queued = queued_keys(session, [key for game in running for key in _missed_keys(game)])
    for index, game in enumerate(games):
        if stop(index):
            session.commit()
            return True
        _fire(session, game, now, report, queued)
    session.commit()
    return False


def _claim_whole(session: Session, game_id: int) -> Game | None:
    """`claim_game`, the game read as `_fire`'s advance needs it (claim_games)."""
    return next(iter(claim_games(session, [game_id])), None)


def _fire_one(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    _fire(session, game, now, report)
    session.commit()


def _missed_keys(game: Game) -> list[str]:
    """The keys of the mails a missed deadline of this game may send its seats (`_fire`)."""
    if game.deadline_at is None:
        return []
    return [seat_mail_key("missed", game.id, _passed(game.deadline_at), seat.name) for seat in game.seats if seat.name]


def _passed(deadline: datetime) -> str:
    """The event of every mail about a missed deadline: which deadline passed."""
    return f"due{int(deadline.timestamp())}"


def _fire(session: Session, game: Game, now: datetime, report: TickReport, queued: set[str] | None = None) -> None:
    """Play the defaults (or note the misses) of a game whose deadline passed, and advance it:
    in the caller's transaction, under the game's lock (the caller commits).  The defaults'
    events, mails and seat counters go with the advance's own statement (no unit of work:
    issue 18); the rarer paths (a seat offered, a game that waits) use the session as usual.
    `queued`: the `_missed_keys` of the game whose mails were queued already, if the caller
    asked (else they are asked here)."""
    if not _running(game) or game.deadline_at is None or game.deadline_at > now:
        return
    state = game_state(session, game)
    pending = list(game.pending_orders)  # as read with the lock (claim_games), before the defaults
    # Under a clock each seat has its own deadline: only those whose time ran out missed it.
    seats = [seat for seat in owing(session, game, state, acted={row.seat for row in pending})
             if (due_of(game, seat) or now) <= now]
    if not seats:  # nobody owes it any more (orders came in): just bring the schedule up to date
        schedule(session, game, now, state)
        return
    policy = policy_of(game)
    kind = current_kind(state) or ""
    what, public = kinds.ask(game.kind, kind), kinds.noun(game.kind, kind)
    url = links.game(base_url(), game.id)
    passed = _passed(game.deadline_at)
    play_default = policy.on_missed == "bot"
    offered = []
    events: list[dict[str, Any]] = []
    mails: list[Mail] = []
    writes: list[Write] = []
    # A seat offered for takeover logs its offer through the session: then the misses do too,
    # so the game's history keeps them in order (events are listed by id).
    offering = any(seat.missed_in_row + 1 >= policy.replace_after and seat.replacement_offered_at is None
                   for seat in seats)

    def note(row: dict[str, Any]) -> None:
        if offering:
            session.add(GameEvent(**row))
        else:
            events.append(row)

    for n, seat in enumerate(seats):
        _count_miss(seat, n, writes)
        assert seat.name is not None
        if play_default:
            text = default_order(state, game.setup.get("seed"), seat.name, policy.default)
            pending.append(PendingOrder(game_id=game.id, seat=seat.name, text=text, channel="default",
                                        submitted_at=now))
            session.add(pending[-1])
            changed(session, game.id)
            note(event_row(game, "default", f"{round_prefix(state)}{seat_title(seat)} missed the deadline for "
                           f"{public} (missed: default — the {policy.default} bot decided)", now, seat=seat.name,
                           user_id=seat.user_id))
            mail = seat_mail(session, game, seat.user, passed, f"{game.title}: you missed a deadline",
                             f"You missed the deadline ({when(due_of(game, seat), seat.user)}) to {what} in "
                             f"{game.title}. The {policy.default} bot played for you: {text}\n\n"
                             f"Missed in a row: {seat.missed_in_row} (after {policy.replace_after} the seat is "
                             f"offered to a replacement player).\n\n{url}\n", topic="missed")
            if mail is not None:
                mails.append(mail)
            report.defaulted.append((game.id, seat.name))
        else:
            note(event_row(game, "missed", f"{round_prefix(state)}{seat_title(seat)} missed the deadline for "
                           f"{public}; the game waits for them", now, seat=seat.name, user_id=seat.user_id))
            report.missed.append((game.id, seat.name))
        if seat.missed_in_row >= policy.replace_after and seat.replacement_offered_at is None:
            offer_seat(session, game, seat, now, policy.abandoned, url, passed)
            offered.append(seat)
            report.offered.append((game.id, seat.name))
    if queued is None:
        with session.no_autoflush:  # the defaults are written only if the advance leaves them pending
            queued = queued_keys(session, [mail.key for mail in mails if mail.key])
    mails = [mail for mail in mails if mail.key not in queued]  # a tick done twice mails once
    writes += events_insert(session, events)
    if not play_default:
        # The game waits one more window (under a clock: its free hours and one increment).
        game.deadline_delay = (game.deadline_delay or 0) + policy.rearm_hours(kind) * 3600
        schedule(session, game, now, state)
        host = session.get(User, game.created_by) if game.created_by else None
        names = ", ".join(seat_title(seat) for seat in seats)
        people = {person.id: person for person in [seat.user for seat in seats] + [host] if person is not None}
        for person in people.values():
            mail_seat(session, game, person, passed, f"{game.title}: a deadline passed",
                      f"{names} missed the deadline to {what} in {game.title}. This game waits rather "
                      f"than play a default; the next deadline is {when(game.deadline_at, person)}.\n\n{url}\n",
                      topic="missed")
    if play_default:  # the advance below takes the defaults from the game; those it applies are never written
        set_committed_value(game, "pending_orders", pending)
    version = game.version
    if play_default or offered:  # in this transaction: the defaults are applied once they are in
        # The defaults' mails (only these paths have any) and writes go with the advance's statement.
        advance(session, game.id, settle=False, at=now, commit=False, mails=mails, writes=writes)
        writes = []
    if game.version == version:  # nothing applied: the pending orders and misses still move it
        bump_version(session, game, writes=writes)


def _count_miss(seat: Seat, n: int, writes: list[Write]) -> None:
    """One more missed deadline for the seat: its counters as written by `writes` (sent with
    the game's statement), the seat object taking them as written."""
    counts = {"missed_in_row": seat.missed_in_row + 1, "missed_total": seat.missed_total + 1}
    for key, value in counts.items():
        set_committed_value(seat, key, value)
    writes.append(row_write(_SEATS, f"missed{n}", seat.id, counts))


_SEATS = Seat.__table__


# ---- reminders --------------------------------------------------------------------------------------

def _reminder_due(deadline: datetime | None, decision_at: datetime | None, reminded: int | None,
                  now: datetime) -> int | None:
    if deadline is None or decision_at is None or deadline <= now:
        return None
    offset = passed_reminder(deadline, decision_at, now)
    if offset is None or (reminded is not None and offset >= reminded):
        return None
    return offset


def _reminders_due(session: Session, now: datetime) -> list[int]:
    """Games with a reminder due: by the game's deadline, or under a clock by a seat's own."""
    horizon = now + timedelta(hours=max(REMINDER_HOURS))
    running = (Game.status == Game.ACTIVE, Game.paused_at.is_(None))
    games = session.execute(select(Game.id, Game.deadline_at, Game.decision_at, Game.reminded)
                            .where(*running, Game.deadline_at > now, Game.deadline_at <= horizon)).all()
    seats = session.execute(select(Seat.game_id, Seat.deadline_at, Game.decision_at, Seat.reminded)
                            .join(Game, Game.id == Seat.game_id)
                            .where(*running, Seat.clock_seq == Game.decision_seq, Seat.clock_acted_at.is_(None),
                                   Seat.deadline_at > now, Seat.deadline_at <= horizon)).all()
    return sorted({game_id for game_id, deadline, decision_at, reminded in [*games, *seats]
                   if _reminder_due(deadline, decision_at, reminded, now) is not None})


def _remind(session: Session, game: Game, now: datetime, report: TickReport) -> None:
    if not _running(game):
        return
    clock = policy_of(game).clock
    state = game_state(session, game)
    what = kinds.ask(game.kind, current_kind(state))
    url = links.game(base_url(), game.id)
    game_offset = None if clock is not None else _reminder_due(game.deadline_at, game.decision_at, game.reminded, now)
    for seat in owing(session, game, state):
        # Under a clock each seat is reminded by its own deadline, else all by the game's.
        offset = _reminder_due(seat.deadline_at, game.decision_at, seat.reminded, now) if clock else game_offset
        deadline = due_of(game, seat)
        if offset is None or deadline is None:
            continue
        left = max(1, round((deadline - now).total_seconds() / 3600))
        extra = f"\n\n{clock_text(seat, clock)}" if clock is not None else ""
        if mail_seat(session, game, seat.user, f"d{game.decision_seq}-{offset}h",
                     f"Reminder: {game.title} waits for you",
                     f"{game.title} waits for you to {what}. The deadline is {when(deadline, seat.user)} "
                     f"(in about {left} hours).{extra}\n\n{url}\n", topic="reminder"):
            report.reminded.append((game.id, seat.name or ""))
        if clock is not None:
            seat.reminded = offset
    if game_offset is not None:
        game.reminded = game_offset
    session.commit()
