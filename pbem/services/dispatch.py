"""Work for the workers as the application layer sees it (docs/workers.md).

- `request_advance(session, game_id)`: the one way to start an advance.  With
  `PBEM_ADVANCE=queue` it sends the task `pbem.advance_game` *after* the session's
  transaction commits (a worker must see the order that asked for it); with `inline` it
  advances at once in the caller's session.
- `advance_within(session, game_id)`: the advance in the caller's own transaction, for a
  change made in a worker already (the mail gateway's orders).
- `stalled_games(session, now)`: games an advance is owed to and never came (the broker
  lost the message, or a worker died before redelivery): the tick queues them again.
- `beat_schedule(config)`: the periodic tasks beat sends (the tick, the mail sweep, the
  IMAP poll, the leagues' tick), added to the worker's Celery settings (pbem/tasks.py).

This module never imports the worker package: it sends tasks by name.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from flask import Flask, current_app, has_app_context
from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased

from pbem.models import Game, PendingOrder, Seat
from pbem.outbox.settings import load as mail_settings
from pbem.services.advance import Advanced, advance, settle_seconds
from pbem.services.errors import StaleGame
from pbem.tasks import QUEUE, after_commit, producer

log = logging.getLogger(__name__)

ADVANCE_TASK = "pbem.advance_game"
TICK_TASK = "pbem.tick"
MAIL_SWEEP_TASK = "pbem.mail_sweep"  # worker/mail_tasks.py
MAIL_SWEEP_SECONDS = 60.0
IMAP_POLL_TASK = "pbem.imap_poll"  # worker/mail_tasks.py
PING_TASK = "pbem.ping"
LEAGUE_CHECK_TASK = "pbem.league_check"  # a league round whose game ended (worker/league_tasks.py)
LEAGUE_TICK_TASK = "pbem.league_tick"  # rounds by the clock: hard dates, starts (worker/league_tasks.py)
TICK_SECONDS = 30.0
SETTLE_SLACK = 0.05  # seconds after a settle window closes, so the advance finds it closed
STALL_GRACE = timedelta(seconds=60)  # a queued advance normally runs within milliseconds


def beat_schedule(config: Mapping[str, Any]) -> dict[str, Any]:
    """What beat sends and how often (Celery's `beat_schedule` setting)."""
    tick_seconds = float(config.get("PBEM_TICK_SECONDS") or TICK_SECONDS)
    schedule: dict[str, Any] = {
        # A tick that waited longer than its period is dropped, never stacked.
        "pbem-tick": {"task": TICK_TASK, "schedule": tick_seconds, "options": {"expires": tick_seconds * 0.9}},
        # Inbound mail stored but never processed, and outbox rows never delivered.
        "pbem-mail-sweep": {"task": MAIL_SWEEP_TASK, "schedule": MAIL_SWEEP_SECONDS,
                            "options": {"expires": MAIL_SWEEP_SECONDS * 0.9}},
        # Leagues: rounds past their hard date, rounds whose end or start a lost message missed.
        "pbem-league-tick": {"task": LEAGUE_TICK_TASK, "schedule": tick_seconds,
                             "options": {"expires": tick_seconds * 0.9}},
    }
    imap = mail_settings(config)
    if imap.imap_host:  # a mailbox to poll (docs/email.md); the task's lock keeps polls apart
        schedule["pbem-imap-poll"] = {"task": IMAP_POLL_TASK, "schedule": imap.imap_seconds,
                                      "options": {"expires": imap.imap_seconds * 0.9}}
    return schedule


def advance_mode() -> str:
    """"queue" or "inline" (PBEM_ADVANCE); outside any app context (plain scripts and the
    service tests' direct calls) always inline."""
    if has_app_context():
        return str(current_app.config.get("PBEM_ADVANCE", "inline"))
    return "inline"


def send_advance(game_id: int, *, countdown: float | None = None, app: Flask | None = None) -> None:
    """Send `pbem.advance_game(game_id)` now.  A broker that is down loses nothing: the
    order is committed, and the tick finds the game (`stalled_games`)."""
    try:
        producer(app).send_task(ADVANCE_TASK, args=[game_id], countdown=countdown, queue=QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue the advance of game %s; the tick will", game_id)


def request_advance(session: Session, game_id: int, *, countdown: float | None = None) -> bool:
    """Ask for `game_id` to be advanced; True if queued for a worker, False if done inline.

    Queue mode sends the task after the current transaction commits.  Inline mode runs
    `advance` at once in `session` (which commits), ignoring the settle window (no worker
    would come back when it closes): call it after your own commit."""
    if advance_mode() != "queue":
        try:
            advance(session, game_id, settle=False)
        except StaleGame:
            session.rollback()  # others kept changing the game; their advance applies these orders
        return False
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    after_commit(session, lambda: send_advance(game_id, countdown=countdown, app=app))
    return True


def advance_within(session: Session, game_id: int) -> Advanced:
    """Advance `game_id` in the caller's open transaction, then commit the two together: the
    caller holds the game's lock, the game read with everything an advance works on
    (`lock_game(people=True, pending=True, queued=True)`).  For a change made in a worker
    already (the mail gateway's orders): one commit, and no second task.  In queue mode a
    decision the settle window holds gets a delayed task, as `pbem.advance_game` sends; inline
    the window is not kept (no worker would come back), as in `request_advance`."""
    queued = advance_mode() == "queue"
    done = advance(session, game_id, settle=queued, commit=False)
    session.commit()
    if done.settle_until is not None:
        send_advance(game_id, countdown=settle_delay(done.settle_until))
    return done


def settle_delay(until: datetime) -> float:
    """Seconds from now until an advance finds a settle window closed at `until`."""
    return max(0.0, (until - datetime.now(timezone.utc)).total_seconds()) + SETTLE_SLACK


def advance_after_change(session: Session, game_id: int, *, at: datetime | None = None) -> None:
    """Advance `game_id` now, after a committed change that is not an order (a game starts,
    a seat changes hands): bots and stand-ins may owe answers.  A decision the settle window
    then holds is advanced when the window closes, by a delayed task in queue mode; inline no
    worker would come back, so it is not held (as `request_advance` inline)."""
    if advance_mode() != "queue":
        advance(session, game_id, settle=False, at=at)
        return
    done = advance(session, game_id, at=at)
    if done.settle_until is not None:
        send_advance(game_id, countdown=settle_delay(done.settle_until))


def stalled_games(session: Session, now: datetime, grace: timedelta = STALL_GRACE) -> list[int]:
    """Running games holding orders that should have been applied by now.

    A pending order is normally applied within milliseconds of its commit, or waits for
    good reason: a secret choice waits for the other seats, a queued turn for its seat's
    turn.  Stalled are games with orders older than `grace` (plus their settle window) where
    nobody they wait for is missing: a seat that owes a decision has its orders in, or no
    seat owes anything at all."""
    owed = aliased(Seat)
    has_orders = exists().where(PendingOrder.game_id == owed.game_id, PendingOrder.seat == owed.name)
    unprocessed = exists().where(owed.game_id == Game.id, owed.waiting.is_(True), has_orders)
    anyone_waiting = exists().where(Seat.game_id == Game.id, Seat.waiting.is_(True))
    latest = select(PendingOrder.game_id, func.max(PendingOrder.submitted_at).label("latest")) \
        .group_by(PendingOrder.game_id).subquery()
    rows = session.execute(
        select(Game.id, Game.deadline_policy, latest.c.latest)
        .join(latest, latest.c.game_id == Game.id)
        .where(Game.status == Game.ACTIVE, latest.c.latest < now - grace, unprocessed | ~anyone_waiting)
        .order_by(Game.id))
    stalled = []
    for game_id, policy, latest_at in rows:
        if latest_at.tzinfo is None:  # in case an aggregate lost the column's type
            latest_at = latest_at.replace(tzinfo=timezone.utc)
        if latest_at + timedelta(seconds=settle_seconds(policy)) < now - grace:
            stalled.append(game_id)
    return stalled
