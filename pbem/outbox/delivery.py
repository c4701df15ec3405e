"""Outbound: deliver outbox rows over SMTP, once each.

`deliver(session, outbox_id)` sends one row: it claims the row (a lease in `mail_delivery`,
so two senders never send it at once), sends it with smtplib, then sets `outbox.sent_at`.
A row with `sent_at` is never sent again; a failed attempt releases the lease and raises
`DeliveryError` for the caller (the Celery task `pbem.deliver_mail` retries with
exponential backoff, `backoff`).  The last of MAX_ATTEMPTS failed attempts marks the row
failed instead (`mail_delivery.failed_at`, logged for operators): it is never tried again.
The Message-ID is derived from the row, so the rare resend after a crash between the SMTP
answer and the commit is recognisably the same mail.

Without PBEM_SMTP_HOST nothing is sent: rows stay in the outbox (the development page).
When the row's transaction commits, `deliver_after_commit` hands it on: to the task
(PBEM_MAIL_PROCESS=queue) or, with no worker, delivers it right after the commit.  A row to
a suppressed address (pbem/mail/bounces.py) is withheld, never sent.
"""
from __future__ import annotations

import hashlib
import logging
import smtplib
import ssl
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from flask import current_app, has_app_context
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbem.models import EmailAddress, OutboxMessage, User, now
from pbem.outbox.bounce_address import bounce_address
from pbem.outbox.models import MailDelivery, OutboxPart
from pbem.outbox.settings import MailSettings, load, smtp_host
from pbem.tasks import QUEUE, after_commit, producer

log = logging.getLogger(__name__)

DELIVER_TASK = "pbem.deliver_mail"
LEASE = timedelta(minutes=5)  # a sender that died holding a row frees it after this
# Attempts before a row is given up: the first and 12 retries, 5 s doubling to an hour apart
# (about 10 hours in all), so a mail server down for an evening loses nothing.
MAX_ATTEMPTS = 13
FIRST_BACKOFF, LONGEST_BACKOFF = 5, 3600  # seconds
SMTP_TIMEOUT = 30.0
# Mail topics and the profile preference that turns them off (List-Unsubscribe).
PREFERENCES = {"turn": "notify_turn", "reminder": "notify_turn", "missed": "notify_turn",
               "deadline": "notify_turn", "queue-error": "notify_turn", "replacement": "notify_turn",
               "outage": "notify_turn", "result": "notify_results",
               "report": "notify_results", "notice": "notify_results", "invitation": "notify_invites",
               "moves": "opponent_moves", "press": "notify_press", "league": "notify_results"}
# What unsubscribing sets a preference to: False, or for opponents' moves (a choice) "off".
UNSUBSCRIBED = {"opponent_moves": "off"}
UNSUBSCRIBE_SALT = "pbem-unsubscribe"
# Mail a person asked for this very minute: without it nobody could sign in to lift a suppression.
EXEMPT_TOPICS = frozenset({"signin", "confirm"})
RECAP = "Since your last news:"  # heads the news part of a turn mail (pbem/services/moves_mail.py)


class DeliveryError(RuntimeError):
    """The SMTP server refused or could not be reached; try again later."""


def configured(settings: MailSettings | None = None) -> bool:
    return bool((settings or load()).smtp_host)


# ---- the message --------------------------------------------------------------------------------

def message_id(row: OutboxMessage, settings: MailSettings) -> str:
    seed = f"{row.id}:{row.created_at.isoformat()}:{row.to_address}".encode()
    return f"<outbox.{row.id}.{hashlib.sha256(seed).hexdigest()[:16]}@{settings.domain}>"


def unsubscribe_token(settings: MailSettings, user_id: int, preference: str) -> str:
    return URLSafeSerializer(settings.secret_key, salt=UNSUBSCRIBE_SALT).dumps([user_id, preference])


def read_unsubscribe_token(settings: MailSettings, token: str) -> tuple[int, str] | None:
    try:
        user_id, preference = URLSafeSerializer(settings.secret_key, salt=UNSUBSCRIBE_SALT).loads(token)
    except (BadSignature, ValueError, TypeError):
        return None
    if not isinstance(user_id, int) or preference not in set(PREFERENCES.values()):
        return None
    return user_id, preference


