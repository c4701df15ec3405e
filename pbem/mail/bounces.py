"""Bounces: delivery failures that come back, and addresses we stop mailing.

Every mail leaves with a VERP envelope sender, `bounces+<outbox id>.<signature>@<domain>`
(pbem/outbox/bounce_address.py); the signature is an HMAC of the row and its recipient under SECRET_KEY, so
a bounce names exactly the mail that failed and nobody can invent one for a row or an address.
The gateway hands every inbound mail to such an address to `handle` before any seat-token
handling, whichever channel brought it, and never answers it.

What counts (docs/email.md, "Bounces"):
- a DSN (multipart/report; report-type=delivery-status): Status 5.x.x (or Action: failed) is
  hard, 4.x.x (Action: delayed) soft; a non-standard failure notice (a mailer daemon, the
  original attached) is read for the same codes in its text, and without any code it is hard
  only if a mail system clearly sent it; an auto-reply (vacation) is no bounce at all;
- a hard bounce saying the mailbox does not exist (`DEAD_MAILBOX`) suppresses the address at
  once, other hard bounces after `HARD_LIMIT`; soft bounces are only counted;
- one mail counts once (its worst bounce), so a replayed or repeated report adds nothing;
- a forged report (bad signature, unknown row) changes nothing.

A suppressed address gets no mail (pbem/outbox/delivery.py withholds it) until its owner
says on the profile page that it works again (`lift`).  When every address of a player is
suppressed, the hosts of their running games get one mail each.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.utils import parseaddr

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.mail.inbound import AUTO_REPLY_SUBJECT, InboundMail, parse_structure
from pbem.models import EmailAddress, Game, Seat, User, now
from pbem.outbox.bounce_address import bounced_row, is_bounce_address
from pbem.outbox.messages import send_mail
from pbem.outbox.models import MailDelivery
from pbem.outbox.settings import MailSettings
from pbem.services import links
from pbem.services.errors import NotFound

HARD, SOFT = "hard", "soft"
HARD_LIMIT = 3  # hard bounces (each a different mail) before an address is suppressed
# Enhanced status codes (RFC 3463) that say the address itself is gone: bad mailbox, bad
# domain, bad syntax, moved, no MX (RFC 7505), disabled account.
DEAD_MAILBOX = frozenset({"5.1.1", "5.1.2", "5.1.3", "5.1.6", "5.1.10", "5.2.1"})
NOTICE_TOPIC = "undeliverable"
REASON_MAX = 200
_ENHANCED = re.compile(r"(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])")
# A bare reply code counts only where a mail system quotes the remote server ("... said: 550",
# Exim's "SMTP error from remote mail server after RCPT TO:<x>:" then the reply on the next
# line, "host mx [ip]: 550"): elsewhere "call 555-0100" or "500 minutes" are just prose.
_BASIC = re.compile(r"(?:\bsaid:|\bSMTP error[^\n]*:|\bhost\s+\S+(?:\s*\[[^\]\n]*\])?:|\breplied:|<<<)"
                    r"\s*([45])\d\d(?=\s|-\D)", re.I)
_DELAYED = re.compile(r"delay|will (?:be )?retr|temporar|deferred|try again later", re.I)
# Who clearly is a mail system, not a person's vacation program.
_SYSTEM_LOCAL = frozenset({"mailer-daemon", "postmaster"})
_SYSTEM_NAME = re.compile(r"mail delivery (?:subsystem|system)", re.I)


# ---- which mail is a bounce ------------------------------------------------------------------

def addressed(mail: InboundMail, settings: MailSettings) -> bool:
    """Is this mail sent to one of our bounce addresses (valid or not)?"""
    return any(is_bounce_address(r, settings) for r in mail.recipients)


# ---- reading a report (pure) --------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    severity: str  # HARD or SOFT
    status: str | None  # the enhanced status code, "5.1.1"
    reason: str  # one line for people: status and the remote server's words


def read_report(message: Message, *, from_daemon: bool, auto_reply: bool = False) -> Report | None:
    """What a bounce says; None if the mail is no failure report (a vacation reply, a
    "delivered" notice, a person writing to the address).  `from_daemon`: the inbound core
    saw a bounce (null sender, MAILER-DAEMON, X-Failed-Recipients); `auto_reply`: it saw an
    auto-reply (Auto-Submitted, X-Autoreply, Precedence: auto_reply).

    RFC 3834 vacation replies come with the null sender too, so only a notice a mail system
    clearly sent counts without a status code; Exim marks its own notices Auto-Submitted, so
    being a mail system wins over the auto-reply marks."""
    if message.get_content_type() == "multipart/report" and \
            (message.get_param("report-type") or "").lower() == "delivery-status":
        return _dsn(message)
    if not from_daemon:
        return None
    system = _from_mail_system(message)
    if not system and (auto_reply or AUTO_REPLY_SUBJECT.match(str(message.get("Subject", "")))):
        return None
    text = _notice_text(message)
    if not text.strip():
        return None
    enhanced = _enhanced_in(text)
    if enhanced is not None:
        return Report(HARD if enhanced[0] == "5" else SOFT, enhanced, _line(text, enhanced))
    if _DELAYED.search(text):  # before bare codes: "delayed for more than 500 minutes"
        return Report(SOFT, None, _first_line(text))
    basic = _BASIC.search(text)
    if basic is not None:
        return Report(HARD if basic.group(1) == "5" else SOFT, None, _clean(text[basic.start(1):].split("\n", 1)[0]))
    return Report(HARD, None, _first_line(text)) if system else None


def _from_mail_system(message: Message) -> bool:
    """A notice from a mail server: MAILER-DAEMON, postmaster, "Mail Delivery Subsystem",
    or with Exim's X-Failed-Recipients."""
    name, address = parseaddr(str(message.get("From", "")))
    return ("X-Failed-Recipients" in message or address.partition("@")[0].lower() in _SYSTEM_LOCAL
            or bool(_SYSTEM_NAME.search(name)))


