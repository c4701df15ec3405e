"""The email gateway: every inbound channel (SMTP, webhook, IMAP) ends here.

    receive(session, raw, channel=..., envelope_from=..., envelope_to=...) -> id
        stores the raw message and commits, nothing else: only then may the channel
        acknowledge it (SMTP 250, webhook 200).  Nothing acknowledged is ever lost.
    process(session, id) -> status
        reads it once (idempotent): parse -> drop automated mail -> token -> From must be a
        confirmed address of the seat's player -> DMARC (failures beyond the rate limit are
        ignored) -> wait behind an earlier mail of the seat -> de-duplication -> commands and
        orders (once per mail) through the application layer -> one reply in the outbox.

Orders go through `pbem.services.play.submit_orders`, the one order path: all order lines of
a mail are one submission, carried out entirely or not at all.  Mail that must never be
answered (auto-replies, bounces, lists, loops) and replays get no reply; unknown senders get
at most one short reply per address and day, and only if our receiving server checks From
or the From is a confirmed address of a player of the token's game (no backscatter).  A
sender whose mails keep carrying nothing out (an autoresponder answering our answers) gets no
answer beyond a budget per hour.  Only mail that authenticated goes to review after an error.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Callable

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from pbem.mail import bounces
from pbem.mail import commands as cmd
from pbem.mail import render
from pbem.mail.extract import OrderTextError, order_lines
from pbem.mail.inbound import MAX_BYTES, InboundMail, MailRejected, addressed_token, parse_message, printable
from pbem.mail.models import REASON_MAX, InboundMessage, SeatToken
from pbem.mail.outbox import MailPart, send_mail
from pbem.mail.picture import board_picture, reply_html
from pbem.mail.settings import MailSettings, load
from pbem.mail.tokens import new_token, reply_address
from pbem.models import EmailAddress, Game, OutboxMessage, Seat, User, now
from pbem.services import links, turn_queue, vacations
from pbem.services.errors import ServiceError
from pbem.services.locking import lock_game
from pbem.services.play import game_view
from pbem.services.resign import resign_seat
from pbem.services.state import game_state
from pbem.services.kinds import order_words

log = logging.getLogger(__name__)

CHANNELS = ("smtp", "webhook", "imap")
PROCESS_LEASE = timedelta(minutes=5)  # a processor that died frees the message after this
UNKNOWN_REPLY_EVERY = timedelta(days=1)  # also the limit of the other short answers and notices
REPLY_KIND, UNKNOWN_KIND = "reply", "mail-unknown"
REPLACED_KIND, HELD_KIND, QUIET_KIND = "mail-replaced", "mail-held", "mail-quiet"
# The reason of a held message an operator released (pbem/mail/review.py): processing then
# skips the DMARC check, and the final reason keeps the operator's name.
RELEASED = "released by "
INDENT = "    "
# Reasons of mail that failed authentication: what the per-address rate limit counts.
UNAUTHENTICATED = ("no_token", "unknown_token", "replaced_token", "from_mismatch", "dmarc_fail", "rate_limited")
# Reasons of authenticated mail that carried nothing out: what the reply budget counts.
FRUITLESS = ("empty", "text_error", "command_error", "order_error")


# ---- reply addresses --------------------------------------------------------------------------

def seat_token(session: Session, game_id: int, seat: str) -> str:
    """The seat's live reply token, made on first use (the caller commits)."""
    token = session.scalar(select(SeatToken.token).where(
        SeatToken.game_id == game_id, SeatToken.seat == seat, SeatToken.revoked_at.is_(None))
        .order_by(SeatToken.id.desc()).limit(1))
    if token is None:
        token = new_token()
        session.add(SeatToken(token=token, game_id=game_id, seat=seat))
        session.flush()
    return token


def seat_reply_address(session: Session, seat: Seat, settings: MailSettings | None = None) -> str:
    """`orders+<token>@<domain>` for a started game's seat: the Reply-To of its mails."""
    assert seat.name is not None, "seats are named when the game starts"
    return reply_address(seat_token(session, seat.game_id, seat.name), domain=(settings or load()).domain)


