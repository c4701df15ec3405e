"""Inbound mail as stored: every channel (SMTP, webhook, IMAP) stores the raw message first,
then processes it once (pbem/mail/gateway.py).

- `receive`: store and commit, nothing else; only then may the channel acknowledge it
  (SMTP 250, webhook 200), so nothing acknowledged is ever lost.
- Leasing: whoever processes a stored message takes its lease (`lease`); one that died frees
  it after PROCESS_LEASE, and `pending` lists what nobody processed (for the sweep).
- Order: a seat's mails act in order of arrival (`waits_for_earlier`, `lease_next`).
- Replays: the first mail with a Message-ID claims it (its `dedup_key`, set after `admission`
  found no replay); a replay of it, or of its body under a new Message-ID, is recognised.
- `admission`: the order and replay checks (and the reply budget's counts) in one statement.
- `finish`: a message's final status and reason.
"""
from __future__ import annotations

import hashlib
from datetime import timedelta
from functools import lru_cache
from typing import Any, NamedTuple, Sequence

from sqlalchemy import Select, bindparam, insert, inspect, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from pbem.mail.inbound import MAX_BYTES, InboundMail, MailConfig, MailRejected, addressed_token, printable
from pbem.mail.models import REASON_MAX, InboundMessage
from pbem.models import now
from pbem.outbox.messages import Mail, send_mails
from pbem.outbox.models import PressToken, SeatToken
from pbem.outbox.settings import MailSettings, load
from pbem.writes import row_write

CHANNELS = ("smtp", "webhook", "imap")
PROCESS_LEASE = timedelta(minutes=5)  # a processor that died frees the message after this
# The reason of a held message an operator released (pbem/mail/review.py): processing then
# skips the DMARC check, and the final reason keeps the operator's name.
RELEASED = "released by "


def receive(session: Session, raw: bytes, *, channel: str, envelope_from: str | None = None,
            envelope_to: list[str] | tuple[str, ...] | None = None, settings: MailSettings | None = None) -> int:
    """Store a raw message durably and return its id.  Raise MailRejected("too_large") for one
    over MAX_BYTES (the channel refuses it: SMTP 552, webhook 413).

    `envelope_from`: SMTP MAIL FROM ("" for the null sender), None when unknown (IMAP);
    `envelope_to`: RCPT TO, None when unknown (then the headers name the recipients)."""
    if channel not in CHANNELS:
        raise ValueError(f"unknown channel {channel!r}")
    if len(raw) > MAX_BYTES:
        raise MailRejected("too_large", f"{len(raw)} bytes, at most {MAX_BYTES}")
    if envelope_to is not None:  # the sender's words, kept as text: printable, like the headers
        envelope_to = [printable(address) for address in envelope_to]
    token = addressed_token(raw, config=MailConfig.of(settings or load()), envelope_to=envelope_to)
    # A Core INSERT: the unit of work cost more CPU than the round trip, and nothing here reads the row.
    inbound_id: int = session.execute(_STORING, {
        "channel": channel, "received_at": now(), "raw": bytes(raw), "size": len(raw),
        "envelope_from": None if envelope_from is None else printable(envelope_from)[:256],
        "envelope_to": None if envelope_to is None else ",".join(envelope_to)[:2000],
        "status": InboundMessage.STORED, "token": token}).scalar_one()
    session.commit()
    return inbound_id


_STORING = insert(InboundMessage.__table__).returning(InboundMessage.__table__.c.id)


def pending(session: Session, limit: int = 100) -> list[int]:
    """Stored messages nobody processed (a crash, a lost task), oldest first."""
    stale = now() - PROCESS_LEASE
    return list(session.scalars(select(InboundMessage.id).where(
        InboundMessage.status == InboundMessage.STORED,
        InboundMessage.processed_at.is_(None) | (InboundMessage.processed_at < stale))
        .order_by(InboundMessage.id).limit(limit)))


def game_of_token(session: Session, token: str) -> int | None:
    """The game a seat or press token belongs to (revoked or not; None: no such token): what
    keeps a game's mails in one line while other games' mails go on beside it.  A token
    names one game for ever, so the answer may be kept."""
    found = session.execute(select(SeatToken.game_id).where(SeatToken.token == token).union_all(
        select(PressToken.game_id).where(PressToken.token == token)).limit(1)).first()
    return None if found is None else found[0]


# ---- the lease ------------------------------------------------------------------------------------