def build(session: Session, row: OutboxMessage, extra: MailDelivery | None,
          settings: MailSettings) -> EmailMessage:
    message = envelope(session, row, extra, settings)
    _set_body(session, message, row, extra)
    return message


def envelope(session: Session, row: OutboxMessage, extra: MailDelivery | None,
             settings: MailSettings) -> EmailMessage:
    """The mail's headers, as sent (the development outbox shows them too)."""
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = row.to_address
    message["Subject"] = row.subject
    message["Date"] = format_datetime(row.created_at)
    message["Message-ID"] = message_id(row, settings)
    message["X-Loop"] = settings.loop_marker
    headers = dict((extra.headers or {}) if extra is not None else {})
    message["Auto-Submitted"] = headers.pop("Auto-Submitted", "auto-generated")
    if extra is not None and extra.reply_to:
        message["Reply-To"] = extra.reply_to
    preference = PREFERENCES.get(row.topic)
    if preference is not None:
        user_id = session.scalar(select(EmailAddress.user_id).where(EmailAddress.address == row.to_address.lower()))
        if user_id is not None:
            link = f"{settings.base_url}/mail/unsubscribe/{unsubscribe_token(settings, user_id, preference)}"
            message["List-Unsubscribe"] = f"<{link}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    for name, value in headers.items():
        if name.lower() not in ("from", "to", "subject", "date", "message-id", "x-loop", "reply-to"):
            message[name] = value
    return message


def _set_body(session: Session, message: EmailMessage, row: OutboxMessage, extra: MailDelivery | None) -> None:
    """Plain text alone, or multipart/mixed [ multipart/related [ multipart/alternative
    [text, html], inline pictures ], attachments ]; each level only when it has content."""
    message.set_content(row.body)
    html = extra.html if extra is not None else None
    parts = parts_of(session, row.id)
    inline = [part for part in parts if part.content_id is not None and html is not None]
    if inline:  # related [ alternative [text, html], pictures ]
        message.make_related()
        message.get_payload()[0].add_alternative(html, subtype="html")
        for part in inline:
            maintype, subtype = part.content_type.split("/", 1)
            message.add_related(part.data, maintype, subtype, cid=f"<{part.content_id}>",
                                filename=part.filename, disposition="inline")
    elif html is not None:
        message.add_alternative(html, subtype="html")
    for part in parts:  # the first attachment wraps all of the above in multipart/mixed
        if part not in inline:
            maintype, subtype = part.content_type.split("/", 1)
            message.add_attachment(part.data, maintype, subtype, filename=part.filename)


def parts_of(session: Session, outbox_id: int) -> list[OutboxPart]:
    """The files sent with an outbox row, in their order."""
    return list(session.scalars(select(OutboxPart).where(OutboxPart.outbox_id == outbox_id)
                                .order_by(OutboxPart.position)))


# ---- sending --------------------------------------------------------------------------------------

def _claim(session: Session, outbox_id: int) -> OutboxMessage | None:
    """Take the lease on a row that is not sent yet (committed); None if sent or busy."""
    row = session.get(OutboxMessage, outbox_id, populate_existing=True)
    if row is None or row.sent_at is not None:
        session.rollback()
        return None
    if session.get(MailDelivery, outbox_id) is None:
        session.add(MailDelivery(outbox_id=outbox_id, attempts=0))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()  # another sender made it meanwhile
    moment = now()
    taken = session.execute(
        update(MailDelivery).where(MailDelivery.outbox_id == outbox_id, MailDelivery.failed_at.is_(None),
                                   (MailDelivery.claimed_at.is_(None)) | (MailDelivery.claimed_at < moment - LEASE))
        .values(claimed_at=moment, retry_at=moment + LEASE, attempts=MailDelivery.attempts + 1)
        .execution_options(synchronize_session=False))
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        return None
    session.commit()
    row = session.get(OutboxMessage, outbox_id, populate_existing=True)
    if row is None or row.sent_at is not None:
        return None
    return row


def _smtp(settings: MailSettings) -> smtplib.SMTP:
    assert settings.smtp_host
    if settings.smtp_tls == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT,
                                                context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT)
        if settings.smtp_tls == "starttls":
            client.starttls(context=ssl.create_default_context())
    if settings.smtp_user:
        client.login(settings.smtp_user, settings.smtp_password or "")
    return client


