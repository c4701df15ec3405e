"""The SMTP side of the gateway (aiosmtpd): `pbem smtpd`, 127.0.0.1:2525 by default.

For each message: the raw bytes are stored and committed (in a worker thread, off the event
loop) before the 250 goes out; a database failure answers 451 (try again later), so the
sending server keeps the mail.  Then background threads hand the messages on
(`gateway.start_processing`): to the Celery task `pbem.process_inbound`
(PBEM_MAIL_PROCESS=queue; it follows PBEM_ADVANCE, so production and `make run` queue), or
they process them themselves (inline: a set-up without a worker, tests).  Each
game's mails keep one thread (a lane), in order of arrival; different games' mails go on side
by side (one lane in all on SQLite, which has one writer).  In inline
mode this process also delivers the replies when SMTP is configured (`serve`).

Only recipients at our mail domain are accepted (it is no relay); SIZE is announced and a
message over MAX_BYTES is refused at DATA with 552.  An envelope address with a control
character (a NUL, ...) is refused with 553: a permanent answer, never a 451 the sender
would retry for days.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session as SmtpSession
from flask import Flask
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.mail import gateway, store
from pbem.mail.inbound import MAX_BYTES, MailConfig, MailRejected, addressed_token, printable
from pbem.outbox.delivery import deliver_pending
from pbem.outbox.settings import MailSettings, load

log = logging.getLogger(__name__)

MAX_RECIPIENTS = 20
# Games whose mails are processed at once, each on a connection of the pool while it works
# (with the store threads, the router and the minute loop: 14, within the pool's 5 + 10).  A
# mail mostly waits for the database, so lanes overlap even on one core: on a loaded
# 2-core machine 8 lanes processed 20-30 % more mail a second than 4 (bench/gateway.py, two
# paired runs).
PROCESS_LANES = 8
GAMES_KEPT = 10_000  # tokens whose game the router remembers


class GatewayHandler:
    """aiosmtpd handler: accept our domain's recipients, store, acknowledge, then process."""

    def __init__(self, app: Flask, settings: MailSettings | None = None, *, store_threads: int = 4,
                 lanes: int = PROCESS_LANES):
        self.app = app
        with app.app_context():
            self.settings = settings or load()
            if db.engine.dialect.name == "sqlite" or self.settings.mode == "queue":
                lanes = 1  # SQLite has one writer; queued, the workers run games side by side
        self.store_pool = ThreadPoolExecutor(store_threads, thread_name_prefix="smtpd-store")
        # One thread per lane, so a lane's messages go on in order of arrival; one thread
        # finds each message's lane (its game), after the 250 and in the same order.
        self.lanes = [ThreadPoolExecutor(1, thread_name_prefix=f"smtpd-process-{n}") for n in range(lanes)]
        self.router = ThreadPoolExecutor(1, thread_name_prefix="smtpd-route")
        self.config = MailConfig.of(self.settings)
        self._games: dict[str, int] = {}  # token -> game: a token names one game for ever
        # Messages a lane already processed as followers of an earlier one of their seat
        # (`gateway.process`): their own turn on the lane has nothing left to do.
        self._followed: set[int] = set()
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
        self.schedule(inbound_id, list(envelope.rcpt_tos))
        return "250 2.0.0 OK"

    # -- work in threads -------------------------------------------------------------------------

    def store(self, raw: bytes, mail_from: str, rcpt_tos: list[str]) -> int:
        with self.app.app_context():
            try:
                return store.receive(db.session(), raw, channel="smtp", envelope_from=mail_from,
                                     envelope_to=rcpt_tos, settings=self.settings)
            finally:
                db.session.remove()

    def schedule(self, inbound_id: int, rcpt_tos: list[str] | None = None) -> None:
        """Process the message on its game's lane (a message for no game: any lane).  The game
        is found by the token of `rcpt_tos` (None: of the stored message)."""
        with self._idle:
            self._outstanding += 1
        if len(self.lanes) == 1:
            self.lanes[0].submit(self._process, inbound_id)
        else:
            self.router.submit(self._route, inbound_id, rcpt_tos)

    def _route(self, inbound_id: int, rcpt_tos: list[str] | None) -> None:
        try:
            game_id = self._game_of(inbound_id, rcpt_tos)
        except Exception:  # noqa: BLE001 - the database is away: any lane will do, processing retries
            log.exception("finding the game of inbound mail %s failed", inbound_id)
            game_id = None
        self.lanes[(game_id if game_id is not None else inbound_id) % len(self.lanes)].submit(self._process, inbound_id)

    def _process(self, inbound_id: int) -> None:
        try:
            if inbound_id in self._followed:  # done already, after an earlier mail of its seat
                self._followed.discard(inbound_id)
            else:
                with self.app.app_context():
                    try:
                        gateway.start_processing(db.session(), inbound_id, self.settings, app=self.app,
                                                 followed=self._followed)
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
                ids = store.pending(db.session(), limit=10_000)
            finally:
                db.session.remove()
        for inbound_id in ids:
            self.schedule(inbound_id)

    def _game_of(self, inbound_id: int, rcpt_tos: list[str] | None) -> int | None:
        """The game of the message's token: remembered, or looked up (and then remembered)."""
        # As `store.receive` finds the token; a message stored before (`recover`): as stored.
        token = addressed_token(b"", config=self.config, envelope_to=[printable(a) for a in rcpt_tos]) \
            if rcpt_tos is not None else self._read(lambda session: store.token_of(session, inbound_id))
        if token is None:
            return None
        if token not in self._games:
            game_id = self._read(lambda session: store.game_of_token(session, token))
            if game_id is None:
                return None
            if len(self._games) >= GAMES_KEPT:
                self._games.clear()
            self._games[token] = game_id
        return self._games[token]

    def _read(self, query: Callable[[Session], Any]) -> Any:
        with self.app.app_context():
            try:
                return query(db.session())
            finally:
                db.session.remove()

    def deliver_pending(self) -> None:
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
        self.router.shutdown(wait=True)
        for lane in self.lanes:
            lane.shutdown(wait=True)


def controller(app: Flask, host: str | None = None, port: int | None = None,
               settings: MailSettings | None = None) -> tuple[Controller, GatewayHandler]:
    handler = GatewayHandler(app, settings)
    server = Controller(handler, hostname=host or handler.settings.smtpd_host,
                        port=port if port is not None else handler.settings.smtpd_port,
                        data_size_limit=MAX_BYTES, server_hostname=handler.settings.domain,
                        ident="pbem smtpd", decode_data=False)
    return server, handler


def serve(app: Flask) -> int:
    """Run the gateway for `app` until interrupted (`pbem smtpd`).  PBEM_SMTPD_HOST / PBEM_SMTPD_PORT."""
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
