"""`send_mail`: the one way the service sends mail.

A message is a row in `outbox`, added to the caller's unit of work, so a mail exists
exactly when the change that caused it was committed (a transactional outbox).  In
development the outbox page lists the messages; issue 5 adds a worker that delivers them.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import OutboxMessage

SUBJECT_MAX = 200


def send_mail(session: Session, to: str, subject: str, body: str, *, kind: str,
              reply_to: str | None = None, headers: dict[str, str] | None = None,
              key: str | None = None) -> OutboxMessage:
    """Queue a mail.  Optional (the email gateway, pbem/mail/delivery.py): `reply_to` (a
    seat's token address), extra `headers` (In-Reply-To, Auto-Submitted, ...), and `key`, an
    idempotency key such as "turn:<game>:<seq>:<seat>": a second mail with the same key is
    not queued, the first one is returned."""
    # Headers cannot hold line breaks; a title with one would otherwise inject headers later.
    subject = " ".join(subject.split())[:SUBJECT_MAX]
    if key is not None:
        from pbem.mail.models import MailDelivery
        existing = session.scalar(select(MailDelivery).where(MailDelivery.key == key))
        if existing is not None:
            return existing.message
    message = OutboxMessage(to_address=to, subject=subject, body=body, kind=kind)
    session.add(message)
    if reply_to is not None or headers or key is not None:
        from pbem.mail.models import MailDelivery
        clean = {name: " ".join(str(value).split()) for name, value in (headers or {}).items()}
        session.add(MailDelivery(message=message, key=key, reply_to=reply_to, headers=clean or None,
                                 attempts=0))
    from pbem.mail.delivery import deliver_after_commit
    deliver_after_commit(session, message)
    return message


def recent(session: Session, limit: int = 100) -> list[OutboxMessage]:
    return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)))