def replace_token(session: Session, game_id: int, seat: str) -> str:
    """Revoke the seat's token (leaked address) and make a new one (the caller commits, with
    the mail that tells the player: pbem/mail/seat_address.py)."""
    session.execute(update(SeatToken).where(SeatToken.game_id == game_id, SeatToken.seat == seat,
                                            SeatToken.revoked_at.is_(None)).values(revoked_at=now()))
    return seat_token(session, game_id, seat)


# ---- receiving ----------------------------------------------------------------------------------

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
    token = addressed_token(raw, config=(settings or load()).mail_config(), envelope_to=envelope_to)
    row = InboundMessage(channel=channel, received_at=now(), raw=bytes(raw), size=len(raw),
                         envelope_from=None if envelope_from is None else printable(envelope_from)[:256],
                         envelope_to=None if envelope_to is None else ",".join(envelope_to)[:2000],
                         status=InboundMessage.STORED, token=token)
    session.add(row)
    session.commit()
    return row.id


def pending(session: Session, limit: int = 100) -> list[int]:
    """Stored messages nobody processed (a crash, a lost task), oldest first."""
    stale = now() - PROCESS_LEASE
    return list(session.scalars(select(InboundMessage.id).where(
        InboundMessage.status == InboundMessage.STORED,
        InboundMessage.processed_at.is_(None) | (InboundMessage.processed_at < stale))
        .order_by(InboundMessage.id).limit(limit)))


def process_pending(session: Session, settings: MailSettings | None = None, limit: int = 100) -> list[str]:
    return [process(session, inbound_id, settings) for inbound_id in pending(session, limit)]


# ---- processing -----------------------------------------------------------------------------------

@dataclass
class _Context:
    row: InboundMessage
    mail: InboundMail
    settings: MailSettings
    game: Game
    seat: Seat
    user: User
    done: list[str] = field(default_factory=list)  # reply sections of what was carried out
    parts: list[MailPart] = field(default_factory=list)  # pictures for the reply (BOARD)
    ignored: str = ""  # the lines read but not taken as orders, quoted at the end of the reply
    quiet: bool = False  # the sender's reply budget is spent: carry out, do not answer


def process(session: Session, inbound_id: int, settings: MailSettings | None = None) -> str:
    """Read a stored message once and act on it; its final status ("stored" if it must wait
    for an earlier mail of its seat).  Safe to call twice.  Then the seat's later mails that
    waited for this one follow, in order of arrival."""
    settings = settings or load()
    status = _process_one(session, inbound_id, settings)
    while (status == InboundMessage.STORED and _untaken(session, inbound_id)
           and not _waits_for_earlier(session, _token_of(session, inbound_id), inbound_id)):
        # It chose to wait, and the earlier mail finished meanwhile, perhaps before this one was
        # free for it to take: so this one goes on by itself (the lease keeps it to one taker).
        status = _process_one(session, inbound_id, settings)
    later, following = status, inbound_id
    while later != InboundMessage.STORED and (following := _waiting_after(session, following)) is not None:
        later = _process_one(session, following, settings)
    return status


def _untaken(session: Session, inbound_id: int) -> bool:
    """Whether nobody holds the stored mail's lease."""
    return session.scalar(select(InboundMessage.processed_at).where(InboundMessage.id == inbound_id)) is None


def _token_of(session: Session, inbound_id: int) -> str | None:
    return session.scalar(select(InboundMessage.token).where(InboundMessage.id == inbound_id))


def _waits_for_earlier(session: Session, token: str | None, inbound_id: int) -> bool:
    """Whether an earlier mail to the same seat token is still stored (unprocessed)."""
    return token is not None and session.scalar(select(InboundMessage.id).where(
        InboundMessage.token == token, InboundMessage.id < inbound_id,
        InboundMessage.status == InboundMessage.STORED).limit(1)) is not None


def _waiting_after(session: Session, inbound_id: int) -> int | None:
    """The next stored mail to the same seat token as `inbound_id` that nobody is processing."""
    token = _token_of(session, inbound_id)
    if token is None:
        return None
    return session.scalar(select(InboundMessage.id).where(
        InboundMessage.token == token, InboundMessage.id > inbound_id, InboundMessage.status == InboundMessage.STORED,
        InboundMessage.processed_at.is_(None)).order_by(InboundMessage.id).limit(1))