def deliver(session: Session, outbox_id: int, settings: MailSettings | None = None) -> str:
    """Send one outbox row: "sent", "already" (sent before, given up, or another sender holds
    it) or "unconfigured" (no SMTP: it stays in the outbox) or "withheld" (never sent: its
    recipient is suppressed after bounces, or a newer turn mail of the same game supersedes it)
    or "failed" (this was the last of MAX_ATTEMPTS).  Raises DeliveryError to be retried."""
    settings = settings or load()
    if not settings.smtp_host:
        return "unconfigured"
    row = _claim(session, outbox_id)
    if row is None:
        return "already"
    dead = None if row.topic in EXEMPT_TOPICS else suppressed(session, row.to_address)
    if dead is not None:
        return _withhold(session, outbox_id, f"not sent: {dead.address} is suppressed after bounces "
                                             f"({dead.suppressed_reason})")
    extra = session.get(MailDelivery, outbox_id)
    newer = _newer_turn_mail(session, row, extra)
    if newer is not None:
        return _withhold(session, outbox_id, f"not sent: outbox {newer} is a newer turn mail of the same seat")
    message = build(session, row, extra, settings)
    envelope = bounce_address(settings, row.id, row.to_address)  # VERP: a bounce names this row
    attempts, topic = extra.attempts if extra is not None else 1, row.topic
    session.rollback()  # no transaction held open across the network
    try:
        with _smtp(settings) as client:
            client.send_message(message, from_addr=envelope, to_addrs=[row.to_address])
    except (smtplib.SMTPException, OSError) as error:
        reason = f"{type(error).__name__}: {error}"[:1000]
        last = attempts >= MAX_ATTEMPTS
        moment = now()
        session.execute(update(MailDelivery).where(MailDelivery.outbox_id == outbox_id).values(
            claimed_at=None, last_error=reason, retry_at=None if last else moment + backoff(attempts),
            failed_at=moment if last else None))
        session.commit()
        if last:  # the id, topic and server's answer only: the body may hold a sign-in link
            log.error("outbox %s (%s) given up after %d failed attempts: %s", outbox_id, topic, attempts, reason)
            return "failed"
        raise DeliveryError(f"outbox {outbox_id}: {error}") from error
    session.execute(update(OutboxMessage).where(OutboxMessage.id == outbox_id, OutboxMessage.sent_at.is_(None))
                    .values(sent_at=now()).execution_options(synchronize_session=False))
    session.execute(update(MailDelivery).where(MailDelivery.outbox_id == outbox_id).values(last_error=None))
    session.commit()
    return "sent"


def _newer_turn_mail(session: Session, row: OutboxMessage, extra: MailDelivery | None) -> int | None:
    """A later "your turn" mail to the same seat (key "turn:<game>:<seq>:<seat>"): after a
    backlog (SMTP down, a slow queue) only the newest one is worth sending.  A mail with news
    of the opponents' moves is sent anyway: the news is told once, in that mail only."""
    key = extra.key if extra is not None else None
    if row.topic != "turn" or key is None or key.count(":") != 3 or RECAP in row.body:
        return None
    _, game, _, seat = key.split(":")
    return session.scalar(select(MailDelivery.outbox_id).where(
        MailDelivery.key.startswith(f"turn:{game}:", autoescape=True),
        MailDelivery.key.endswith(f":{seat}", autoescape=True),
        MailDelivery.outbox_id > row.id).limit(1))


def suppressed(session: Session, address: str) -> EmailAddress | None:
    """The address's row if no mail may go to it (suppressed after bounces)."""
    return session.scalar(select(EmailAddress).where(EmailAddress.address == address.lower(),
                                                     EmailAddress.suppressed_at.is_not(None)))


def _withhold(session: Session, outbox_id: int, reason: str) -> str:
    """The row is never sent nor retried (a suppressed recipient, a superseded turn mail), and says why."""
    session.execute(update(MailDelivery).where(MailDelivery.outbox_id == outbox_id)
                    .values(claimed_at=None, withheld_at=now(), last_error=reason[:1000]))
    session.commit()
    return "withheld"


def backoff(attempts: int) -> timedelta:
    """The wait after `attempts` failed attempts: 5 s, 10 s, 20 s, ... at most an hour."""
    return timedelta(seconds=min(LONGEST_BACKOFF, FIRST_BACKOFF * 2 ** max(0, attempts - 1)))


