"""Bounces, over real SMTP both ways: mail leaves with a VERP envelope sender naming its outbox
row; a delivery report sent back to it suppresses a dead address (later mail to it is withheld,
with the reason on the row), a soft bounce only counts, a forged report changes nothing, and
the owner lifts the suppression on the profile page."""
from __future__ import annotations

import time
from datetime import datetime, timezone
from email.message import EmailMessage
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import make_msgid
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from gateway_helpers import compose, inbound_rows, send
from imap_server import Dovecot, dovecot, dovecot_server  # noqa: F401 - fixtures
from pbem.mail.bounces import NOTICE_TOPIC, read_report
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.mail.imap import poll
from pbem.mail.inbound import parse_structure
from pbem.mail.models import InboundMessage
from pbem.outbox.models import MailDelivery
from pbem.outbox.settings import load
from pbem.models import EmailAddress, OutboxMessage
from pbem.services import lobby
from seat_game import ANA, ana_game
from service_helpers import make_game, make_user, submit, web_sign_in

BOB = "bob@example.org"
DAEMON = "MAILER-DAEMON@mx.example.org"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _delivered_to_ana(gateway: Any, sink: Any, table: dict[str, Any]) -> str:
    """Ana mails STATUS; the reply really goes out over SMTP.  Its envelope sender."""
    before = len(sink.envelopes)
    raw, _ = compose(ANA, table["address"], "STATUS")
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    senders = [mail_from for mail_from, rcpts in sink.envelopes[before:] if rcpts == [ANA]]
    assert len(senders) == 1, sink.envelopes[before:]
    return senders[0]


def _dsn(to: str, *, status: str, action: str, diagnostic: str) -> bytes:
    """A standard delivery status notification (RFC 3464), as Postfix writes one."""
    return f"""\
From: Mail Delivery System <{DAEMON}>
To: {to}
Subject: Undelivered Mail Returned to Sender
Message-ID: {make_msgid(domain="mx.example.org")}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B1"

--B1
Content-Type: text/plain; charset=us-ascii

I'm sorry to have to inform you that your message could not be delivered.

--B1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
Arrival-Date: Sat, 21 Nov 2026 10:00:00 +0000

Final-Recipient: rfc822; {ANA}
Original-Recipient: rfc822;{ANA}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; {diagnostic}

--B1
Content-Type: message/rfc822

From: pbem <noreply@pbem.test>
To: {ANA}
Subject: Re: your turn

STATUS: the game waits for you.

--B1--
""".replace("\n", "\r\n").encode()


def _bounce(gateway: Any, to: str, raw: bytes) -> None:
    send(gateway.port, raw, "", to)  # the null sender, as every bounce has
    assert gateway.handler.wait_idle(30)


def _ana(session: Session) -> EmailAddress:
    session.expire_all()
    address = session.scalar(select(EmailAddress).where(EmailAddress.address == ANA))
    assert address is not None
    return address


def _unchanged(address: EmailAddress) -> tuple[Any, ...]:
    return (address.bounce_count, address.soft_bounce_count, address.last_bounce_at, address.suppressed_at)


DEAD = {"status": "5.1.1", "action": "failed",
        "diagnostic": "550 5.1.1 <ana@example.org>: Recipient address rejected: User unknown"}


def test_a_dead_mailbox_is_suppressed_and_gets_no_more_mail(table: dict[str, Any], session: Session,
                                                           gateway: Any, sink: Any) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    assert envelope.startswith("bounces+") and envelope.endswith("@pbem.test")
    sent_before = len(sink.messages)

    _bounce(gateway, envelope, _dsn(envelope, **DEAD))

    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("ignored", "bounce_hard")
    ana = _ana(session)
    assert ana.suppressed_at is not None and ana.bounce_count == 1
    assert "does not exist" in ana.suppressed_reason and "5.1.1" in ana.suppressed_reason
    assert len(sink.messages) == sent_before, "a bounce is never answered"

    # Later mail to Ana is withheld: not sent, not retried, the reason on its row.
    raw, _ = compose(ANA, table["address"], "STATUS")
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    assert len(sink.messages) == sent_before
    session.expire_all()
    reply = session.scalars(select(OutboxMessage).where(OutboxMessage.to_address == ANA)
                            .order_by(OutboxMessage.id.desc())).first()
    delivery = session.get(MailDelivery, reply.id)
    assert reply.sent_at is None and delivery.withheld_at is not None
    assert "suppressed" in delivery.last_error and "5.1.1" in delivery.last_error