def _process_one(session: Session, inbound_id: int, settings: MailSettings) -> str:
    moment = now()
    taken = session.execute(update(InboundMessage).where(
        InboundMessage.id == inbound_id, InboundMessage.status == InboundMessage.STORED,
        InboundMessage.processed_at.is_(None) | (InboundMessage.processed_at < moment - PROCESS_LEASE))
        .values(processed_at=moment).execution_options(synchronize_session=False))
    session.commit()
    row = session.get(InboundMessage, inbound_id, populate_existing=True)
    if row is None:
        return "missing"
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        return row.status
    try:
        return _process(session, row, settings)
    except OperationalError:  # the database is away or timed out: not the mail's fault, retry it
        session.rollback()
        _free(session, inbound_id)
        raise
    except Exception:
        session.rollback()
        row = session.get(InboundMessage, inbound_id)
        # Only mail that authenticated as a seat's player is worth an operator's look; anyone
        # could send the rest, and releasing it would only refuse it again.
        status = InboundMessage.REVIEW if row is not None and row.user_id is not None else InboundMessage.REJECTED
        log.exception("processing inbound mail %s failed; it is %s", inbound_id, status)
        return _finish(session, row, status, "error")


def _free(session: Session, inbound_id: int) -> None:
    """Give up the lease of a message left stored, so that a retry may take it at once (if the
    database refuses this too, the lease simply runs out)."""
    try:
        session.execute(update(InboundMessage).where(
            InboundMessage.id == inbound_id, InboundMessage.status == InboundMessage.STORED)
            .values(processed_at=None).execution_options(synchronize_session=False))
        session.commit()
    except OperationalError:
        session.rollback()


def _finish(session: Session, row: InboundMessage | None, status: str, reason: str | None = None,
            **fields: Any) -> str:
    if row is None:
        return status
    if reason and (row.reason or "").startswith(RELEASED):  # keep who released it
        reason = f"{reason}; {row.reason}"[:REASON_MAX]
    row.status, row.reason, row.processed_at = status, reason, now()
    for name, value in fields.items():
        setattr(row, name, value)
    session.commit()
    return status


