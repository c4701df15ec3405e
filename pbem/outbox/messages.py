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
from contextlib import contextmanager
from functools import cache
from typing import Any, Collection, Iterator, NamedTuple, Sequence

from sqlalchemy import Select, bindparam, event, func, insert, select, true
from sqlalchemy.orm import Session

from pbem.models import OutboxMessage, now
from pbem.outbox.delivery import deliver_after_commit
from pbem.outbox.marker import with_marker, with_marker_html
from pbem.outbox.models import PART_NAME_MAX, MailDelivery, OutboxPart
from pbem.writes import Write, execute, row_insert, together

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
    if key is not None and not key_checked:
        existing = _keyed(session, key)
        if existing is not None:
            return existing.message
    parts = _checked(parts)
    subject, body = _clean(subject), _marked(body, reply_to)
    if reply_to is not None and html is not None:
        html = with_marker_html(html)
    message = OutboxMessage(to_address=to, subject=subject, body=body, topic=topic)
    session.add(message)
    if reply_to is not None or headers or key is not None or html is not None or parts:
        delivery = MailDelivery(message=message, key=key, reply_to=reply_to, headers=_clean_headers(headers),
                                attempts=0, html=html)
        session.add(delivery)
        if key is not None:
            session.info.setdefault(_ADDED, {})[key] = delivery
    if parts:
        _add_parts(session, message, parts)
    deliver_after_commit(session, message)
    return message


class Mail(NamedTuple):
    """A plain-text mail for `send_mails`: what `send_mail` takes without HTML or parts."""

    to: str
    subject: str
    body: str
    topic: str
    reply_to: str | None = None
    key: str | None = None
    headers: dict[str, str] | None = None


def send_mails(session: Session, mails: Sequence[Mail], *, writes: Sequence[Write] = ()) -> list[int]:
    """Queue these plain-text mails, whose keys the caller checked with `queued_keys` in this
    transaction: `send_mail(..., key_checked=True)` for each, with Core statements instead of
    the ORM's unit of work (the advance's turn and result mails, issue 18).  On PostgreSQL one
    statement however many: each outbox row and its delivery row in data-modifying CTEs, and
    `writes` (Core writes of other tables, `pbem.writes.together`); inside `holding`, not even
    that: the holder sends them with its own writes (`send_held`).  The new rows' ids, in the
    order of `mails` (none while held)."""
    held = session.info.get(_HELD)
    if held is not None:
        held.mails.extend(mails)
        held.writes.extend(writes)
        return []
    if mails and session.get_bind().dialect.name == "postgresql":
        return _send_together(session, mails, writes)[0]
    # SQLite has no data-modifying CTEs: a statement per row
    execute(session, writes)
    ids = [_insert_one(session, _outbox_row(mail), _delivery_row(mail)) for mail in mails]
    for ident in ids:
        deliver_after_commit(session, ident)
    return ids


class Held(NamedTuple):
    """Mails (and the writes that go with them) `send_mails` holds for the caller (`holding`)."""

    mails: list[Mail]
    writes: list[Write]


_HELD = "pbem.held_mails"  # session.info, while `holding`


@contextmanager
def holding(session: Session) -> Iterator[Held | None]:
    """Within: on PostgreSQL, `send_mails` holds its mails for the caller, who sends them with a
    statement of its own (`send_held`), one round trip for both (the advance: its UPDATE of the
    game).  None elsewhere: there they are sent as usual."""
    if session.get_bind().dialect.name != "postgresql":
        yield None
        return
    session.info[_HELD] = held = Held([], [])
    try:
        yield held
    finally:
        session.info.pop(_HELD, None)


def send_held(session: Session, mails: Sequence[Mail], writes: Sequence[Write], checked: Write | None) -> int:
    """Held `mails` (at least one), `writes` and `checked` (a write whose statement RETURNs the
    rows it touched) in one statement; how many rows `checked` touched (0 without it)."""
    return _send_together(session, mails, writes, checked)[1]


def _send_together(session: Session, mails: Sequence[Mail], writes: Sequence[Write],
                   checked: Write | None = None) -> tuple[list[int], int]:
    rows = [(_outbox_row(mail), _delivery_row(mail)) for mail in mails]
    params = {f"m{n}_{key}": value for n, (outbox, delivery) in enumerate(rows)
              for key, value in {**outbox, **(delivery or {})}.items()}
    statement = _one_statement(tuple(None if delivery is None else tuple(delivery) for _, delivery in rows),
                               None if checked is None else checked.statement)
    found = list(together(session, statement, {**params, **(checked.params if checked else {})}, writes).one())
    count = found.pop() if checked is not None else 0
    for ident in found:
        deliver_after_commit(session, ident)
    return found, int(count)