def _dsn(message: Message) -> Report | None:
    fields = next((part for part in message.walk() if part.get_content_type() in
                   ("message/delivery-status", "message/global-delivery-status")), None)
    if fields is None:
        return None
    blocks = fields.get_payload()
    if not isinstance(blocks, list):  # unparsed: read the field lines ourselves
        blocks = [parse_structure(block.encode("utf-8", "replace"))
                  for block in re.split(r"\r?\n\r?\n", str(blocks)) if block.strip()]
    reports = []
    for block in blocks[1:] if len(blocks) > 1 else blocks:  # the first block is per message
        action = str(block.get("Action", "")).strip().lower()
        status = str(block.get("Status", "")).strip().split()[0] if block.get("Status") else ""
        diagnostic = " ".join(str(block.get("Diagnostic-Code", "")).split())
        if action in ("delivered", "relayed", "expanded"):
            continue
        if status[:1] == "5" or action == "failed":
            severity = HARD
        elif status[:1] == "4" or action == "delayed":
            severity = SOFT
        else:
            continue
        reports.append(Report(severity, status or None, _clean(f"{status} {diagnostic}" if status else diagnostic)))
    return next((r for r in reports if r.severity == HARD), reports[0] if reports else None)


def _notice_text(message: Message) -> str:
    """The daemon's own words: text parts outside the attached original."""
    texts: list[str] = []
    stack = [message]
    while stack:
        part = stack.pop(0)
        if part.get_content_type() in ("message/rfc822", "text/rfc822-headers"):
            continue  # the original mail: its words are the player's, not the daemon's
        if part.is_multipart():
            stack.extend(p for p in part.get_payload() if isinstance(p, Message))
        elif part.get_content_maintype() == "text":
            payload = part.get_payload(decode=True) or b""
            texts.append(payload.decode(part.get_content_charset() or "utf-8", "replace")[:32768])
    return "\n".join(texts)


def _enhanced_in(text: str) -> str | None:
    return next((m.group(0) for m in _ENHANCED.finditer(text) if m.group(1) in "45"), None)


def _line(text: str, needle: str) -> str:
    return _clean(next((line for line in text.splitlines() if needle in line), needle))


def _first_line(text: str) -> str:
    return _clean(next((line for line in text.splitlines() if line.strip()), "delivery failed"))


def _clean(text: str) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:REASON_MAX]


# ---- acting on it ---------------------------------------------------------------------------------