def _process(session: Session, row: InboundMessage, settings: MailSettings) -> str:
    try:
        mail = parse_message(row.raw, config=settings.mail_config(),
                             envelope_to=row.recipients if row.envelope_to is not None else None,
                             envelope_from=row.envelope_from)
    except MailRejected as error:
        return _finish(session, row, InboundMessage.REJECTED, error.reason)
    sender = mail.from_address.lower()
    row.from_address, row.message_id, row.digest = sender[:254], mail.message_id[:255], content_key(mail)
    if bounces.addressed(mail, settings):  # a report on a mail we sent: recorded, never answered
        return _finish(session, session.get(InboundMessage, row.id), InboundMessage.IGNORED,
                       bounces.handle(session, row.raw, mail, settings))
    if mail.automated:  # never answered: auto-replies, bounces, lists, loops
        reason = ("loop" if mail.loop else "bounce" if mail.bounce else "auto-submitted" if mail.auto_submitted
                  else "bulk")
        return _finish(session, row, InboundMessage.IGNORED, reason)
    # A trusted server says the From is forged (unless an operator released the mail): never
    # answer it, the answer would go to whoever was impersonated (backscatter).
    forged = mail.dmarc == "fail" and not (row.reason or "").startswith(RELEASED)
    token = mail.token
    found = session.scalar(select(SeatToken).where(SeatToken.token == token, SeatToken.revoked_at.is_(None))) \
        if token else None
    game = session.get(Game, found.game_id) if found is not None else None
    seat = next((s for s in game.seats if s.name == found.seat), None) if game is not None else None
    user = seat.user if seat is not None else None
    if found is None:
        replaced = token is not None and _replaced_for(session, token, sender)
        refused = "replaced_token" if replaced else "no_token" if not mail.tokens else "unknown_token"
    elif game is None or seat is None or user is None or not _confirmed(session, user, sender):
        refused = "from_mismatch"
        row.game_id, row.seat = found.game_id, found.seat
    else:
        refused = "dmarc_fail" if forged else None
        row.game_id, row.seat, row.user_id, row.token = game.id, seat.name, user.id, found.token
        session.commit()  # authenticated (user_id): from here on an error sends it to review
    if refused is not None and _flooded(session, row, settings):
        return _finish(session, row, InboundMessage.IGNORED, "rate_limited")
    if refused == "dmarc_fail":  # an operator looks
        _held_notice(session, game, user, settings)
        return _finish(session, row, InboundMessage.REVIEW, refused)
    if refused is not None:
        if refused == "replaced_token" and not forged:
            _short_answer(session, mail, REPLACED_KIND, "This reply address was replaced; use the one in "
                          "your latest mail from pbem.\n\nNothing in your mail was carried out.\n")
        elif not forged and _vouched_for(session, sender, game, settings):
            _unknown_sender(session, mail, settings)
        return _finish(session, row, InboundMessage.REJECTED, refused)
    assert game is not None and seat is not None and user is not None

    # Claims are made under the game's lock, so replays racing each other are serialized:
    # the first claims the Message-ID (and its digest counts from then on), the others see it.
    lock_game(session, game.id)
    # Queue workers run several mails at once: a seat's mails act in order of arrival (a
    # correction after the original), so this one waits while an earlier one is unprocessed.
    if _waits_for_earlier(session, found.token, row.id):
        row.processed_at = None  # free: the earlier one's processing, or the sweep, takes it next
        session.commit()
        log.info("inbound mail %s waits for an earlier mail of its seat", row.id)
        return InboundMessage.STORED
    key = f"{sender} {mail.message_id}"[:510]
    # Not the row itself: a mail held after an error kept its claim, and an operator may release it.
    if session.scalar(select(InboundMessage.id).where(InboundMessage.dedup_key == key,
                                                      InboundMessage.id != row.id)) is not None:
        return _finish(session, row, InboundMessage.IGNORED, "duplicate_message_id")
    window = row.received_at - timedelta(hours=settings.dedup_hours)
    if session.scalar(select(InboundMessage.id).where(
            InboundMessage.digest == row.digest, InboundMessage.id != row.id,
            InboundMessage.dedup_key.is_not(None), InboundMessage.received_at > window).limit(1)):
        return _finish(session, row, InboundMessage.IGNORED, "duplicate_content")
    row.dedup_key = key
    try:
        session.commit()  # the claim stands even if the orders are refused (a replay stays a replay)
    except IntegrityError:
        session.rollback()
        return _finish(session, session.get(InboundMessage, row.id), InboundMessage.IGNORED,
                       "duplicate_message_id")
    quiet = (_answered_lately(session, sender, row, FRUITLESS) >= settings.replies_per_hour
             or _answered_lately(session, sender, row) >= settings.answers_per_hour)
    context = _Context(row, mail, settings, game, seat, user, quiet=quiet)
    reason = _act(session, context)
    if quiet:  # carried out as usual, but unanswered: one notice a day says why
        log.info("inbound mail %s from %s is not answered: reply budget spent", row.id, sender)
        _short_answer(session, mail, QUIET_KIND, _quiet_text(settings))
        reason = f"{reason}; unanswered"
    return _finish(session, session.get(InboundMessage, row.id), InboundMessage.PROCESSED, reason)


def _flooded(session: Session, row: InboundMessage, settings: MailSettings) -> bool:
    """Whether the From sent more mail that failed authentication in the last hour than the
    rate limit allows (then this failed one is ignored, unanswered).  Only failed mail counts:
    the From is the sender's word, so a flood under a forged From never silences the real
    sender's authenticated mail."""
    recent = session.scalar(select(func.count(InboundMessage.id)).where(
        InboundMessage.from_address == row.from_address, InboundMessage.id != row.id,
        InboundMessage.reason.in_(UNAUTHENTICATED),
        InboundMessage.received_at > row.received_at - timedelta(hours=1)))
    return recent >= settings.rate_per_hour


