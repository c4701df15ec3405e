"""The email gateway's tasks (docs/email.md): thin, named, safe to run twice.

- `pbem.process_inbound(id)`: read a stored inbound mail and act on it (idempotent: a
  message is processed once, under a lease).
- `pbem.deliver_mail(outbox_id)`: send one outbox row over SMTP; retried with exponential
  backoff, then given up (marked failed, logged); never sent twice (`outbox.sent_at`, and a
  lease while sending).
- `pbem.render_reports(job_id)`: render a report job's mails (pbem/services/report_mail.py);
  idempotent per seat (a mail's key is checked before rendering).
- `pbem.mail_sweep`: what a lost message left behind: stored inbound mail nobody processed,
  unsent outbox rows, and report jobs left undone (for beat, e.g. every minute).
- `pbem.imap_poll`: poll the IMAP mailbox once (beat, every PBEM_IMAP_SECONDS, only when
  PBEM_IMAP_HOST is set); a lock keeps two polls from ever running at once.

Include this module in the worker's Celery app (`include=["worker.tasks", "worker.mail_tasks"]`).
"""
from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.exc import OperationalError

from pbem.extensions import db
from pbem.mail import gateway, store
from pbem.mail.gateway import PROCESS_TASK
from pbem.mail.imap import ImapError, poll
from pbem.outbox.delivery import (DELIVER_TASK, FIRST_BACKOFF, LONGEST_BACKOFF, MAX_ATTEMPTS, DeliveryError, deliver,
                                  lost, send_delivery)
from pbem.services import report_mail
from pbem.services.dispatch import IMAP_POLL_TASK, MAIL_SWEEP_TASK
from pbem.tasks import QUEUE
from worker.celery_app import celery, flask_app
from worker.locks import single_flight

log = logging.getLogger(__name__)

IMAP_LOCK_SECONDS = 180  # as long as a task may run (task_time_limit): never two polls at once


@celery.task(name=PROCESS_TASK, autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60,
             retry_jitter=True, max_retries=8)
def process_inbound(inbound_id: int) -> dict[str, Any]:
    return {"inbound": inbound_id, "status": gateway.process(db.session(), inbound_id)}


@celery.task(name=DELIVER_TASK, bind=True, autoretry_for=(DeliveryError, OperationalError),
             retry_backoff=FIRST_BACKOFF, retry_backoff_max=LONGEST_BACKOFF, retry_jitter=True,
             max_retries=MAX_ATTEMPTS - 1)
def deliver_mail(self: Any, outbox_id: int) -> dict[str, Any]:
    """5 s, 10 s, 20 s, ... up to an hour between attempts: about 10 hours in all; the last
    failed attempt marks the row failed (outcome "failed") rather than raising."""
    return {"outbox": outbox_id, "outcome": deliver(db.session(), outbox_id)}


# Each seat's render is bounded to 30 s (pbem.reports.safety); a job holds up to four seats.
@celery.task(name=report_mail.RENDER_TASK, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8, soft_time_limit=150, time_limit=180)
def render_reports(job_id: int) -> dict[str, Any]:
    return report_mail.render_job(db.session(), job_id)


@celery.task(name=MAIL_SWEEP_TASK)
def mail_sweep() -> dict[str, Any]:
    session = db.session()
    stored = store.pending(session, limit=500)
    waiting = lost(session, limit=500)  # rows a retrying task owns, or given up, are left alone
    session.rollback()
    jobs = report_mail.stale_jobs(session, limit=500)  # touched: the next sweeps leave them alone a while
    for inbound_id in stored:
        process_inbound.apply_async(args=[inbound_id], queue=QUEUE)
    for outbox_id in waiting:
        send_delivery(outbox_id)
    for job_id in jobs:
        report_mail.send_render(job_id)
    return {"inbound": len(stored), "outbox": len(waiting), "report_jobs": len(jobs)}


@celery.task(name=IMAP_POLL_TASK)
def imap_poll() -> dict[str, Any]:
    with single_flight(flask_app.config, "imap-poll", IMAP_LOCK_SECONDS) as mine:
        if not mine:
            return {"skipped": "another poll is running"}
        try:
            ids = poll(db.session(), app=flask_app)
        except ImapError as error:  # logged for the operator; the next poll tries again
            log.error("IMAP poll failed: %s", error)
            return {"error": str(error)}
        return {"stored": ids}