def test_a_soft_bounce_only_counts(table: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)

    _bounce(gateway, envelope, _dsn(envelope, status="4.2.2", action="delayed",
                                    diagnostic="452 4.2.2 Mailbox full, will retry"))

    assert inbound_rows(session)[-1].reason == "bounce_soft"
    ana = _ana(session)
    assert (ana.soft_bounce_count, ana.bounce_count, ana.suppressed_at) == (1, 0, None)
    assert "4.2.2" in ana.last_bounce_reason
    _delivered_to_ana(gateway, sink, table)  # mail still goes out


def test_three_hard_bounces_suppress_and_one_mail_counts_once(table: dict[str, Any], session: Session,
                                                              gateway: Any, sink: Any) -> None:
    policy = {"status": "5.7.1", "action": "failed", "diagnostic": "550 5.7.1 Message rejected as spam"}
    first = _delivered_to_ana(gateway, sink, table)
    _bounce(gateway, first, _dsn(first, **policy))
    _bounce(gateway, first, _dsn(first, **policy))  # the same mail reported again (new Message-ID)
    assert [r.reason for r in inbound_rows(session)[-2:]] == ["bounce_hard", "bounce_repeat"]
    assert (_ana(session).bounce_count, _ana(session).suppressed_at) == (1, None)

    for _ in range(2):
        envelope = _delivered_to_ana(gateway, sink, table)
        _bounce(gateway, envelope, _dsn(envelope, **policy))

    ana = _ana(session)
    assert ana.bounce_count == 3 and ana.suppressed_at is not None
    assert ana.suppressed_reason.startswith("3 mails bounced")


@pytest.mark.parametrize("forgery", ["bad signature", "unknown row", "not our domain's shape"])
def test_a_forged_bounce_changes_nothing(table: dict[str, Any], session: Session, gateway: Any, sink: Any,
                                         forgery: str) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    local, _, domain = envelope.partition("@")
    number, _, signature = local.removeprefix("bounces+").partition(".")
    forged = {"bad signature": f"bounces+{number}.{'a' * len(signature)}@{domain}",
              "unknown row": f"bounces+{int(number) + 1000}.{signature}@{domain}",
              "not our domain's shape": f"bounces+{number}@{domain}"}[forgery]
    before, sent_before = _unchanged(_ana(session)), len(sink.messages)

    _bounce(gateway, forged, _dsn(forged, **DEAD))

    assert inbound_rows(session)[-1].reason == "bounce_forged"
    assert _unchanged(_ana(session)) == before
    assert len(sink.messages) == sent_before


def test_a_non_standard_bounce_over_imap(app: Any, table: dict[str, Any], session: Session, gateway: Any,
                                        sink: Any, dovecot: Dovecot) -> None:
    """Exim's failure notice (no DSN), delivered into the mailbox the poller reads."""
    envelope = _delivered_to_ana(gateway, sink, table)
    notice = MIMEMultipart()
    notice["Return-Path"] = "<>"
    notice["Delivered-To"] = envelope
    notice["From"] = f"Mail Delivery System <{DAEMON}>"
    notice["To"] = envelope
    notice["Subject"] = "Mail delivery failed: returning message to sender"
    notice["X-Failed-Recipients"] = ANA
    notice.attach(MIMEText("This message was created automatically by mail delivery software.\n\n"
                           "A message that you sent could not be delivered to one or more of its\n"
                           f"recipients. This is a permanent error. The following address(es) failed:\n\n  {ANA}\n"
                           "    host mx.example.org [192.0.2.7]\n"
                           "    SMTP error from remote mail server after RCPT TO:<ana@example.org>:\n"
                           "    550 5.1.1 No such user here\n"))
    original = EmailMessage()
    original["From"], original["To"], original["Subject"] = "pbem <noreply@pbem.test>", ANA, "4.4.7 in a subject"
    original.set_content("status 4.2.2 in the original must not count")
    notice.attach(MIMEMessage(original))
    dovecot.append(notice.as_bytes())

    poll(session, load({**app.config, **dovecot.settings()}))

    assert inbound_rows(session)[-1].reason == "bounce_hard"
    ana = _ana(session)
    assert ana.suppressed_at is not None and "5.1.1" in ana.suppressed_reason