def _answered_lately(session: Session, sender: str, row: InboundMessage, reasons: tuple[str, ...] = ()) -> int:
    """How many mails from `sender` in the hour before this one were answered: of those whose
    reason starts with one of `reasons` (FRUITLESS: they carried nothing out, which is what
    an autoresponder that sets no auto-reply header sends back to each of our answers), or
    of all (STATUS, BOARD and HELP are answered too, and BOARD draws a picture)."""
    query = select(func.count(InboundMessage.id)).where(
        InboundMessage.from_address == sender, InboundMessage.id != row.id,
        InboundMessage.status == InboundMessage.PROCESSED,
        InboundMessage.reason.not_like("%; unanswered"),
        InboundMessage.received_at > row.received_at - timedelta(hours=1))
    if reasons:
        query = query.where(or_(*(InboundMessage.reason.startswith(reason, autoescape=True) for reason in reasons)))
    return int(session.scalar(query) or 0)


def _quiet_text(settings: MailSettings) -> str:
    return (f"pbem answers at most {settings.replies_per_hour} mails an hour from one address that carry "
            f"nothing out (an error, or no orders found), and {settings.answers_per_hour} in all; yours sent "
            "more. Until the hour is over your "
            "mails are still read and their orders carried out, but not answered; see the game page on "
            f"{settings.base_url}/ for where your games stand.\n\n"
            "If an automatic answer of yours (a vacation or ticket system) replies to our mails, please "
            "turn it off for pbem.\n\nYou will not get this notice again today.\n")


def _vouched_for(session: Session, sender: str, game: Game | None, settings: MailSettings) -> bool:
    """Whether a mail that failed authentication may get its short answer.  Yes if one of our
    own receiving servers checks From (a DMARC failure never gets here); with none configured,
    only a confirmed address of a player of the game the token names: anyone else may be a
    forger's victim, who would get the answer (backscatter)."""
    if settings.trusted_authserv_ids:
        return True
    return game is not None and any(s.user is not None and _confirmed(session, s.user, sender) for s in game.seats)


def content_key(mail: InboundMail) -> str:
    """What makes two mails the same mail whatever their Message-ID: sender, seat and body
    (the core's digest) and the Date header as written.  A relay or an attacker re-sending
    a mail under a new Message-ID keeps both; a player who writes "place 5" again in a later
    turn writes a new mail, with a new Date."""
    return hashlib.sha256(f"{mail.digest}\n{mail.date_header or ''}".encode("utf-8")).hexdigest()


def _confirmed(session: Session, user: User, sender: str) -> bool:
    from pbem.services.accounts import normalize_address
    try:
        address = normalize_address(sender)
    except ServiceError:
        return False
    return session.scalar(select(EmailAddress.id).where(EmailAddress.user_id == user.id,
                                                        EmailAddress.address == address)) is not None


def _unknown_sender(session: Session, mail: InboundMail, settings: MailSettings) -> None:
    """At most one short answer per address and day; it says nothing about any game."""
    _short_answer(session, mail, UNKNOWN_KIND,
                  "Your mail could not be taken as orders: it was not sent to a seat's reply address from one of "
                  "that player's confirmed addresses.\n\nReply to a turn mail from pbem from the address your "
                  f"account uses, or play on {settings.base_url}/ (confirm more addresses on your profile).\n\n"
                  "You will not get this answer again today.\n")


def _sent_lately(session: Session, address: str, kind: str) -> bool:
    since = now() - UNKNOWN_REPLY_EVERY
    return session.scalar(select(OutboxMessage.id).where(OutboxMessage.to_address == address,
                                                         OutboxMessage.kind == kind,
                                                         OutboxMessage.created_at > since).limit(1)) is not None


def _short_answer(session: Session, mail: InboundMail, kind: str, text: str) -> None:
    """A reply of `kind` to the sender, at most one per address and day."""
    address = mail.from_address.lower()  # as accounts compare them: Ana@x and ana@x share the day's answer
    if not _sent_lately(session, address, kind):
        send_mail(session, address, _re(mail.subject or "your mail to pbem"), text, kind=kind,
                  headers=_reply_headers(mail))