def lease(session: Session, inbound_id: int) -> InboundMessage | None:
    """Take the lease of a stored message nobody holds (or whose holder died) and return the
    message, read in the same statement; None if somebody holds it or it is not stored.  Not committed: it goes with the caller's
    first commit, and until then the row lock keeps any other taker waiting (a process that
    dies leaves the message untaken, for the sweep)."""
    return _taken(session, _TAKING, inbound_id)


def _taken(session: Session, taking: Select[Any], inbound_id: int) -> InboundMessage | None:
    moment = now()
    return session.scalars(taking, {"inbound_id": inbound_id, "moment": moment,
                                    "stale": moment - PROCESS_LEASE}).first()


def _taking(which: Any) -> Select[Any]:
    """The lease of the message whose id is `which`, if it is stored and nobody holds it, read
    into the session.  A Core UPDATE under an ORM select, not an ORM UPDATE: SQLAlchemy copies
    an ORM UPDATE at each execution, and then works out its cache key anew every time."""
    table = InboundMessage.__table__
    taking = update(table).where(
        table.c.id == which, table.c.status == InboundMessage.STORED,
        table.c.processed_at.is_(None) | (table.c.processed_at < bindparam("stale"))) \
        .values(processed_at=bindparam("moment")).returning(*table.c)
    return select(InboundMessage).from_statement(taking).execution_options(populate_existing=True)


# The gateway's statements are built once: building one costs more than running it.
_TAKING = _taking(bindparam("inbound_id"))


def free(session: Session, inbound_id: int) -> None:
    """Give up the lease of a message left stored, so that a retry may take it at once (if the
    database refuses this too, the lease simply runs out)."""
    try:
        session.execute(update(InboundMessage).where(
            InboundMessage.id == inbound_id, InboundMessage.status == InboundMessage.STORED)
            .values(processed_at=None).execution_options(synchronize_session=False))
        session.commit()
    except OperationalError:
        session.rollback()


def status_of(session: Session, inbound_id: int) -> str | None:
    """The message's status (None: no such message), its row left unread: it holds the raw mail."""
    return session.scalar(_STATUS, {"inbound_id": inbound_id})


_STATUS = select(InboundMessage.status).where(InboundMessage.id == bindparam("inbound_id"))


def untaken(session: Session, inbound_id: int) -> bool:
    """Whether nobody holds the stored mail's lease."""
    return session.scalar(select(InboundMessage.processed_at).where(InboundMessage.id == inbound_id)) is None


def finish(session: Session, row: InboundMessage | None, status: str, reason: str | None = None, *,
           mails: Sequence[Mail] = (), **fields: Any) -> str:
    """Record the message's final status and reason (and `fields`), committed; the status.
    `mails` (its reply) are written with it, in one statement."""
    if row is None:
        return status
    if reason and (row.reason or "").startswith(RELEASED):  # keep who released it
        reason = f"{reason}; {row.reason}"[:REASON_MAX]
    row.status, row.reason, row.processed_at = status, reason, now()
    for name, value in fields.items():
        setattr(row, name, value)
    if mails:
        _written_with(session, row, mails)
    session.commit()
    return status


def _written_with(session: Session, row: InboundMessage, mails: Sequence[Mail]) -> None:
    """The row's unsaved changes and `mails` in one statement (`send_mails`), instead of the
    unit of work's UPDATE and two INSERTs a mail at the commit; the row is clean after it."""
    state = inspect(row)
    changed = {prop.key: state.attrs[prop.key].value for prop in state.mapper.column_attrs
               if state.attrs[prop.key].history.added}
    with session.no_autoflush:  # the row's changes go in with the mails, not before them
        send_mails(session, mails, writes=[row_write(_INBOUND, "inbound", row.id, changed)])
    for key, value in changed.items():
        set_committed_value(row, key, value)


_INBOUND = InboundMessage.__table__


# ---- a seat's mails in order ------------------------------------------------------------------------

def token_of(session: Session, inbound_id: int) -> str | None:
    return session.scalar(select(InboundMessage.token).where(InboundMessage.id == inbound_id))


def waits_for_earlier(session: Session, token: str | None, inbound_id: int) -> bool:
    """Whether an earlier mail to the same seat token is still stored (unprocessed)."""
    return token is not None and session.scalar(_EARLIER, {"token": token, "inbound_id": inbound_id}) is not None