_OUTBOX = OutboxMessage.__table__
_DELIVERY = MailDelivery.__table__
_OUTBOX_COLUMNS = ("to_address", "subject", "body", "topic", "created_at")


def _outbox_row(mail: Mail) -> dict[str, Any]:
    return {"to_address": mail.to, "subject": _clean(mail.subject), "body": _marked(mail.body, mail.reply_to),
            "topic": mail.topic, "created_at": now()}


def _delivery_row(mail: Mail) -> dict[str, Any] | None:
    """The mail's `mail_delivery` row less its outbox id (None: it needs none, as in `send_mail`);
    headers only when it has some (their column is JSON: an absent value stays SQL NULL)."""
    headers = _clean_headers(mail.headers)
    if mail.reply_to is None and mail.key is None and headers is None:
        return None
    row = {"key": mail.key, "reply_to": mail.reply_to, "attempts": 0}
    return row if headers is None else {**row, "headers": headers}


def _clean_headers(headers: dict[str, str] | None) -> dict[str, str] | None:
    """Header values on one line each (a line break would inject headers); None for none."""
    return {name: " ".join(str(value).split()) for name, value in headers.items()} if headers else None


def _insert_one(session: Session, outbox: dict[str, Any], delivery: dict[str, Any] | None) -> int:
    ident = session.execute(insert(_OUTBOX), outbox).inserted_primary_key[0]
    if delivery is not None:
        session.execute(insert(_DELIVERY), {"outbox_id": ident, **delivery})
    return int(ident)


@cache
def _one_statement(delivered: tuple[tuple[str, ...] | None, ...], checked: Any = None) -> Select[Any]:
    """WITH o0 AS (INSERT INTO outbox ... RETURNING id), d0 AS (INSERT INTO mail_delivery
    SELECT o0.id, ... FROM o0), o1 ... SELECT o0.id, o1.id, ...: one row of the new ids; each
    of `delivered` names the columns of a mail's delivery row (None: it has none).  Values
    bound as "m<n>_<column>".  `checked`: a write RETURNING the rows it touched, in a CTE too;
    their number ends the row."""
    inserted, deliveries = [], []
    for n, delivery in enumerate(delivered):
        row = row_insert(_OUTBOX, f"m{n}", _OUTBOX_COLUMNS).returning(_OUTBOX.c.id).cte(f"o{n}")
        inserted.append(row)
        if delivery is not None:
            deliveries.append(insert(_DELIVERY).from_select(
                ["outbox_id", *delivery],
                select(row.c.id, *(bindparam(f"m{n}_{name}", type_=_DELIVERY.c[name].type).label(name)
                                   for name in delivery))).cte(f"d{n}"))
    columns: list[Any] = [row.c.id.label(row.name) for row in inserted]
    if checked is not None:
        touched = checked.cte("checked")
        columns.append(select(func.count()).select_from(touched).scalar_subquery().label("checked"))
    rows_joined = inserted[0]
    for row in inserted[1:]:  # one row each: side by side
        rows_joined = rows_joined.join(row, true())
    return select(*columns).select_from(rows_joined).add_cte(*deliveries)


def _clean(subject: str) -> str:
    """Headers cannot hold line breaks; a title with one would otherwise inject headers later."""
    return " ".join(subject.split())[:SUBJECT_MAX]


def _marked(body: str, reply_to: str | None) -> str:
    """A reply to a mail with a Reply-To acts for a seat: mark where our text begins."""
    return with_marker(body) if reply_to is not None else body


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
    """The delivery row of the mail with this key: added in this transaction, or stored.  Read
    without flushing the session first: a flush for every keyed mail cost the deadline tick a
    third of its time (issue 18), and the rows this transaction added are known (`_ADDED`)."""
    added = session.info.get(_ADDED, {}).get(key)
    if added is not None and added in session:  # not undone by a rollback since
        return added
    with session.no_autoflush:
        return session.scalar(select(MailDelivery).where(MailDelivery.key == key))


_ADDED = "pbem.keyed_mails"  # session.info: key -> the MailDelivery `send_mail` added in this transaction


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _forget_added(session: Session, *_: Any) -> None:
    session.info.pop(_ADDED, None)


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