def test_a_reply_to_the_bounce_address_that_is_no_bounce_is_ignored(table: dict[str, Any], session: Session,
                                                                   gateway: Any, sink: Any) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    before, sent_before = _unchanged(_ana(session)), len(sink.messages)
    raw, _ = compose(ANA, envelope, "I am on holiday until Monday.", headers={"Auto-Submitted": "auto-replied"})
    send(gateway.port, raw, ANA, envelope)
    assert gateway.handler.wait_idle(30)
    assert inbound_rows(session)[-1].reason == "not_a_bounce"
    assert _unchanged(_ana(session)) == before and len(sink.messages) == sent_before


VACATION = "I am out of the office until Monday. Urgent? Call 555-0100; I answer within 500 minutes."


@pytest.mark.parametrize("marks", [
    {"Auto-Submitted": "auto-replied"},
    {"X-Autoreply": "yes", "Precedence": "auto_reply"},
    {"subject": "Automatic reply: Re: your turn"}])
def test_an_out_of_office_reply_with_the_null_sender_is_no_bounce(table: dict[str, Any], session: Session,
                                                                  gateway: Any, sink: Any,
                                                                  marks: dict[str, str]) -> None:
    """RFC 3834 auto-replies go to the Return-Path (our bounce address) from the null sender."""
    envelope = _delivered_to_ana(gateway, sink, table)
    before, sent_before = _unchanged(_ana(session)), len(sink.messages)
    headers = {name: value for name, value in marks.items() if name != "subject"}
    raw, _ = compose(ANA, envelope, VACATION, subject=marks.get("subject", "Out of Office"), headers=headers)
    _bounce(gateway, envelope, raw)
    assert inbound_rows(session)[-1].reason == "not_a_bounce"
    assert _unchanged(_ana(session)) == before and len(sink.messages) == sent_before


def _exim(envelope: str, text: str) -> bytes:
    """A failure notice without a DSN, as Exim sends one (and marks Auto-Submitted)."""
    notice = MIMEText(text)
    notice["From"] = f"Mail Delivery System <{DAEMON}>"
    notice["To"] = envelope
    notice["Subject"] = "Mail delivery failed: returning message to sender"
    notice["Auto-Submitted"] = "auto-replied"
    notice["X-Failed-Recipients"] = ANA
    return notice.as_bytes()


def test_numbers_in_a_notice_s_prose_are_no_status_code(table: dict[str, Any], session: Session, gateway: Any,
                                                        sink: Any) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    _bounce(gateway, envelope, _exim(envelope, f"Your message to {ANA} has been delayed for more than 500 "
                                               "minutes. We will keep trying; call 555-0100 for help.\n"))
    assert inbound_rows(session)[-1].reason == "bounce_soft"
    ana = _ana(session)
    assert (ana.soft_bounce_count, ana.bounce_count) == (1, 0)


@pytest.mark.parametrize("server", ["exim", "postfix"])
def test_a_non_dsn_bounce_with_a_bare_code_still_counts_hard(table: dict[str, Any], session: Session,
                                                              gateway: Any, sink: Any, server: str) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    said = {"exim": f"SMTP error from remote mail server after RCPT TO:<{ANA}>:\n    550 No such user here",
            "postfix": f"<{ANA}>: host mx.example.org[192.0.2.7] said: 550 mailbox unavailable "
                       "(in reply to RCPT TO command)"}[server]
    _bounce(gateway, envelope, _exim(envelope, "This message was created automatically by mail delivery "
                                               f"software.\n\nA message that you sent could not be delivered:\n\n"
                                               f"  {ANA}\n    {said}\n"))
    assert inbound_rows(session)[-1].reason == "bounce_hard"
    ana = _ana(session)
    assert ana.bounce_count == 1 and "550" in ana.last_bounce_reason


def test_the_profile_button_lifts_the_suppression(app: Any, table: dict[str, Any], session: Session,
                                                 gateway: Any, sink: Any) -> None:
    envelope = _delivered_to_ana(gateway, sink, table)
    _bounce(gateway, envelope, _dsn(envelope, **DEAD))
    assert _ana(session).suppressed_at is not None
    client = app.test_client()
    mails_to_ana = len(sink.to(ANA))
    web_sign_in(client, app, ANA)
    assert len(sink.to(ANA)) == mails_to_ana + 1, "sign-in links still go out to a suppressed address"
    page = client.get("/profile")
    assert b"No mail goes here" in page.data and b"5.1.1" in page.data

    missing_csrf = client.post(f"/profile/addresses/{_ana(session).id}/works")
    assert missing_csrf.status_code == 400 and _ana(session).suppressed_at is not None
    response = submit(client, "/profile", "/works")

    assert response.status_code == 200 and b"Mail goes to ana@example.org again" in response.data
    ana = _ana(session)
    assert (ana.suppressed_at, ana.suppressed_reason, ana.bounce_count) == (None, None, 0)
    _delivered_to_ana(gateway, sink, table)  # mail goes out again


