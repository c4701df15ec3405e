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


def send_mail(session: Session, to: str, subject: str, body: str, *, kind: str) -> OutboxMessage:
    # Headers cannot hold line breaks; a title with one would otherwise inject headers later.
    subject = " ".join(subject.split())[:SUBJECT_MAX]
    message = OutboxMessage(to_address=to, subject=subject, body=body, kind=kind)
    session.add(message)
    return message


def recent(session: Session, limit: int = 100) -> list[OutboxMessage]:
    return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)))
