"""The email gateway: every inbound channel (SMTP, webhook, IMAP) ends here.

    store.receive(session, raw, channel=..., envelope_from=..., envelope_to=...) -> id
        stores the raw message and commits, nothing else: only then may the channel
        acknowledge it (SMTP 250, webhook 200).  Nothing acknowledged is ever lost.
    start_processing(session, id, settings) -> status or None
        the one way a channel hands a stored message on: the task `pbem.process_inbound`
        (PBEM_MAIL_PROCESS=queue), or `process` at once (inline).
    process(session, id) -> status
        reads it once (idempotent): parse -> drop automated mail -> token -> From must be a
        confirmed address of the seat's player -> DMARC (failures beyond the rate limit are
        ignored) -> wait behind an earlier mail of the seat -> de-duplication -> commands and
        orders (once per mail) through the application layer -> one reply in the outbox.

Each job has its module: storing and leasing (pbem/mail/store.py), sender authentication
(pbem/mail/senders.py), carrying out commands and orders (pbem/mail/execute.py), and replies
(pbem/mail/replies.py).  Mail that must never be answered (auto-replies, bounces, lists,
loops) and replays get no reply; unknown senders get at most one short reply per address and
day, and only if our receiving server checks From or the From is a confirmed address of a
player of the token's game (no backscatter).  A sender whose mails keep carrying nothing out
(an autoresponder answering our answers) gets no answer beyond a budget per hour.  Only mail
that authenticated goes to review after an error.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Iterator

from sqlalchemy import event
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from pbem.mail import bounces, execute, replies, senders, store
from pbem.mail.inbound import InboundMail, MailConfig, MailRejected, parse_message
from pbem.mail.models import InboundMessage
from pbem.mail.replies import MailContext
from pbem.mail.senders import Sender
from pbem.outbox.settings import MailSettings, load
from pbem.tasks import QUEUE, producer

log = logging.getLogger(__name__)

PROCESS_TASK = "pbem.process_inbound"


# ---- handing a stored message on ----------------------------------------------------------------

def start_processing(session: Session, inbound_id: int, settings: MailSettings, *, app: Any = None,
                     followed: set[int] | None = None) -> str | None:
    """Hand a stored message on for processing: queue mode sends `pbem.process_inbound` (by
    `app`'s Celery client); inline mode processes it now in `session` and returns its status
    (`followed`: see `process`)."""
    if settings.mode == "queue":
        send_process(inbound_id, app=app)
        return None
    return process(session, inbound_id, settings, followed=followed)


def send_process(inbound_id: int, *, app: Any = None) -> None:
    """Queue `pbem.process_inbound(id)`; if the broker is down the message stays stored and
    the sweep (`pbem.mail_sweep`) finds it."""
    try:
        producer(app).send_task(PROCESS_TASK, args=[inbound_id], queue=QUEUE)
    except Exception:  # noqa: BLE001
        log.exception("could not queue processing of inbound mail %s; the sweep will", inbound_id)


def process_pending(session: Session, settings: MailSettings | None = None, limit: int = 100) -> list[str]:
    return [process(session, inbound_id, settings) for inbound_id in store.pending(session, limit)]


# ---- processing -----------------------------------------------------------------------------------

def process(session: Session, inbound_id: int, settings: MailSettings | None = None, *,
            followed: set[int] | None = None) -> str:
    """Read a stored message once and act on it; its final status ("stored" if it must wait
    for an earlier mail of its seat).  Safe to call twice.  Then the seat's later mails that
    waited for this one follow, in order of arrival; those that reached a final status are
    added to `followed` (the SMTP gateway's lanes need not take them again)."""
    settings = settings or load()
    with _keeping(session):
        return _process_chain(session, inbound_id, settings, followed if followed is not None else set())


@contextmanager
def _keeping(session: Session) -> Iterator[None]:
    """Commits that do not expire what the session holds, while a mail is processed: what it
    reads under the game's lock is read with populate_existing (`lock_game`), the view checks
    the game's version (`game_view`), and the rest is the mail's own row and the seat it
    authenticated; reading them again after each commit would cost statements, not freshness.
    A rollback still expires everything (the lease's checks read the row again), and so does
    the end of processing: whoever uses the session next reads afresh, as after a commit."""
    expire, session.expire_on_commit = session.expire_on_commit, False
    try:
        yield
    finally:
        session.expire_on_commit = expire
        session.expire_all()


def _process_chain(session: Session, inbound_id: int, settings: MailSettings, followed: set[int]) -> str:
    status = _process_one(session, inbound_id, settings)
    while (status == InboundMessage.STORED and store.untaken(session, inbound_id)
           and not store.waits_for_earlier(session, store.token_of(session, inbound_id), inbound_id)):
        # It chose to wait, and the earlier mail finished meanwhile, perhaps before this one was
        # free for it to take: so this one goes on by itself (the lease keeps it to one taker).
        status = _process_one(session, inbound_id, settings)
    later, following = status, inbound_id
    while later != InboundMessage.STORED and (taken := store.lease_next(session, following)) is not None:
        following = taken.id
        later = _process_one(session, following, settings, taken)
        if later != InboundMessage.STORED:
            followed.add(following)
    return status


def _process_one(session: Session, inbound_id: int, settings: MailSettings,
                 leased: InboundMessage | None = None) -> str:
    # The lease (`leased`: taken already) goes with the mail's first commit (its orders, or its
    # final status).
    row = leased or store.lease(session, inbound_id)
    if row is None:  # processed already (most often by the chain of its seat's earlier mail), or held
        status = store.status_of(session, inbound_id)
        session.rollback()
        return status or "missing"
    facts: dict[str, Any] = {}
    rollbacks = _Rollbacks(session, row.processed_at)
    try:
        return _process(session, row, settings, facts, rollbacks)
    except OperationalError:  # the database is away or timed out: not the mail's fault, retry it
        session.rollback()
        store.free(session, inbound_id)
        raise
    except Exception as error:
        session.rollback()
        row = session.get(InboundMessage, inbound_id)
        if row is None or not rollbacks.retake(row):
            return row.status if row is not None else "missing"
        if isinstance(error, IntegrityError) and store.claimed_elsewhere(session, row, facts.get("dedup_key")):
            del facts["dedup_key"]  # a copy sent to another game's address claimed it first
            return store.finish(session, row, InboundMessage.IGNORED, "duplicate_message_id", **facts)
        # Only mail that authenticated as a seat's player is worth an operator's look; anyone
        # could send the rest, and releasing it would only refuse it again.
        authenticated = row.user_id is not None or facts.get("user_id") is not None
        status = InboundMessage.REVIEW if authenticated else InboundMessage.REJECTED
        log.exception("processing inbound mail %s failed; it is %s", inbound_id, status)
        return store.finish(session, row, status, "error", **facts)
    finally:
        rollbacks.close()


class _Rollbacks:
    """The mail's lease across rollbacks: a refused order rolls back the mail's first
    transaction, and with it the lease taken at `leased` if it was not committed yet."""

    def __init__(self, session: Session, leased: datetime | None):
        self.session, self.leased, self.count = session, leased, 0
        event.listen(session, "after_rollback", self._count)

    def _count(self, session: Session) -> None:
        self.count += 1

    def retake(self, row: InboundMessage) -> bool:
        """Whether the lease is still ours after a rollback (committed with the mail's first
        step, or taken again now); False if another processor took or finished the mail."""
        if row.status != InboundMessage.STORED:
            return False
        if row.processed_at == self.leased:
            return True
        again = store.lease(self.session, row.id)
        if again is None:
            return False
        self.leased = again.processed_at
        return True

    def close(self) -> None:
        event.remove(self.session, "after_rollback", self._count)


def _record(row: InboundMessage, facts: dict[str, Any], **values: Any) -> None:
    """Set fields of the mail's row, and keep them to set again after a rollback."""
    facts.update(values)
    for name, value in values.items():
        setattr(row, name, value)


def _process(session: Session, row: InboundMessage, settings: MailSettings, facts: dict[str, Any],
             rollbacks: _Rollbacks) -> str:
    try:
        mail = parse_message(row.raw, config=MailConfig.of(settings),
                             envelope_to=row.recipients if row.envelope_to is not None else None,
                             envelope_from=row.envelope_from)
    except MailRejected as error:
        return store.finish(session, row, InboundMessage.REJECTED, error.reason)
    sender = mail.from_address.lower()
    _record(row, facts, from_address=sender[:254], message_id=mail.message_id[:255], digest=store.content_key(mail))
    if bounces.addressed(mail, settings):  # a report on a mail we sent: recorded, never answered
        reason = bounces.handle(session, row.raw, mail, settings)
        return store.finish(session, session.get(InboundMessage, row.id), InboundMessage.IGNORED, reason, **facts)
    if mail.automated:  # never answered: auto-replies, bounces, lists, loops
        reason = ("loop" if mail.loop else "bounce" if mail.bounce else "auto-submitted" if mail.auto_submitted
                  else "bulk")
        return store.finish(session, row, InboundMessage.IGNORED, reason)
    # The checks read other rows only: this one's new fields go in with the first write.
    with session.no_autoflush:
        found = senders.authenticate(session, row, mail)  # locks the game of a live token
        facts.update(game_id=row.game_id, seat=row.seat, user_id=row.user_id, token=row.token)
        if found.refused is not None:
            return _refuse(session, row, mail, found, settings)
        assert found.game is not None and found.seat is not None and found.user is not None
        # Queue workers run several mails at once: a seat's mails act in order of arrival (a
        # correction after the original), so this one waits while an earlier one is
        # unprocessed.  Claims are made under the game's lock, so replays racing each other
        # are serialized: the first claims the Message-ID (and its digest counts from then
        # on), the others see it.  One read for both, and the reply budget.
        admitted = store.admission(session, row, found.token, sender, mail, settings,
                                   also=replies.answered_lately(sender, row))
        if admitted.earlier:
            row.processed_at = None  # free: the earlier one's processing, or the sweep, takes it next
            session.commit()
            log.info("inbound mail %s waits for an earlier mail of its seat", row.id)
            return InboundMessage.STORED
        if admitted.replay is not None:
            return store.finish(session, row, InboundMessage.IGNORED, admitted.replay)
        row.dedup_key = facts["dedup_key"] = admitted.key
        quiet = replies.budget_spent(admitted.counts, settings)
    context = MailContext(row, mail, settings, found.game, found.seat, found.user, quiet=quiet,
                          press=found.press, audience=found.audience, locked_in=session.get_transaction())
    undone = rollbacks.count
    reason = execute.act(session, context)
    row = session.get(InboundMessage, row.id)
    if rollbacks.count != undone and not rollbacks.retake(row):
        session.rollback()  # another processor took it while the refusal rolled back the lease
        return InboundMessage.STORED
    if quiet:  # carried out as usual, but unanswered: one notice a day says why
        log.info("inbound mail %s from %s is not answered: reply budget spent", row.id, sender)
        replies.quiet_notice(session, mail, settings)
        reason = f"{reason}; unanswered"
    return store.finish(session, row, InboundMessage.PROCESSED, reason, mails=context.outgoing, **facts)


def _refuse(session: Session, row: InboundMessage, mail: InboundMail, found: Sender, settings: MailSettings) -> str:
    """A mail that may not act: ignored beyond the rate limit, held for an operator if DMARC
    says its From is forged (its player is told), else rejected, with a short answer only
    where it cannot reach a forger's victim."""
    if senders.flooded(session, row, settings):
        return store.finish(session, row, InboundMessage.IGNORED, "rate_limited")
    if found.refused == "dmarc_fail":  # an operator looks
        assert found.game is not None and found.user is not None
        replies.held_notice(session, found.game, found.user, settings)
        return store.finish(session, row, InboundMessage.REVIEW, found.refused)
    if found.refused == "replaced_token" and not found.forged:
        replies.replaced_address(session, mail)
    elif not found.forged and senders.vouched_for(session, mail.from_address.lower(), found.game, settings):
        replies.unknown_sender(session, mail, settings)
    return store.finish(session, row, InboundMessage.REJECTED, found.refused)