def _to_send(session: Session, *conditions: Any, limit: int) -> list[int]:
    """Unsent rows that may still go out (not withheld, not given up), oldest first."""
    return list(session.scalars(
        select(OutboxMessage.id).outerjoin(MailDelivery, MailDelivery.outbox_id == OutboxMessage.id)
        .where(OutboxMessage.sent_at.is_(None), MailDelivery.withheld_at.is_(None),
               MailDelivery.failed_at.is_(None), *conditions)
        .order_by(OutboxMessage.id).limit(limit)))


def unsent(session: Session, limit: int = 100) -> list[int]:
    """Rows to send whose backoff is over: for a caller with no retrying task (the smtpd's loop)."""
    return _to_send(session, MailDelivery.retry_at.is_(None) | (MailDelivery.retry_at <= now()), limit=limit)


def lost(session: Session, older_than: timedelta = timedelta(minutes=2), limit: int = 100) -> list[int]:
    """Rows no task looks after, for the sweep: never tried within `older_than` (their task
    was lost), or not retried a lease after their retry fell due (the retry was lost; rows
    tried before migration 0008 have no retry time and count as never tried).  Rows given up
    or withheld are left alone, so the sweep never sends one for ever."""
    moment = now()
    return _to_send(session, (MailDelivery.retry_at.is_(None) & (OutboxMessage.created_at < moment - older_than))
                    | (MailDelivery.retry_at < moment - LEASE), limit=limit)


def deliver_pending(session: Session, settings: MailSettings | None = None, limit: int = 100) -> dict[str, int]:
    """Send every unsent row (oldest first), as far as SMTP lets us; counts by outcome."""
    settings = settings or load()
    counts: dict[str, int] = {}
    if not settings.smtp_host:
        return counts
    for outbox_id in unsent(session, limit):
        try:
            outcome = deliver(session, outbox_id, settings)
        except DeliveryError:
            log.warning("delivery of outbox %s failed; it stays queued", outbox_id, exc_info=True)
            outcome = "failed"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def deliver_after_commit(session: Session, message: OutboxMessage | int) -> None:
    """Once the session commits: queue `pbem.deliver_mail` for the row (an ORM object, or the
    id of one inserted with Core), or (no worker) deliver it at once in a session of its own.
    Nothing without SMTP."""
    if not smtp_host():
        return
    try:
        settings = load()
    except RuntimeError:
        return
    bind = session.get_bind()
    app = _current_app()

    def outbox_id() -> int | None:
        if isinstance(message, int):
            return message
        identity = inspect(message).identity
        return identity[0] if identity else None

    if settings.mode == "queue":
        def send() -> None:
            ident = outbox_id()
            if ident is not None:
                send_delivery(ident, app=app)
        after_commit(session, send)
        return

    def now_inline() -> None:
        ident = outbox_id()
        if ident is None:
            return
        with Session(bind) as own:
            try:
                deliver(own, ident, settings)
            except DeliveryError:
                log.warning("delivery of outbox %s failed; it stays queued", ident, exc_info=True)
    after_commit(session, now_inline)


def _current_app() -> Any:
    return current_app._get_current_object() if has_app_context() else None  # type: ignore[attr-defined]


def send_delivery(outbox_id: int, *, app: Any = None, countdown: float | None = None) -> None:
    """Send the task `pbem.deliver_mail(outbox_id)`; a broker that is down loses nothing (the
    row stays unsent and the sweep `pbem.deliver_outbox` finds it)."""
    try:
        producer(app).send_task(DELIVER_TASK, args=[outbox_id], countdown=countdown, queue=QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue the delivery of outbox %s; the sweep will", outbox_id)


# ---- unsubscribing ---------------------------------------------------------------------------------

def unsubscribe(session: Session, settings: MailSettings, token: str) -> str | None:
    """Turn off the preference named by a signed List-Unsubscribe token; which one, or None."""
    found = read_unsubscribe_token(settings, token)
    if found is None:
        return None
    user = session.get(User, found[0])
    if user is None:
        return None
    setattr(user, found[1], UNSUBSCRIBED.get(found[1], False))
    session.commit()
    return found[1]
