"""`send_mail`: the one way the service sends mail.

A message is a row in `outbox`, added to the caller's unit of work, so a mail exists
exactly when the change that caused it was committed (a transactional outbox).  In
development the outbox page lists the messages; issue 5 adds a worker that delivers them.

A mail is plain text, or rich: an HTML alternative (`mail_delivery.html`) and files
(`outbox_parts`): inline pictures the HTML names as cid:<content_id>, and attachments.
Once the row's transaction commits it is handed on for delivery (pbem/outbox/delivery.py).
"""
from __future__ import annotations

import re
from typing import Collection, NamedTuple, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import OutboxMessage
from pbem.outbox.delivery import deliver_after_commit
from pbem.outbox.marker import with_marker, with_marker_html
from pbem.outbox.models import PART_NAME_MAX, MailDelivery, OutboxPart

SUBJECT_MAX = 200
_MIME_TYPE = re.compile(r"[a-z]+/[a-z0-9.+-]+")
_CONTENT_ID = re.compile(r"[A-Za-z0-9._-]{1,120}")


class MailPart(NamedTuple):
    """A file sent with a mail: `content_id` set = an inline picture (cid:<content_id> in
    the HTML), None = an attachment."""

    filename: str
    content_type: str
    data: bytes
    content_id: str | None = None


def send_mail(session: Session, to: str, subject: str, body: str, *, topic: str,
              reply_to: str | None = None, headers: dict[str, str] | None = None,
              key: str | None = None, html: str | None = None,
              parts: Sequence[MailPart] = (), key_checked: bool = False) -> OutboxMessage:
    """Queue a mail.  Optional (the email gateway, pbem/outbox/delivery.py): `reply_to` (a
    seat's token address), extra `headers` (In-Reply-To, Auto-Submitted, ...), and `key`, an
    idempotency key such as "turn:<game>:<seq>:<seat>": a second mail with the same key is
    not queued, the first one is returned.  `html`: an HTML alternative of `body`; `parts`:
    inline pictures and attachments (MailPart).  `key_checked`: the caller asked `queued_keys`
    in this transaction already."""
    # Headers cannot hold line breaks; a title with one would otherwise inject headers later.
    subject = " ".join(subject.split())[:SUBJECT_MAX]
    if key is not None and not key_checked:
        existing = _keyed(session, key)
        if existing is not None:
            return existing.message
    parts = _checked(parts)
    if reply_to is not None:  # a reply acts for a seat: mark where our text begins
        body, html = with_marker(body), with_marker_html(html) if html is not None else None
    message = OutboxMessage(to_address=to, subject=subject, body=body, topic=topic)
    session.add(message)
    if reply_to is not None or headers or key is not None or html is not None or parts:
        clean = {name: " ".join(str(value).split()) for name, value in (headers or {}).items()}
        session.add(MailDelivery(message=message, key=key, reply_to=reply_to, headers=clean or None,
                                 attempts=0, html=html))
    if parts:
        _add_parts(session, message, parts)
    deliver_after_commit(session, message)
    return message


def _checked(parts: Sequence[MailPart]) -> list[MailPart]:
    """Parts with names fit for MIME headers; a ValueError (before anything is queued) if not."""
    checked = []
    for part in parts:
        filename = " ".join(str(part.filename).split())  # header parameters hold no line breaks
        cid = part.content_id
        if not filename or len(filename) > PART_NAME_MAX or not _MIME_TYPE.fullmatch(part.content_type) \
                or (cid is not None and not _CONTENT_ID.fullmatch(cid)):
            raise ValueError(f"a mail part needs a short file name, a MIME type and a plain content id, "
                             f"not {part.filename!r}, {part.content_type!r}, {cid!r}")
        checked.append(MailPart(filename, part.content_type, bytes(part.data), cid))
    return checked


def _add_parts(session: Session, message: OutboxMessage, parts: Sequence[MailPart]) -> None:
    for position, part in enumerate(parts):
        session.add(OutboxPart(message=message, position=position, filename=part.filename,
                               content_type=part.content_type, content_id=part.content_id, data=part.data))


def _keyed(session: Session, key: str) -> MailDelivery | None:
    return session.scalar(select(MailDelivery).where(MailDelivery.key == key))


def queued(session: Session, key: str) -> bool:
    """Whether a mail with this idempotency key was queued already (sent or not): a caller
    whose mail is costly to build, or has side effects, asks before building it."""
    return _keyed(session, key) is not None


def queued_keys(session: Session, keys: Collection[str]) -> set[str]:
    """Those of these idempotency keys whose mail was queued already: `queued` for many
    mails in one query (a caller then sends the others with `key_checked=True`)."""
    return set(session.scalars(select(MailDelivery.key).where(MailDelivery.key.in_(list(keys))))) if keys else set()


def recent(session: Session, limit: int = 100) -> list[OutboxMessage]:
    return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)))