def _ana_in_bobs_game(app: Any, session: Session) -> dict[str, Any]:
    """Bob hosts, Ana plays: the reply address of Ana's seat."""
    bob = make_user(session, BOB, "Bob")
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, bob, players=3, bots=("heuristic",), seed=5)
    lobby.join_game(session, game.id, ana)
    seat = next(s for s in session.get(type(game), game.id).seats if s.user_id == ana.id)
    table = {"game_id": game.id, "address": seat_reply_address(session, seat, load(app.config))}
    session.commit()
    return table


def test_the_host_hears_when_every_address_of_a_player_bounces(app: Any, session: Session, gateway: Any,
                                                               sink: Any) -> None:
    table = _ana_in_bobs_game(app, session)
    envelope = _delivered_to_ana(gateway, sink, table)

    _bounce(gateway, envelope, _dsn(envelope, **DEAD))

    notices = list(session.scalars(select(OutboxMessage).where(OutboxMessage.topic == NOTICE_TOPIC)))
    assert [n.to_address for n in notices] == [BOB]
    assert "Ana" in notices[0].body and ANA not in notices[0].body  # her address stays hers
    assert [m["Subject"] for m in sink.to(BOB) if "bounces" in m["Subject"]] == ["Test game: mail to Ana bounces"]


def test_two_addresses_bouncing_at_once_still_tell_the_host_on_postgresql(app: Any, session: Session,
                                                                          gateway: Any, sink: Any) -> None:
    """Another bounce, for Ana's second address, is suppressing it in a transaction not yet
    committed (it saw this first address still working).  The bounce for the first address
    must wait for it, so that one of the two sees both suppressed and tells the host."""
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: the two bounces cannot overlap there")
    table = _ana_in_bobs_game(app, session)
    envelope = _delivered_to_ana(gateway, sink, table)
    ana_id = _ana(session).user_id
    session.add(EmailAddress(user_id=ana_id, address="ana@work.example.org"))
    session.commit()
    with Session(session.get_bind()) as other:
        second = other.scalar(select(EmailAddress).where(EmailAddress.address == "ana@work.example.org")
                              .with_for_update())
        second.suppressed_at, second.suppressed_reason = datetime.now(timezone.utc), "the mailbox does not exist"
        other.flush()
        holder = other.scalar(text("SELECT pg_backend_pid()"))
        send(gateway.port, _dsn(envelope, **DEAD), "", envelope)  # processed in the gateway's thread
        # Until the gateway's handler is blocked by the other transaction, or done without waiting.
        with Session(session.get_bind()) as probe:
            for _ in range(3000):
                waiting = probe.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE :holder = ANY("
                                            "pg_blocking_pids(pid))"), {"holder": holder})
                done = probe.scalar(select(InboundMessage.status).order_by(InboundMessage.id.desc()).limit(1))
                probe.rollback()
                if waiting or done != "stored":
                    break
                time.sleep(0.01)
        other.commit()
    assert gateway.handler.wait_idle(30)
    assert _ana(session).suppressed_at is not None
    assert [n.to_address for n in session.scalars(select(OutboxMessage).where(OutboxMessage.topic == NOTICE_TOPIC))] \
        == [BOB]


def test_reading_reports_without_a_server() -> None:
    dsn = parse_structure(_dsn("x", status="5.1.10", action="failed", diagnostic="556 5.1.10 null MX"))
    assert read_report(dsn, from_daemon=True).severity == "hard"
    delayed = parse_structure(_dsn("x", status="4.4.1", action="delayed", diagnostic="no answer"))
    assert read_report(delayed, from_daemon=True).severity == "soft"
    delivered = parse_structure(_dsn("x", status="2.0.0", action="delivered", diagnostic="250 ok"))
    assert read_report(delivered, from_daemon=True) is None
    person, _ = compose(ANA, "x@pbem.test", "550 5.1.1 is what I got")
    assert read_report(parse_structure(person), from_daemon=False) is None
    receipt = parse_structure(b"From: Ana <ana@example.org>\r\nContent-Type: multipart/report; "
                              b"report-type=disposition-notification; boundary=R\r\n\r\n--R\r\n"
                              b"Content-Type: text/plain\r\n\r\nYour message was displayed.\r\n--R--\r\n")
    assert read_report(receipt, from_daemon=True) is None  # a read receipt is no bounce
