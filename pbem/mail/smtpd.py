"""The SMTP side of the gateway (aiosmtpd): `pbem smtpd`, 127.0.0.1:2525 by default.

For each message: the raw bytes are stored and committed (in a worker thread, off the event
loop) before the 250 goes out; a database failure answers 451 (try again later), so the
sending server keeps the mail.  Then the message is processed: by the Celery task
`pbem.process_inbound` (PBEM_MAIL_PROCESS=queue), or here, in one background thread, one
message after the other in order of arrival (inline: `make run`, tests).  In inline mode this
process also delivers the replies when SMTP is configured.

Only recipients at our mail domain are accepted (it is no relay); SIZE is announced and a
message over MAX_BYTES is refused at DATA with 552.  An envelope address with a control
character (a NUL, ...) is refused with 553: a permanent answer, never a 451 the sender
would retry for days.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session as SmtpSession
from flask import Flask

from pbem.extensions import db
from pbem.mail import gateway
from pbem.mail.inbound import MAX_BYTES, MailRejected, printable
from pbem.mail.settings import MailSettings, load

log = logging.getLogger(__name__)

PROCESS_TASK = "pbem.process_inbound"
MAX_RECIPIENTS = 20


class GatewayHandler:
    """aiosmtpd handler: accept our domain's recipients, store, acknowledge, then process."""

    def __init__(self, app: Flask, settings: MailSettings | None = None, *, store_threads: int = 4):
        self.app = app
        with app.app_context():
            self.settings = settings or load()
        self.store_pool = ThreadPoolExecutor(store_threads, thread_name_prefix="smtpd-store")
        # One processor: messages are processed in order of arrival, and SQLite sees one writer.
        self.process_pool = ThreadPoolExecutor(1, thread_name_prefix="smtpd-process")
        self.stored = 0
        self.processed = 0
        self._idle = threading.Condition()
        self._outstanding = 0

    # -- SMTP -----------------------------------------------------------------------------------

    async def handle_MAIL(self, server: SMTP, session: SmtpSession, envelope: Envelope, address: str,
                          mail_options: list[str]) -> str:
        if printable(address) != address:
            return "553 5.1.7 Bad sender address syntax"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTP, session: SmtpSession, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if printable(address) != address:  # a NUL or another control character: never an address
            return "553 5.1.3 Bad recipient address syntax"
        domain = address.rpartition("@")[2].strip().rstrip(">").lower()
        if domain != self.settings.domain:
            return "550 5.7.1 Relaying denied: not a local domain"
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: SmtpSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        mail_from = envelope.mail_from if envelope.mail_from not in (None, "<>") else ""
        loop = asyncio.get_running_loop()
        try:
            inbound_id = await loop.run_in_executor(self.store_pool, self.store, raw, mail_from,
                                                    list(envelope.rcpt_tos))
        except MailRejected:
            return "552 5.3.4 Message too big"
        except Exception:  # noqa: BLE001 - nothing is acknowledged that is not stored
            log.exception("storing an inbound message failed")
            return "451 4.3.0 Could not store the message; try again later"
        self.stored += 1
        log.info("inbound mail %s stored", inbound_id)  # the id stays here: it tells senders how much mail we get
        self.schedule(inbound_id)
        return "250 2.0.0 OK"

    # -- work in threads -------------------------------------------------------------------------

    def store(self, raw: bytes, mail_from: str, rcpt_tos: list[str]) -> int:
        with self.app.app_context():
            try:
                return gateway.receive(db.session(), raw, channel="smtp", envelope_from=mail_from,
                                       envelope_to=rcpt_tos, settings=self.settings)
            finally:
                db.session.remove()

    def schedule(self, inbound_id: int) -> None:
        if self.settings.mode == "queue":
            send_process(inbound_id, app=self.app)
            return
        with self._idle:
            self._outstanding += 1
        self.process_pool.submit(self._process, inbound_id)

    def _process(self, inbound_id: int) -> None:
        try:
            with self.app.app_context():
                try:
                    gateway.process(db.session(), inbound_id, self.settings)
                finally:
                    db.session.remove()
            self.processed += 1
        except Exception:  # noqa: BLE001 - the message stays stored; the sweep retries it
            log.exception("processing inbound mail %s failed", inbound_id)
        finally:
            with self._idle:
                self._outstanding -= 1
                self._idle.notify_all()

    def recover(self) -> None:
        """Process what was stored but never processed (a crash between 250 and processing)."""
        with self.app.app_context():
            try:
                ids = gateway.pending(db.session(), limit=10_000)
            finally:
                db.session.remove()
        for inbound_id in ids:
            self.schedule(inbound_id)

    def deliver_pending(self) -> None:
        from pbem.mail.delivery import deliver_pending
        with self.app.app_context():
            try:
                deliver_pending(db.session(), self.settings)
            except Exception:  # noqa: BLE001
                log.exception("delivering the outbox failed")
            finally:
                db.session.remove()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until every scheduled message is processed (tests, benchmarks)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._outstanding == 0, timeout)

    def close(self) -> None:
        self.store_pool.shutdown(wait=True)
        self.process_pool.shutdown(wait=True)


def send_process(inbound_id: int, *, app: Any = None) -> None:
    """Queue `pbem.process_inbound(id)`; if the broker is down the message stays stored and
    the sweep (`pbem.process_stored_mail`) finds it."""
    try:
        from pbem.services.queue import QUEUE, producer
        producer(app).send_task(PROCESS_TASK, args=[inbound_id], queue=QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue processing of inbound mail %s; the sweep will", inbound_id)


def controller(app: Flask, host: str | None = None, port: int | None = None,
               settings: MailSettings | None = None) -> tuple[Controller, GatewayHandler]:
    handler = GatewayHandler(app, settings)
    server = Controller(handler, hostname=host or handler.settings.smtpd_host,
                        port=port if port is not None else handler.settings.smtpd_port,
                        data_size_limit=MAX_BYTES, server_hostname=handler.settings.domain,
                        ident="pbem smtpd", decode_data=False)
    return server, handler


def main(argv: list[str] | None = None) -> int:
    """Run the gateway until interrupted (`pbem smtpd`).  PBEM_SMTPD_HOST / PBEM_SMTPD_PORT."""
    from pbem.app import create_app

    logging.basicConfig(level=os.environ.get("PBEM_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app({"RATELIMIT_ENABLED": False})
    server, handler = controller(app)
    server.start()
    log.info("pbem smtpd: listening on %s:%s for *@%s (%s processing)", server.hostname, server.port,
             handler.settings.domain, handler.settings.mode)
    print(f"pbem smtpd on {server.hostname}:{server.port} (mail for *@{handler.settings.domain})", flush=True)
    handler.recover()
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        while not stop.wait(60):
            if handler.settings.mode == "inline":
                handler.recover()  # a message whose processing failed on a passing error
                handler.deliver_pending()  # replies whose delivery failed
    finally:
        server.stop()
        handler.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