def _replaced_for(session: Session, token: str, sender: str) -> bool:
    """Whether `token` is a replaced reply address of a seat that `sender` still plays.
    Anyone else writing to it learns nothing more than from any unknown address."""
    old = session.scalar(select(SeatToken).where(SeatToken.token == token, SeatToken.revoked_at.is_not(None)))
    game = session.get(Game, old.game_id) if old is not None else None
    seat = next((s for s in game.seats if s.name == old.seat), None) if game is not None else None
    return seat is not None and seat.user is not None and _confirmed(session, seat.user, sender)


def _held_notice(session: Session, game: Game, user: User, settings: MailSettings) -> None:
    """Tell the seat's player (at their own primary address, not the From, which may be
    forged) that a mail in their name was held; never what it said.  One a day at most."""
    address = user.primary_address
    if address is None or _sent_lately(session, address, HELD_KIND):
        return
    send_mail(session, address, f"A mail in your name was held ({game.title}, game {game.id})",
              f"A mail sent in your name to your reply address for {game.title} (game {game.id}) failed "
              "the sender checks (DMARC) of our mail server, so it was held and nothing in it was "
              "carried out. A site operator will look at it and either carry it out or discard it.\n\n"
              "If you did not send it, someone may know your reply address: you can replace it on the "
              f"game page, {links.game(settings.base_url, game.id)}\n\n"
              "You will get at most one such notice a day.\n", kind=HELD_KIND)


def _re(subject: str) -> str:
    subject = " ".join(subject.split())
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _reply_headers(mail: InboundMail) -> dict[str, str]:
    headers = {"Auto-Submitted": "auto-replied"}
    if not mail.message_id.endswith("@content-id.invalid>"):
        headers["In-Reply-To"] = headers["References"] = mail.message_id
    return headers


# ---- commands and orders ------------------------------------------------------------------------------

class _Stop(Exception):
    """A step failed: `lines` and everything after it were not carried out."""

    def __init__(self, line: str, message: str, expected: str = "", lines: list[str] | None = None):
        super().__init__(message)
        self.line, self.message, self.expected = line, message, expected
        self.lines = lines if lines is not None else [line]


@dataclass
class _Step:
    lines: list[str]
    run: Callable[[], str]
    changes: bool = True  # it changes the game or the account: carried out once per mail


# Commands that only read: run again whenever the mail is processed again.
_READ_ONLY = (cmd.Help, cmd.Status, cmd.Board, cmd.Hand, cmd.History)


def _act(session: Session, c: _Context) -> str:
    """Carry out the mail's commands and orders and queue the reply; the reason to record."""
    try:
        picked = cmd.OrderSorter(game_state(session, c.game).parse, order_words(c.game.kind)).pick(order_lines(c.mail.text))
    except OrderTextError as error:
        _reply(session, c, _error_text([], _Stop(error.line[:80], str(error), error.expected), [], c))
        return "text_error"
    if not picked.orders:
        active = c.game.status == Game.ACTIVE
        _reply(session, c, render.no_orders(c.game, game_view(session, c.game, c.user) if active else None, picked))
        return "empty"
    lines, c.ignored = picked.orders, render.ignored_text(picked)
    parsed = cmd.split_commands(lines)
    invalid = next((p for p in parsed if isinstance(p, cmd.Invalid)), None)
    if invalid is not None:
        _reply(session, c, _error_text([], _Stop(invalid.line, f"'{invalid.line}' is not a valid command",
                                                 invalid.expected), lines, c))
        return "command_error"
    steps = _plan(session, c, parsed)
    done: list[str] = []
    for index, step in enumerate(steps):
        try:
            done.append(_once(session, c, index, step) if step.changes else step.run())
        except _Stop as stop:
            rest = stop.lines + [line for later in steps[index + 1:] for line in later.lines]
            _reply(session, c, _error_text(done, stop, rest, c))
            return "order_error" if not done else "partial"
        except ServiceError as error:
            session.rollback()
            stop = _Stop(step.lines[0], error.message, getattr(error, "expected", ""), step.lines)
            rest = stop.lines + [line for later in steps[index + 1:] for line in later.lines]
            _reply(session, c, _error_text(done, stop, rest, c))
            return "order_error" if not done else "partial"
    _reply(session, c, "\n\n".join(done))
    return "ok"


