"""Reports and notices by mail (issue 6; docs/reports.md, "By mail").

1. `record_jobs` (called by notify_advanced, inside the advance's transaction): for the
   phases the advance completed (`state.milestones()`), a `report_jobs` row per scored
   round (the one that ends the game is the final report) and at most one notice: the last
   unscored phase's, and none when a report of the same advance comes after it.  (The
   table's `age` column holds the round.)  The last job of the moment also
   carries the seats that newly owe a decision: their mail says so, instead of a separate
   turn mail.  After the commit the job goes to the worker (`pbem.render_reports`) or, in
   "inline" mode, is rendered at once in-process.
2. `render_job(session, job_id)`: per seat whose person wants results mail, renders the
   report (HTML with inline PNGs, text, PDF) or the notice within bounds and queues it with
   an idempotency key, one transaction per seat: run twice, it sends each mail once, and a
   seat that fails to render does not hold up the others.  The job is done when every seat
   has its mail, or given up after MAX_ATTEMPTS runs (inline: one): a seat still without its
   mail then gets the plain turn or game-over mail its report stood in for.
3. `stale_jobs`: jobs left undone (their task lost, their worker dead) for the mail sweep.

Mode (PBEM_REPORT_MAIL): "queue", "inline" or "off" (nothing recorded, nothing sent).
"""
from __future__ import annotations

import logging
from datetime import timedelta
from functools import cached_property
from typing import Any, Iterable, Sequence

from flask import current_app, has_app_context
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine.core import Milestone
from pbem.models import Game, ReportJob, Seat, now
from pbem.outbox.messages import MailPart, queued, send_mail
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.reports import content
from pbem.reports.render import render_report
from pbem.reports.safety import bounded
from pbem.services import links, notify
from pbem.services.links import base_url
from pbem.services.schedule import due_of
from pbem.services.state import game_state, log_lines, record
from pbem.tasks import REPORT_QUEUE, after_commit, producer

log = logging.getLogger(__name__)

RENDER_TASK = "pbem.render_reports"
# A job untouched this long lost its task or its worker: longer than a render task may run
# (time_limit 180 s, worker/mail_tasks.py) plus a wait in the queue.
REDO_AFTER = timedelta(minutes=5)
MAX_ATTEMPTS = 3  # runs of a job with a seat that keeps failing, before it is given up


def mode() -> str:
    """"queue", "inline" or "off"; outside an app context (scripts, direct service calls) off."""
    if has_app_context():
        return str(current_app.config.get("PBEM_REPORT_MAIL") or "off")
    return "off"


# ---- 1. recording jobs in the advance --------------------------------------------------------

def plan(crossed: Sequence[Milestone]) -> list[tuple[str, int, str]]:
    """(topic, round, phase) of the jobs one advance owes: a report per scored milestone, and a
    notice of the last milestone unless it is scored (a report supersedes the notices of the
    phases before it)."""
    jobs = [(ReportJob.REPORT, m.round, m.phase) for m in crossed if m.scored]
    if crossed and not crossed[-1].scored:
        jobs.append((ReportJob.NOTICE, crossed[-1].round, crossed[-1].phase))
    return jobs


def wants_results(seat: Seat) -> str | None:
    """The address a seat's reports go to: a person who has one and wants results mail."""
    user = seat.user
    if user is None or not user.notify_results or seat.name is None:
        return None
    return user.primary_address


def record_jobs(session: Session, game: Game, state: Any, since: int, newly_waiting: Iterable[Seat]) -> set[str]:
    """Add the jobs for the milestones after the first `since` of `state`; returns the seats
    whose "your turn" the last job's mail carries (no separate turn mail for them)."""
    if mode() == "off":
        return set()
    jobs = plan(state.milestones()[since:])
    if not jobs:
        return set()
    told = sorted(seat.name for seat in newly_waiting if wants_results(seat) is not None)
    seq = len(state.order_log())
    rows = [ReportJob(game_id=game.id, topic=topic, round=number, phase=phase, seq=seq, attempts=0,
                      turn_seats=told if i == len(jobs) - 1 else None)
            for i, (topic, number, phase) in enumerate(jobs)]
    session.add_all(rows)
    _dispatch_after_commit(session, rows)
    return set(told)


def _dispatch_after_commit(session: Session, rows: list[ReportJob]) -> None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    queued = mode() == "queue"
    bind = session.get_bind()

    def dispatch() -> None:
        for row in rows:
            if queued:
                send_render(row.id, app=app)
                continue
            with app.app_context(), Session(bind) as own:  # inline: a session of its own
                try:
                    render_job(own, row.id, last_run=True)
                except Exception:  # noqa: BLE001 - the advance stands; the sweep redoes the job
                    log.exception("report job %s failed; the sweep will redo it", row.id)
    after_commit(session, dispatch)


