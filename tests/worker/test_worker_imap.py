"""The IMAP poll on a schedule: beat runs `pbem.imap_poll` every PBEM_IMAP_SECONDS when a
mailbox is configured, a real worker polls a real (Dovecot) server and the mail becomes orders
through the queue; two polls never run at once.  From cron, `pbem imap-poll` polls once."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gateway"))

from gateway_helpers import compose  # noqa: E402
from imap_server import Dovecot, dovecot, dovecot_server  # noqa: E402,F401 - fixtures
from pbem.mail.models import InboundMessage  # noqa: E402
from pbem.models import OrderLogEntry  # noqa: E402
from pbem.services.dispatch import IMAP_POLL_TASK, beat_schedule  # noqa: E402
from pbem.tasks import QUEUE, producer  # noqa: E402
from seat_game import ANA, ana_game  # noqa: E402
from worker_helpers import answer_while_locked, wait_until  # noqa: E402


def _mail_for_ana(session: Any, stack: Any, server: Dovecot) -> dict[str, Any]:
    """A game where Ana owes a card, and her order mail delivered into the mailbox."""
    mail = ana_game(session, stack.config)
    server.append(compose(ANA, mail["address"], mail["order"])[0])
    return mail


def _ana_orders(session: Any, mail: dict[str, Any]) -> list[str]:
    session.expire_all()
    return list(session.scalars(select(OrderLogEntry.text).where(
        OrderLogEntry.game_id == mail["game_id"], OrderLogEntry.seat == mail["seat"])))


def _env(server: Dovecot, **extra: str) -> dict[str, str]:
    return {name: str(value) for name, value in {**server.settings(), **extra}.items()}


def test_beat_polls_only_when_a_mailbox_is_configured(stack: Any, dovecot: Dovecot) -> None:
    assert "pbem-imap-poll" not in beat_schedule(stack.config)
    entry = beat_schedule({**stack.config, **dovecot.settings(), "PBEM_IMAP_SECONDS": "15"})["pbem-imap-poll"]
    assert entry["task"] == IMAP_POLL_TASK and entry["schedule"] == 15.0
    assert beat_schedule({**stack.config, **dovecot.settings()})["pbem-imap-poll"]["schedule"] == 60.0


def test_beat_polls_the_mailbox_and_the_mail_becomes_orders(session: Any, stack: Any, workers: Any,
                                                            dovecot: Dovecot) -> None:
    mail = _mail_for_ana(session, stack, dovecot)

    workers.start(concurrency=2, beat=True, **_env(dovecot, PBEM_IMAP_SECONDS="0.5"))

    # The order commits (with its advance) before the mail's final status does.
    wait_until(lambda: _ana_orders(session, mail) and session.scalar(select(InboundMessage.status)) != "stored",
               40, "beat's poll to turn Ana's mail into her order")
    assert _ana_orders(session, mail) == [mail["order"]]
    rows = list(session.scalars(select(InboundMessage)))
    assert [(r.channel, r.status, r.reason) for r in rows] == [("imap", "processed", "ok")]
    assert dovecot.flags() == [{r"\Seen"}]


def test_two_polls_never_run_at_once(session: Any, stack: Any, workers: Any,
                                     dovecot: Dovecot) -> None:
    mail = _mail_for_ana(session, stack, dovecot)
    workers.start(concurrency=1, **_env(dovecot))
    busy = answer_while_locked(stack, "imap-poll", IMAP_POLL_TASK)
    assert busy == {"skipped": "another poll is running"}
    assert dovecot.flags() == [set()] and session.scalar(select(InboundMessage.id)) is None

    free = producer(stack.app).send_task(IMAP_POLL_TASK, queue=QUEUE, ignore_result=False).get(timeout=30)

    assert len(free["stored"]) == 1
    wait_until(lambda: _ana_orders(session, mail), 30, "the stored mail to be processed")
    assert _ana_orders(session, mail) == [mail["order"]]


def test_pbem_imap_poll_from_cron_polls_once_and_carries_the_mail_out(session: Any, stack: Any, app: Any,
                                                                      dovecot: Dovecot) -> None:
    """No worker: the command stores the mail and processes it itself (PBEM_MAIL_PROCESS
    inline); a mailbox it cannot log in to is an exit status 1 and a line saying why."""
    mail = _mail_for_ana(session, stack, dovecot)
    command = [str(Path(sys.executable).parent / "pbem"), "imap-poll"]

    def run(**settings: Any) -> subprocess.CompletedProcess[str]:
        env = {**stack.env, **_env(dovecot, **settings), "PBEM_MAIL_PROCESS": "inline", "PBEM_ADVANCE": "inline"}
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    refused = run(PBEM_IMAP_PASSWORD="not-the-password")
    assert refused.returncode == 1 and refused.stdout.startswith("error: "), refused.stderr[-2000:]
    assert "not-the-password" not in refused.stdout + refused.stderr
    assert session.scalar(select(InboundMessage.id)) is None and dovecot.flags() == [set()]

    done = run()
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("stored 1 message(s) from IMAP")
    assert _ana_orders(session, mail) == [mail["order"]]
    assert dovecot.flags() == [{r"\Seen"}]