def _plan(session: Session, c: _Context, parsed: list[cmd.Command]) -> list[_Step]:
    """Orders first (one submission), then the commands in the order written; order lines
    after QUEUE are turns to queue."""
    orders: list[str] = []
    steps: list[_Step] = []
    queue_step: list[str] | None = None
    for item in parsed:
        if isinstance(item, cmd.OrderLine):
            if queue_step is not None:
                queue_step.append(item.line)
            else:
                orders.append(item.line)
            continue
        if isinstance(item, cmd.Queue):
            queue_step = [item.line]
            turns = queue_step
            steps.append(_Step(turns, lambda turns=turns: _queue(session, c, turns)))
        else:
            steps.append(_Step([item.line], lambda item=item: _command(session, c, item),
                               changes=not isinstance(item, _READ_ONLY)))
    if orders:
        steps.insert(0, _Step(orders, lambda: _submit(session, c, orders)))
    return steps


def _once(session: Session, c: _Context, index: int, step: _Step) -> str:
    """Run a step that changes something at most once for this mail, even if the mail is
    processed again (the process died before its status was saved, or an operator released
    it after a later step failed): the step's mark in `inbound_mail.done` is dirty when the
    step runs, so it is committed in the step's own transaction or rolled back with it."""
    row = session.get(InboundMessage, c.row.id)
    assert row is not None
    marks = list(row.done or [])
    if index < len(marks) and marks[index] is not None:  # carried out by an earlier attempt
        return marks[index] or ("Carried out when this mail was first processed:\n"
                                + "\n".join(INDENT + line for line in step.lines))
    marks = (marks + [None] * index)[:index]
    row.done = marks + [""]
    try:
        text = step.run()
    except BaseException:
        session.rollback()  # the mark goes with whatever the step left undone
        raise
    row = session.get(InboundMessage, c.row.id)
    assert row is not None
    row.done = marks + [text]  # the reply section, for a later attempt's reply
    session.commit()
    return text


def _view(session: Session, c: _Context) -> dict[str, Any] | None:
    game = session.get(Game, c.game.id, populate_existing=True)
    if game is None or game.status not in (Game.ACTIVE, Game.FINISHED):
        return None
    return game_state(session, game).view(c.seat.name)


def _submit(session: Session, c: _Context, lines: list[str]) -> str:
    from pbem.services.errors import OrderRejected
    from pbem.services.play import submit_orders

    seat = session.get(Seat, c.seat.id)
    assert seat is not None
    try:
        receipt = submit_orders(session, seat, "\n".join(lines), channel="email", user_id=c.user.id)
    except OrderRejected as error:
        if error.line:
            message = str(error).split(f"'{error.line}': ", 1)[-1]
            raise _Stop(error.line, message, error.expected, lines) from None
        raise _Stop(lines[0], error.message, "", lines) from None
    return _accepted(session, c, receipt.orders, receipt.pending)


def _accepted(session: Session, c: _Context, orders: list[str], pending: list[str]) -> str:
    game = session.get(Game, c.game.id, populate_existing=True)
    assert game is not None
    seen = game_view(session, game, c.user)
    text = (f"Accepted for {render._who(game, c.seat.name)} in game {game.id} "
            f"({render.moment(game, seen)}):\n" + "\n".join(INDENT + o for o in orders))
    if pending:
        text += ("\n\nWaiting to be applied (until then you may replace them by sending new orders):\n"
                 + "\n".join(INDENT + o for o in pending))
    if game.status == Game.FINISHED:
        text += "\n\nThe game is over."
    else:
        text += "\n\n" + render.waiting_for(seen)
    return text


def _queue(session: Session, c: _Context, lines: list[str]) -> str:
    turns = lines[1:]
    if turns:
        queued = turn_queue.queue_turns(session, c.game.id, c.user, "\n".join(turns), channel="email")
    else:
        queued = turn_queue.list_queue(session, c.game.id, c.user)
    if not queued:
        return "You have no queued turns."
    return "Your queued turns:\n" + "\n".join(f"{INDENT}{n}. {t}" for n, t in enumerate(queued, start=1))