def send_render(job_id: int, *, app: Any = None) -> None:
    """Send `pbem.render_reports(job_id)`; a broker that is down loses nothing (the sweep)."""
    try:
        producer(app).send_task(RENDER_TASK, args=[job_id], queue=REPORT_QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue report job %s; the sweep will", job_id)


# ---- 2. rendering a job ------------------------------------------------------------------------

def is_final(job: ReportJob, state: Any) -> bool:
    """Whether the job is the final report of the game `state` ended."""
    return job.topic == ReportJob.REPORT and job.round == content.final_round(state)


def final_report_owed(session: Session, game_id: int, state: Any) -> bool:
    """The final report of the game `state` ended is (being) mailed: it stands in for the
    plain game-over mail."""
    final = content.final_round(state)
    return final is not None and session.scalar(select(ReportJob.id).where(
        ReportJob.game_id == game_id, ReportJob.topic == ReportJob.REPORT, ReportJob.round == final)) is not None


def mail_key(job: ReportJob, seat: str) -> str:
    if job.topic == ReportJob.REPORT:
        return f"report:{job.game_id}:{job.round}:{seat}"
    return f"notice:{job.game_id}:{job.round}:{job.phase}:{seat}"


def render_job(session: Session, job_id: int, *, last_run: bool = False) -> dict[str, Any]:
    """Render and queue the job's mails, seat by seat; idempotent (keys), then mark it done.
    `last_run` (inline mode: nobody comes back later): a seat that fails is given up at once."""
    job = session.get(ReportJob, job_id, populate_existing=True)
    if job is None or job.done_at is not None:
        session.rollback()
        return {"job": job_id, "already": True}
    if job.attempts >= MAX_ATTEMPTS:  # its runs died unfinished (time limit, out of memory)
        return {"job": job_id, "given_up": give_up(session, job_id)}
    job.attempts += 1
    job.tried_at = now()
    session.commit()  # the sweep leaves a job alone while it is being worked on
    game = session.get(Game, job.game_id)
    assert game is not None  # the job goes with its game (ON DELETE CASCADE)
    orders = log_lines(session, game.id)
    replays = _Replays(job, record(game, orders[:job.seq]), record(game, orders))
    counts = {"sent": 0, "skipped": 0, "failed": 0}
    for seat in sorted(game.seats, key=lambda s: s.position):
        address = wants_results(seat)
        if address is None:
            continue
        key = mail_key(job, seat.name)  # type: ignore[arg-type]
        if queued(session, key):  # checked before rendering: a second run costs nothing
            counts["skipped"] += 1
            continue
        reader = _reader(game, job, seat)
        session.rollback()  # no transaction stays open across the render (up to 30 s)
        try:
            mail = _render(reader, replays)
        except Exception as error:  # noqa: BLE001 - one seat must not hold up the others
            # The class and the seat only: a message could quote the hand being rendered.
            log.error("report job %s: the %s seat's mail failed to render (%s)", job_id, reader["seat"],
                      type(error).__name__)
            counts["failed"] += 1
            continue
        counts[_queue(session, job, seat, address, key, mail)] += 1
    job = session.get(ReportJob, job_id, populate_existing=True)
    if job is not None and counts["failed"] and (last_run or job.attempts >= MAX_ATTEMPTS):
        return {"job": job_id, **counts, "given_up": give_up(session, job_id)}
    if job is not None and counts["failed"] == 0:
        job.done_at = now()
    session.commit()
    return {"job": job_id, **counts}


def give_up(session: Session, job_id: int) -> list[str]:
    """Mark the job done; each seat still without its mail gets the plain mail this one stood
    in for: the turn mail if the job told it "your turn" and it still owes a decision, the
    game-over mail if it was the final report.  Returns those seats."""
    job = session.get(ReportJob, job_id, populate_existing=True)
    assert job is not None
    game = session.get(Game, job.game_id)
    assert game is not None
    state = game_state(session, game)
    missing = [seat for seat in sorted(game.seats, key=lambda s: s.position) if wants_results(seat) is not None
               and not queued(session, mail_key(job, seat.name))]  # type: ignore[arg-type]
    for seat in missing:
        if seat.name in (job.turn_seats or ()):
            notify.queue_turn_mail(session, game, state, seat, seq=job.seq)
        if is_final(job, state):
            notify.queue_result_mail(session, game, state, seat)
    job.done_at = now()
    log.error("report job %s given up after %s runs; plain mails for %s", job.id, job.attempts,
              [seat.name for seat in missing])
    try:
        session.commit()
    except IntegrityError:  # another run gave up meanwhile: its mails have the same keys
        session.rollback()
    return [seat.name for seat in missing]  # type: ignore[misc]


def _reader(game: Game, job: ReportJob, seat: Seat) -> dict[str, Any]:
    """What one seat's render needs, read from the database beforehand as plain values."""
    user = seat.user
    assert user is not None and seat.name is not None
    base = base_url()
    report = job.topic == ReportJob.REPORT
    facts: dict[str, Any] = {
        "title": game.title, "names": {s.name: s.label for s in game.seats if s.name},
        "tz": user.time_zone or "UTC", "deadline": due_of(game, seat),
        "links": {"game": links.game(base, game.id), "orders": links.game(base, game.id),
                  "settings": links.profile(base),
                  **({"report": f"{links.game(base, game.id)}/reports/{job.round}.pdf"} if report else {})}}
    return {"seat": seat.name, "report": report, "facts": facts,
            "paper_size": user.paper_size, "told": seat.name in (job.turn_seats or ())}


class _Replays:
    """The job's moment and the game as it is now, each replayed once for all the seats of a
    run (on first use, inside the first seat's bounded render; a replay that fails is tried
    again for the next seat, as each seat's did before)."""

    def __init__(self, job: ReportJob, moment: dict[str, Any], latest: dict[str, Any]):
        self.report, self.number, self.phase = job.topic == ReportJob.REPORT, job.round, job.phase
        self.moment_record, self.latest_record = moment, latest

    @cached_property
    def moment(self) -> content.Moment:
        if self.report:
            return content.Moment.of_round(self.moment_record, self.number)
        return content.Moment.after_phase(self.moment_record, self.number, self.phase)

    @cached_property
    def latest(self) -> content.Position:
        return content.Position(self.latest_record)


def _render(reader: dict[str, Any], replays: _Replays) -> dict[str, Any]:
    """Subject, text, HTML and parts of one seat's mail: the report or notice of the job's
    moment, and what is expected of the reader in the game as it is now (bots may have
    played on since)."""
    seat, facts = reader["seat"], reader["facts"]
    with bounded():
        context = replays.moment.report(seat, **facts) if reader["report"] else replays.moment.notice(seat, **facts)
        context["next"] = replays.latest.next_step(seat, **facts)  # with the game's deadline now
        rendered = render_report(context, page_size=reader["paper_size"], pdf=reader["report"], seconds=None,
                                 memory_mb=None)
    subject = rendered.mail.subject
    if reader["told"] and context["next"]["yours"]:  # "your turn" only if the reader still owes it now
        subject = f"Your turn: {subject}"
    parts = [MailPart(f"{name}.png", "image/png", png, name) for name, png in rendered.mail.images.items()]
    if rendered.pdf is not None:
        parts.append(MailPart(rendered.filename, "application/pdf", rendered.pdf))
    return {"subject": subject, "text": rendered.mail.text, "html": rendered.mail.html, "parts": parts}


def _queue(session: Session, job: ReportJob, seat: Seat, address: str, key: str, mail: dict[str, Any]) -> str:
    if queued(session, key):  # another run queued it while this one rendered (send_mail would return it)
        session.rollback()
        return "skipped"
    message = send_mail(session, address, mail["subject"], mail["text"], topic=job.topic, html=mail["html"],
                        parts=mail["parts"], reply_to=seat_reply_address(session, seat), key=key)
    if message not in session.new:  # another run committed it just after the check above: that one
        session.rollback()
        return "skipped"
    try:
        session.commit()
    except IntegrityError:  # another run of this job queued it meanwhile (the key is unique)
        session.rollback()
        return "skipped"
    return "sent"


# ---- 3. the sweep ------------------------------------------------------------------------------

def stale_jobs(session: Session, older_than: timedelta = REDO_AFTER, limit: int = 100) -> list[int]:
    """Undone jobs nobody has touched for `older_than` (their task or worker was lost), touched
    now and committed: the caller sends them again, and the next sweeps wait `older_than` again."""
    stale = (ReportJob.done_at.is_(None),
             func.coalesce(ReportJob.tried_at, ReportJob.created_at) < now() - older_than)
    ids = list(session.scalars(select(ReportJob.id).where(*stale).order_by(ReportJob.id).limit(limit)))
    # Still stale when updated: of two sweeps at once, one takes each job.
    taken = list(session.scalars(update(ReportJob).where(ReportJob.id.in_(ids), *stale)
                                 .values(tried_at=now()).returning(ReportJob.id))) if ids else []
    session.commit()
    return sorted(taken)

