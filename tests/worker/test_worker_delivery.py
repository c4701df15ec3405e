"""Outbound delivery with a real worker, real SMTP and the sweep: a mail whose last retry
failed is marked failed (logged, shown in the outbox) and never tried again, and a mail whose
retry got lost is sent by the sweep instead of being dropped."""
from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import select, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gateway"))

from gateway_helpers import Sink, free_port  # noqa: E402
from pbem.outbox.delivery import DELIVER_TASK, MAX_ATTEMPTS  # noqa: E402
from pbem.outbox.models import MailDelivery  # noqa: E402
from pbem.outbox.messages import send_mail  # noqa: E402
from pbem.models import OutboxMessage, now  # noqa: E402
from pbem.services.dispatch import MAIL_SWEEP_TASK  # noqa: E402
from pbem.tasks import QUEUE, producer  # noqa: E402
from worker_helpers import wait_until  # noqa: E402

SECRET_LINK = "http://pbem.test/signin/not-for-the-log-0123456789"


@pytest.fixture
def sink() -> Iterator[Sink]:
    server = Sink()
    server.start()
    yield server
    server.stop()


def _smtp(port: int) -> dict[str, str]:
    return {"PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port), "PBEM_SMTP_TLS": "off",
            "PBEM_MAIL_DOMAIN": "pbem.test", "PBEM_MAIL_PROCESS": "queue"}


def _queued(session: Any, to: str, *, attempts: int, age: timedelta) -> int:
    """An outbox row committed `age` ago that `attempts` deliveries already tried (the task
    that retried it is gone, or is about to try for the last time)."""
    row = send_mail(session, to, "Your pbem sign-in link", f"Open {SECRET_LINK}\n", topic="signin", key=f"t:{to}")
    session.commit()
    session.execute(update(OutboxMessage).where(OutboxMessage.id == row.id).values(created_at=now() - age))
    session.execute(update(MailDelivery).where(MailDelivery.outbox_id == row.id)
                    .values(attempts=attempts, last_error="SMTPServerDisconnected: earlier"))
    session.commit()
    return row.id


def _run(stack: Any, task: str, *args: Any) -> Any:
    return producer(stack.app).send_task(task, args=list(args), queue=QUEUE, ignore_result=False).get(timeout=60)


def _delivery(session: Any, outbox_id: int) -> MailDelivery:
    session.expire_all()
    row = session.scalar(select(MailDelivery).where(MailDelivery.outbox_id == outbox_id))
    session.rollback()
    return row


def test_the_last_failed_attempt_marks_the_mail_failed_and_nothing_tries_it_again(
        stack: Any, session: Any, client: Any, workers: Any) -> None:
    outbox_id = _queued(session, "ana@example.com", attempts=MAX_ATTEMPTS - 1, age=timedelta(hours=10))
    worker = workers.start(concurrency=1, **_smtp(free_port()))  # nothing listens there

    assert _run(stack, DELIVER_TASK, outbox_id) == {"outbox": outbox_id, "outcome": "failed"}

    row = _delivery(session, outbox_id)
    assert row.failed_at is not None and row.attempts == MAX_ATTEMPTS and row.claimed_at is None
    assert "ConnectionRefusedError" in row.last_error
    line = wait_until(lambda: next((l for l in worker.log().splitlines() if "given up" in l), None), 20,
                      "the operators' log line")
    assert f"outbox {outbox_id} (signin) given up after {MAX_ATTEMPTS} failed attempts" in line
    assert SECRET_LINK not in worker.log() and "not-for-the-log" not in worker.log()
    page = client.get("/dev/outbox").get_data(as_text=True)
    assert "Failed: given up after 13 attempts" in page
    # Neither the sweep nor a late copy of the task tries it again.
    assert _run(stack, MAIL_SWEEP_TASK)["outbox"] == 0
    assert _run(stack, DELIVER_TASK, outbox_id)["outcome"] == "already"
    assert _delivery(session, outbox_id).attempts == MAX_ATTEMPTS


def test_a_mail_whose_retry_was_lost_is_sent_by_the_sweep(stack: Any, session: Any, workers: Any,
                                                          sink: Sink) -> None:
    outbox_id = _queued(session, "bo@example.com", attempts=3, age=timedelta(hours=3))
    workers.start(concurrency=1, **_smtp(sink.port))

    assert _run(stack, MAIL_SWEEP_TASK)["outbox"] == 1

    wait_until(lambda: sink.to("bo@example.com"), 30, "the sweep to send the mail")
    assert _delivery(session, outbox_id).attempts == 4
    assert _run(stack, MAIL_SWEEP_TASK)["outbox"] == 0  # sent: once
    assert len(sink.to("bo@example.com")) == 1