def _command(session: Session, c: _Context, item: cmd.Command) -> str:
    game = session.get(Game, c.game.id, populate_existing=True)
    assert game is not None
    if isinstance(item, cmd.Help):
        return render.help_text(game, _view(session, c))
    if isinstance(item, cmd.Status):
        return render.status(game_view(session, game, c.user), c.user)
    if isinstance(item, (cmd.Board, cmd.Hand, cmd.History)):
        state = game_state(session, game)
        view = state.view(c.seat.name)
        if isinstance(item, cmd.Board):
            if not c.parts and (part := board_picture(state, view)) is not None:
                c.parts.append(part)
            return render.board(game, state, view)
        if isinstance(item, cmd.Hand):
            return render.hand(game, view)
        return render.history(game, state, view)
    if isinstance(item, cmd.Cancel):
        left = turn_queue.cancel_queued(session, game.id, c.user, item.number)
        what = "All queued turns cancelled." if item.number is None else f"Queued turn {item.number} cancelled."
        return what + (" Still queued: " + "; ".join(left) + "." if left else "")
    if isinstance(item, cmd.Vacation):
        return _vacation(session, c, item)
    if isinstance(item, cmd.Resign):
        if not item.confirmed:
            return ("RESIGN: to give up your seat for the rest of the game (a bot plays it), send "
                    "RESIGN CONFIRM. This cannot be undone.")
        seat = resign_seat(session, game.id, session.get(User, c.user.id), now())
        return (f"You resigned from {game.title}: the {seat.bot} bot plays {seat.name} from now on. "
                "This address no longer takes orders for it.")
    raise AssertionError(f"unhandled command {item!r}")


def _vacation(session: Session, c: _Context, item: cmd.Vacation) -> str:
    user = session.get(User, c.user.id)
    moment = now()
    if item.start is None:
        ended = vacations.end_vacations(session, user, moment)
        return "VACATION OFF: " + ("welcome back." if ended else "you had no vacation declared.")
    assert item.end is not None
    vacations.declare_vacation_dates(session, user, item.start, item.end, moment)
    return f"Vacation noted: from {_day(item.start)} to {_day(item.end)} (both included, in your time zone)."


def _day(day: date) -> str:
    return day.isoformat()


def _error_text(done: list[str], stop: _Stop, rest: list[str], c: _Context) -> str:
    parts = list(done)
    number = _line_number(c, stop.line)
    where = f"line {number}" if number else "a line"
    head = "Nothing was carried out" if not done else "The rest was not carried out"
    body = f"{head}: {where} could not be carried out.\n\n{INDENT}> {stop.line}\n"
    if stop.expected and "expected" not in stop.message:
        body += f"{INDENT}{stop.message}; expected {stop.expected}\n"
    else:
        body += f"{INDENT}{stop.message}\n"
    parts.append(body.rstrip())
    if rest:
        parts.append("Not processed:\n" + "\n".join(INDENT + line for line in rest))
    parts.append("Send HELP for the commands and the orders expected from you now.")
    return "\n\n".join(parts)


def _line_number(c: _Context, line: str) -> int | None:
    try:
        lines = order_lines(c.mail.text)
    except OrderTextError:
        return None
    return next((n for n, text in enumerate(lines, start=1) if text.strip() == line.strip()), None)


def _reply(session: Session, c: _Context, text: str) -> None:
    if c.quiet:
        return
    game = session.get(Game, c.game.id)
    seat = session.get(Seat, c.seat.id)
    reply_to = None
    if seat is not None and seat.user_id == c.user.id and seat.name:
        reply_to = seat_reply_address(session, seat, c.settings)
    subject = _re(c.mail.subject or (f"{game.title} (game {game.id})" if game else "your orders"))
    if c.ignored:
        text = f"{text.rstrip()}\n\n{c.ignored}"
    send_mail(session, c.mail.from_address, subject, text.rstrip() + "\n", kind=REPLY_KIND,
              reply_to=reply_to, headers=_reply_headers(c.mail), key=f"inbound:{c.row.id}",
              html=reply_html(text.rstrip(), c.parts), parts=c.parts)
    # Committed by _finish, together with the message's final status.