_EARLIER = select(InboundMessage.id).where(InboundMessage.token == bindparam("token"),
                                           InboundMessage.id < bindparam("inbound_id"),
                                           InboundMessage.status == InboundMessage.STORED).limit(1)


def lease_next(session: Session, inbound_id: int) -> InboundMessage | None:
    """Take the lease of the next stored mail to the same seat token as `inbound_id` that nobody
    is processing, and return it (as `lease`: one statement finds and takes it); None if there is
    none, or another processor took it meanwhile (that one goes on along the seat's mails)."""
    return _taken(session, _TAKING_NEXT, inbound_id)


_WAITING_AFTER = select(InboundMessage.id).where(
    InboundMessage.token == select(InboundMessage.token).where(InboundMessage.id == bindparam("inbound_id"))
    .scalar_subquery(),
    InboundMessage.id > bindparam("inbound_id"), InboundMessage.status == InboundMessage.STORED,
    InboundMessage.processed_at.is_(None)).order_by(InboundMessage.id).limit(1)
_TAKING_NEXT = _taking(_WAITING_AFTER.scalar_subquery())


# ---- replays ----------------------------------------------------------------------------------------

def content_key(mail: InboundMail) -> str:
    """What makes two mails the same mail whatever their Message-ID: sender, seat and body
    (the core's digest) and the Date header as written.  A relay or an attacker re-sending
    a mail under a new Message-ID keeps both; a player who writes "place 5" again in a later
    turn writes a new mail, with a new Date."""
    return hashlib.sha256(f"{mail.digest}\n{mail.date_header or ''}".encode("utf-8")).hexdigest()


class Admission(NamedTuple):
    """What decides whether an authenticated mail acts now, read in one statement."""

    earlier: bool  # an earlier mail to its seat token is unprocessed: this one waits for it
    replay: str | None  # the reason it is a replay, or None: it may claim its Message-ID
    key: str  # the claim: sender and Message-ID
    counts: tuple[Any, ...]  # what `also` counted (the reply budget's)


def admission(session: Session, row: InboundMessage, token: str, sender: str, mail: InboundMail,
              settings: MailSettings, also: tuple[Select[Any], dict[str, Any]]) -> Admission:
    """`waits_for_earlier`, whether the mail is a replay, and the counts of `also` (a one-row
    aggregate over the mails, and its parameters), in one statement.  A mail that may act
    claims `key` (its `dedup_key`, committed with what it does: the claim stands even if its
    orders are refused, a replay stays a replay).  The caller holds the game's lock, so
    replays racing each other are serialized: the first claims, the others see it; two
    copies addressed to different games meet at the unique `dedup_key` (`claimed_elsewhere`)."""
    key = claim_key(sender, mail)
    counts, parameters = also
    found = session.execute(_with_checks(counts), {
        **parameters, "token": token, "inbound_id": row.id, "key": key, "digest": row.digest,
        "window": row.received_at - timedelta(hours=settings.dedup_hours)}).one()
    replay = None if found[-1] is None else "duplicate_message_id" if found[-1] else "duplicate_content"
    return Admission(found[-2] is not None, replay, key, tuple(found[:-2]))


def claim_key(sender: str, mail: InboundMail) -> str:
    return f"{sender} {mail.message_id}"[:510]


# True: another mail claimed the Message-ID; False: another claimed mail has the same content
# (`content_key`) within the de-duplication window; no row: neither.  Not the row itself: a
# mail held after an error kept its claim, and an operator may release it.
_SAME_ID = InboundMessage.dedup_key == bindparam("key")
_REPLAY = select(_SAME_ID).where(
    InboundMessage.id != bindparam("inbound_id"),
    _SAME_ID | ((InboundMessage.digest == bindparam("digest")) & InboundMessage.dedup_key.is_not(None)
                & (InboundMessage.received_at > bindparam("window")))).order_by(_SAME_ID.desc()).limit(1)


@lru_cache(maxsize=4)
def _with_checks(counts: Select[Any]) -> Select[Any]:
    return counts.add_columns(_EARLIER.scalar_subquery(), _REPLAY.scalar_subquery())


def claimed_elsewhere(session: Session, row: InboundMessage, key: str | None) -> bool:
    """Whether another message holds the claim `key` (a copy that won the race to claim it)."""
    return key is not None and session.scalar(select(InboundMessage.id).where(
        InboundMessage.dedup_key == key, InboundMessage.id != row.id)) is not None
