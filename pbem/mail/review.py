"""The review queue: inbound mail the gateway held (status `review`: a DMARC failure reported
by one of our own receiving servers, or a processing error), and what a site operator does
with it.

Who reviews: only site operators, the accounts with a confirmed address listed in
`PBEM_OPERATORS`.  Neither the player the mail claims to come from (the sender may be
forging them) nor a game's host (they could then play another person's seat) may release it.

    held(session, settings)             the held messages, oldest first, with the orders read
    release(session, id, operator)      process it as if the DMARC check had passed, once
    discard(session, id, operator)      status rejected, no reply to anyone

Both actions are idempotent: they act only on a message still in review, so a second click
(or a second operator) changes nothing.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.mail import gateway
from pbem.mail.extract import OrderTextError, order_lines
from pbem.mail.inbound import MailConfig, MailRejected, parse_message
from pbem.mail.models import REASON_MAX, InboundMessage
from pbem.mail.store import RELEASED
from pbem.models import EmailAddress, Game, User
from pbem.outbox.settings import MailSettings, load
from pbem.services.errors import NotFound

log = logging.getLogger(__name__)

DISCARDED = "discarded by "
# An operator releasing a mail held for an error must see whether its From was checked.
DMARC_SHOWN = {"pass": "pass: our mail server checked the From",
               "fail": "fail: the From may be forged",
               "none": "none: no verdict (the From domain has no DMARC policy, or the check erred)",
               "absent": "not checked: no Authentication-Results from our mail servers"}


@dataclass(frozen=True)
class HeldMail:
    id: int
    received_at: datetime
    envelope_from: str | None
    envelope_to: str | None
    from_address: str | None
    subject: str
    reason: str | None
    game_id: int | None
    game_title: str | None
    seat: str | None
    dmarc: str  # what our server's Authentication-Results said of the From, for people
    orders: list[str]  # the lines the gateway would act on, as plain text (templates escape them)
    unreadable: str | None  # why no lines could be read, if so


def is_operator(session: Session, user: User | None, settings: MailSettings | None = None) -> bool:
    """Whether `user` has a confirmed address listed in PBEM_OPERATORS."""
    operators = (settings or load()).operators
    if user is None or not operators:
        return False
    return session.scalar(select(EmailAddress.id).where(EmailAddress.user_id == user.id,
                                                        EmailAddress.address.in_(operators)).limit(1)) is not None


def held(session: Session, settings: MailSettings | None = None, limit: int = 200) -> list[HeldMail]:
    settings = settings or load()
    rows = session.scalars(select(InboundMessage).where(InboundMessage.status == InboundMessage.REVIEW)
                           .order_by(InboundMessage.received_at, InboundMessage.id).limit(limit))
    return [_describe(session, row, settings) for row in rows]


def _describe(session: Session, row: InboundMessage, settings: MailSettings) -> HeldMail:
    subject, orders, unreadable, dmarc = "", [], None, "unknown: the mail could not be read"
    try:
        mail = parse_message(row.raw, config=MailConfig.of(settings),
                             envelope_to=row.recipients if row.envelope_to is not None else None,
                             envelope_from=row.envelope_from)
        subject, dmarc = mail.subject or "", DMARC_SHOWN[mail.dmarc]
        orders = order_lines(mail.text)
    except (MailRejected, OrderTextError) as error:
        unreadable = str(error)
    game = session.get(Game, row.game_id) if row.game_id is not None else None
    return HeldMail(id=row.id, received_at=row.received_at, envelope_from=row.envelope_from,
                    envelope_to=row.envelope_to, from_address=row.from_address, subject=subject,
                    reason=row.reason, game_id=row.game_id, game_title=game.title if game else None,
                    seat=row.seat, dmarc=dmarc, orders=orders, unreadable=unreadable)


def _take(session: Session, inbound_id: int, **values: object) -> bool:
    """Move a message out of review, if it is still there (the one place both actions race)."""
    if session.get(InboundMessage, inbound_id) is None:
        raise NotFound(f"there is no inbound mail {inbound_id}")
    taken = session.execute(update(InboundMessage).where(
        InboundMessage.id == inbound_id, InboundMessage.status == InboundMessage.REVIEW)
        .values(**values).execution_options(synchronize_session=False))
    session.commit()
    return taken.rowcount == 1  # type: ignore[attr-defined]


def _status(session: Session, inbound_id: int) -> str:
    row = session.get(InboundMessage, inbound_id, populate_existing=True)
    assert row is not None
    return row.status


def release(session: Session, inbound_id: int, operator: str, settings: MailSettings | None = None) -> str:
    """Process a held message as if its DMARC check had passed (token and From are still
    checked); the message's final status.  The operator is kept in its reason and the log."""
    if not _take(session, inbound_id, status=InboundMessage.STORED, processed_at=None,
                 reason=f"{RELEASED}{operator}"[:REASON_MAX]):
        return _status(session, inbound_id)
    log.info("inbound mail %s released by operator %s", inbound_id, operator)
    return gateway.process(session, inbound_id, settings)


def discard(session: Session, inbound_id: int, operator: str) -> str:
    """Reject a held message for good; nobody is answered."""
    if _take(session, inbound_id, status=InboundMessage.REJECTED,
             reason=f"{DISCARDED}{operator}"[:REASON_MAX]):
        log.info("inbound mail %s discarded by operator %s", inbound_id, operator)
    return _status(session, inbound_id)