def handle(session: Session, raw: bytes, mail: InboundMail, settings: MailSettings) -> str:
    """Record a bounce sent to one of our bounce addresses; the inbound reason to keep
    (bounce_hard, bounce_soft, bounce_repeat, bounce_forged, not_a_bounce, ...).  Commits."""
    row = bounced_row(session, mail.recipients, settings)
    if row is None:
        return "bounce_forged"
    report = read_report(parse_structure(raw), from_daemon=mail.bounce, auto_reply=mail.auto_submitted)
    if report is None:
        return "not_a_bounce"
    delivery = session.get(MailDelivery, row.id, with_for_update=True)
    if delivery is None:  # every sent row has one; a row never tried cannot have bounced
        return "bounce_unsent"
    if delivery.bounce == HARD or (delivery.bounce == SOFT and report.severity == SOFT):
        return "bounce_repeat"  # this mail was counted already
    delivery.bounce = report.severity
    addresses = _lock_owners_addresses(session, row.to_address.lower())
    address = next((a for a in addresses if a.address == row.to_address.lower()), None)
    if address is None:  # an invitation to someone without an account
        session.commit()
        return f"bounce_{report.severity}"
    moment = now()
    address.last_bounce_at, address.last_bounce_reason = moment, report.reason
    if report.severity == SOFT:
        address.soft_bounce_count += 1
    else:
        address.bounce_count += 1
        if address.suppressed_at is None and (report.status in DEAD_MAILBOX or address.bounce_count >= HARD_LIMIT):
            address.suppressed_at = moment
            address.suppressed_reason = _clean(
                f"the mailbox does not exist: {report.reason}" if report.status in DEAD_MAILBOX
                else f"{address.bounce_count} mails bounced; the last: {report.reason}")
            _tell_hosts(session, address, addresses, settings)
    session.commit()
    return f"bounce_{report.severity}"


def _lock_owners_addresses(session: Session, to_address: str) -> list[EmailAddress]:
    """Every address of the person `to_address` belongs to, locked for this transaction in id
    order: two bounces for two of their addresses at once then take turns, and the second
    sees the first's suppression (else each sees the other address still working and the
    hosts never hear).  SQLite: the delivery row written just before holds the database's
    write lock already."""
    owner = select(EmailAddress.user_id).where(EmailAddress.address == to_address).scalar_subquery()
    return list(session.scalars(select(EmailAddress).where(EmailAddress.user_id == owner)
                                .order_by(EmailAddress.id).with_for_update()
                                .execution_options(populate_existing=True)))


def lift(session: Session, user: User, address_id: int) -> EmailAddress:
    """The owner says mail to the address works again: mail goes to it from now on (the
    mail withheld meanwhile stays unsent; it is stale by then).  Commits."""
    address = session.get(EmailAddress, address_id)
    if address is None or address.user_id != user.id:
        raise NotFound("no such address on your account")
    address.suppressed_at = address.suppressed_reason = None
    address.bounce_count = address.soft_bounce_count = 0
    session.commit()
    return address


def _tell_hosts(session: Session, address: EmailAddress, addresses: list[EmailAddress],
                settings: MailSettings) -> None:
    """If every address of the player (`addresses`, locked) is suppressed now: one mail to the
    host of each of their running games (not the address or the reason: the player's own)."""
    user = address.user
    if any(a.suppressed_at is None for a in addresses if a is not address):
        return
    games = session.execute(select(Game, Seat.name).join(Seat, Seat.game_id == Game.id).where(
        Seat.user_id == user.id, Game.status == Game.ACTIVE).order_by(Game.id))
    for game, seat_name in games:
        host = session.get(User, game.created_by) if game.created_by else None
        if host is None or host.id == user.id or host.primary_address is None:
            continue
        send_mail(session, host.primary_address, f"{game.title}: mail to {user.display_name} bounces",
                  f"pbem can no longer deliver mail to {user.display_name} ({seat_name}) in {game.title} "
                  f"(game {game.id}): their mail server refuses it, so pbem has stopped mailing them.\n\n"
                  f"They still see the game on the web, and mail resumes once they confirm on their "
                  f"profile that their mail works again. You may want to reach them another way, or "
                  f"extend the deadline.\n\n{links.game(settings.base_url, game.id)}\n",
                  topic=NOTICE_TOPIC, key=f"{NOTICE_TOPIC}:{game.id}:{user.id}:{address.suppressed_at:%Y%m%d%H%M%S%f}")
