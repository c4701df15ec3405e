"""What the inbound core decides on its own: size, From, token, flags, DMARC, identity.

The gateway then refuses or ignores: a forged From with a valid token fails its From check
(the core reports the real From faithfully), a wrong token finds no seat, a replay repeats
a Message-ID or digest, a loop or auto-reply is flagged, an oversized mail never parses.
"""
from __future__ import annotations

import dataclasses
from datetime import date, datetime
from pathlib import Path

import pytest

from mail_guards import hang_guard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import inbound
from pbem.mail.inbound import MAX_BYTES, InboundMail, MailConfig, MailRejected, parse_message
from pbem.outbox.tokens import new_token, reply_address, token_from_address

TOKEN = "ti2uwkce53qv44r6zau2upfqwq"
TO = f"orders+{TOKEN}@pbem.example"
CONFIG = MailConfig(domain="pbem.example", trusted_authserv_ids=frozenset({"mx.pbem.example"}),
                    loop_markers=frozenset({"pbem.example"}),
                    own_addresses=frozenset({"noreply@pbem.example"}))


def raw(*headers: str, body: str = "card 5\n", sender: str = "Ana <ana@example.com>",
        to: str = TO, message_id: str | None = "<m1@example.com>") -> bytes:
    lines = [f"From: {sender}"] if sender else []
    lines += [f"To: {to}", "Subject: Re: your turn", "Date: Tue, 3 Nov 2026 10:02:00 +0000"]
    if message_id:
        lines.append(f"Message-ID: {message_id}")
    lines += [*headers, "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "", body]
    return "\r\n".join(lines).encode("utf-8")


def read(*headers: str, **kwargs) -> InboundMail:
    envelope = {k: kwargs.pop(k) for k in ("envelope_to", "envelope_from") if k in kwargs}
    return parse_message(raw(*headers, **kwargs), config=CONFIG, **envelope)


def test_a_plain_reply():
    mail = read()
    assert (mail.from_address, mail.token, mail.text) == ("ana@example.com", TOKEN, "card 5")
    assert not mail.automated
    assert mail.message_id == "<m1@example.com>" and mail.subject == "Re: your turn"


# --- size and shape ---------------------------------------------------------------------

def test_an_oversized_message_is_rejected_before_parsing(monkeypatch):
    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed an oversized message")
    monkeypatch.setattr(inbound, "BytesParser", no_parsing)
    with pytest.raises(MailRejected) as error:
        parse_message(b"x" * (MAX_BYTES + 1))
    assert error.value.reason == "too_large"


def test_the_size_limit_is_a_parameter():
    message = raw(body="card 5\n" + "x" * 2000)
    with pytest.raises(MailRejected, match="too_large"):
        parse_message(message, max_bytes=len(message) - 1)
    assert parse_message(message, max_bytes=len(message)).size == len(message)


@pytest.mark.parametrize("message, reason", [
    (b"", "malformed"),
    (b"\r\n\r\n", "malformed"),
    (b"\x00\xff\xfe garbage without headers", "no_from"),
    (raw(sender=""), "no_from"),
    (raw("From: Eve <eve@example.org>"), "multiple_from"),
    (raw(sender="ana@example.com, eve@example.org"), "multiple_from"),
    (raw(sender="undisclosed-recipients:;"), "no_from"),
    (raw(sender="ana@example.com)<eve@example.org>"), "bad_from"),
    (raw(sender="MAILER-DAEMON"), "bad_from"),
    (raw(sender='"a@b"@example.com'), "bad_from"),
])
def test_messages_we_do_not_read_at_all(message, reason):
    with pytest.raises(MailRejected) as error:
        parse_message(message, config=CONFIG)
    assert error.value.reason == reason


def test_a_parser_crash_is_a_rejection_not_a_gateway_crash(monkeypatch):
    def broken(message):
        raise IndexError("a corner case of the header parser")
    monkeypatch.setattr(inbound, "body_text", broken)
    with pytest.raises(MailRejected, match="malformed"):
        read()


def nested(depth: int) -> bytes:
    parts = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(depth))
    return raw(body="card 5").replace(b"Content-Type: text/plain; charset=utf-8\r\n\r\n", parts.encode())


def test_deep_nesting_is_read_only_so_deep():
    assert parse_message(nested(100), config=CONFIG).text == ""


@pytest.mark.parametrize("message", [
    nested(2000),
    raw(body="--b\r\nContent-Type: text/plain\r\n\r\ncard 5\r\n" * 5000).replace(
        b"text/plain; charset=utf-8", b"multipart/mixed; boundary=b"),
    raw(*["X-Spam: yes"] * 20_000),
])
def test_too_many_parts_or_fields_is_refused(message):
    with hang_guard():
        with pytest.raises(MailRejected, match="malformed"):
            parse_message(message, config=CONFIG)


@pytest.mark.parametrize("header", [
    "Subject: " + "a " * 400_000,
    "Subject: " + "=?utf-8?q?a?= " * 60_000,
    "Cc: " + "a@b.example, " * 60_000,
    "Cc: " + '"Name, Jr." <n@b.example>, ' * 30_000,
    "Authentication-Results: " + "(" * 500_000,
    "Message-ID: " + "<" * 500_000,
])
def test_huge_headers_take_linear_time(header):
    """The stdlib's structured header parser needs minutes (and gigabytes) for these."""
    with hang_guard():
        read(header)


def test_a_huge_from_is_refused():
    with pytest.raises(MailRejected, match="bad_from"):
        read(sender="a@b.example, " * 50_000)


# --- From -------------------------------------------------------------------------------

def test_from_is_the_address_not_the_display_name_nor_reply_to_or_sender():
    mail = read("Reply-To: ana@example.com", "Sender: ana@example.com",
                sender='"ana@example.com" <eve@evil.example>')
    assert mail.from_address == "eve@evil.example"
    assert mail.from_name == "ana@example.com"


def test_from_domain_is_lower_cased_and_encoded_names_decoded():
    mail = read(sender="=?utf-8?q?Jos=C3=A9?= <Jose.Pereira@Example.ES>")
    assert (mail.from_address, mail.from_name) == ("Jose.Pereira@example.es", "José")


# --- tokens -----------------------------------------------------------------------------

def test_new_tokens_have_the_accepted_shape():
    token = new_token()
    assert token != new_token()
    assert token_from_address(reply_address(token, domain="pbem.example"), domain="pbem.example") == token


@pytest.mark.parametrize("address", [
    f"orders+{TOKEN[:-1]}@pbem.example",  # too short
    f"orders+{TOKEN}a@pbem.example",  # too long
    f"orders+{TOKEN[:-1]}1@pbem.example",  # 0, 1, 8, 9 are not base32
    f"orders+{TOKEN[:-1]}_@pbem.example",
    f"orders+{TOKEN[:-1]}-@pbem.example",
    f"orders+{TOKEN}+x@pbem.example",
    f"orders+{TOKEN}@pbem.example.evil.com",
    f"orders+{TOKEN}@evil.example",
    f"player+{TOKEN}@pbem.example",
    f"orders{TOKEN}@pbem.example",
    "orders+@pbem.example",
    "orders@pbem.example",
])
def test_anything_but_the_exact_token_shape_is_no_token(address):
    assert read(to=address).tokens == ()
    assert read(to=address).token is None


def test_a_relay_changing_case_does_not_lock_the_player_out():
    assert read(to=f"Orders+{TOKEN.upper()}@PBEM.example").token == TOKEN


def test_the_token_in_a_display_name_does_not_count():
    assert read(to=f'"{TO}" <ana@example.com>').token is None


def test_the_envelope_is_authoritative_when_given():
    assert read(envelope_to=["other@pbem.example"]).token is None  # the To header is not used
    bcc = read(to="friends@example.com", envelope_to=[f"<{TO}>"])
    assert (bcc.token, bcc.recipients) == (TOKEN, (TO,))


def test_without_an_envelope_delivered_to_and_cc_count():
    assert read(f"Delivered-To: {TO}", to="friends@example.com").token == TOKEN
    assert read(f"Cc: Game <{TO}>", to="friends@example.com").token == TOKEN


def test_two_seats_in_one_mail_is_no_seat():
    other = "zzu4ax6do2du4gf2z3lvi64xq4"
    mail = read(f"Cc: orders+{other}@pbem.example")
    assert mail.tokens == (TOKEN, other) and mail.token is None


# --- never answer -----------------------------------------------------------------------

@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated",
                                    "Auto-Submitted: auto-notified; owner-email=x@example.com",
                                    "X-Autoreply: yes", "X-Autorespond: vacation", "Precedence: auto_reply"])
def test_auto_replies_are_flagged(header):
    mail = read(header)
    assert mail.auto_submitted and mail.automated


@pytest.mark.parametrize("subject", ["Automatic reply: Re: your turn", "Out of Office: your turn",
                                     "Auto: away until Monday", "AutoReply", "On vacation"])
def test_auto_replies_without_standard_headers_are_flagged_by_subject(subject):
    mail = parse_message(raw().replace(b"Subject: Re: your turn", f"Subject: {subject}".encode()), config=CONFIG)
    assert mail.auto_submitted and mail.automated


def test_a_reply_quoting_an_auto_reply_subject_is_a_person():
    mail = parse_message(raw().replace(b"Subject: Re: your turn", b"Subject: Re: Out of office"), config=CONFIG)
    assert not mail.automated


def test_auto_submitted_no_is_a_person():
    assert not read("Auto-Submitted: no").automated


@pytest.mark.parametrize("header", ["Precedence: bulk", "Precedence: list", "Precedence: junk",
                                    "List-Id: <players.pbem.example>",
                                    "List-Unsubscribe: <mailto:leave@lists.example>"])
def test_bulk_and_list_mail_is_flagged(header):
    mail = read(header)
    assert mail.bulk_or_list and mail.automated


def test_bounces_are_flagged():
    assert read(envelope_from="").bounce
    assert read(envelope_from="<>").bounce
    assert not read(envelope_from="ana@example.com").bounce
    assert read("Return-Path: <>").bounce
    assert read("X-Failed-Recipients: ana@example.com").bounce
    assert read(sender="Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>").bounce
    assert read(sender="postmaster@example.com").bounce
    report = raw(body="--r\r\nContent-Type: text/plain\r\n\r\nDelivery failed\r\n--r\r\n"
                      "Content-Type: message/delivery-status\r\n\r\nAction: failed\r\n--r--\r\n")
    report = report.replace(b"text/plain; charset=utf-8",
                            b'multipart/report; report-type=delivery-status; boundary="r"')
    assert parse_message(report, config=CONFIG).bounce


def test_loops_are_flagged():
    assert read("X-Loop: pbem.example").loop
    assert read("X-Loop: PBEM.example").loop
    assert not read("X-Loop: other.example").loop
    assert read(sender=f"pbem <orders+{TOKEN}@pbem.example>").loop
    assert read(sender="pbem <noreply@pbem.example>").loop
    hops = [f"Received: from mx{n}.example.net by mx{n + 1}.example.net; Mon, 3 Nov 2026 10:02:00 +0000"
            for n in range(CONFIG.max_hops + 1)]
    assert read(*hops).loop
    assert not read(*hops[:5]).loop


# --- DMARC ------------------------------------------------------------------------------

def ar(text: str) -> str:
    return f"Authentication-Results: {text}"


@pytest.mark.parametrize("headers, verdict", [
    ([ar("mx.pbem.example; dkim=pass header.d=example.com; dmarc=pass header.from=example.com")], "pass"),
    ([ar("mx.pbem.example; dmarc=fail (p=REJECT sp=REJECT dis=NONE) header.from=example.com")], "fail"),
    ([ar("MX.PBEM.EXAMPLE 1; dmarc=fail header.from=example.com")], "fail"),
    ([ar("mx.pbem.example; spf=pass smtp.mailfrom=example.com")], "none"),
    ([ar("mx.pbem.example; none")], "none"),
    ([ar("mx.pbem.example; spf=pass (sender claims dmarc=pass) smtp.mailfrom=example.com")], "none"),
    ([ar("mx.pbem.example; dmarc=temperror header.from=example.com")], "none"),
    ([ar("mx.evil.example; dmarc=pass header.from=example.com")], "absent"),
    ([], "absent"),
    # Attackers write their own headers into the mail; those sit below ours and never count,
    # not even when they name our server.
    ([ar("mx.pbem.example; dmarc=fail header.from=example.com"),
      ar("mx.pbem.example; dmarc=pass header.from=example.com")], "fail"),
    (["Received: from mail.evil.example by mx.pbem.example",
      ar("mx.pbem.example; dmarc=none header.from=example.com"),
      ar("mx.pbem.example; dmarc=pass header.from=example.com")], "none"),
    ([ar("mx.evil.example; dmarc=pass"), ar("mx.pbem.example; dmarc=fail")], "fail"),
])
def test_dmarc_comes_from_the_topmost_trusted_authentication_results(headers, verdict):
    message = raw(body="card 5\n")
    message = b"\r\n".join(h.encode() for h in headers) + (b"\r\n" if headers else b"") + message
    assert parse_message(message, config=CONFIG).dmarc == verdict


def test_without_trusted_servers_dmarc_is_absent():
    message = (ar("mx.pbem.example; dmarc=fail") + "\r\n").encode() + raw()
    assert parse_message(message).dmarc == "absent"


# --- identity, replays, time ------------------------------------------------------------

def test_message_ids_are_normalised():
    assert read(message_id="  <abc.123@example.com>  ").message_id == "<abc.123@example.com>"
    assert read(message_id="(comment) <abc@example.com>").message_id == "<abc@example.com>"
    assert read(message_id="abc@example.com").message_id == "<abc@example.com>"


def test_a_message_without_message_id_gets_a_stable_content_id():
    first = read(message_id=None)
    again = parse_message(raw(message_id=None).replace(b"10:02:00", b"10:09:00"), config=CONFIG)
    other = read(message_id=None, body="card 6\n")
    assert first.message_id == again.message_id == f"<{first.digest}@content-id.invalid>"
    assert first.message_id != other.message_id
    assert read(message_id="<<<>>>").message_id == first.message_id


def test_a_resent_message_with_a_new_message_id_has_the_same_digest():
    first = read(message_id="<m1@example.com>")
    resent = read("Received: from relay.example.net by mx.pbem.example", message_id="<m2@example.com>")
    assert first.message_id != resent.message_id and first.digest == resent.digest


def test_the_digest_ignores_transfer_encoding_and_line_ends():
    plain = read(body="card 5\r\nplace Amatlán\r\n")
    encoded = raw(body="card 5\r\nplace Amatl=C3=A1n\r\n").replace(
        b"charset=utf-8", b"charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable")
    assert parse_message(encoded, config=CONFIG).digest == plain.digest


def test_the_digest_depends_on_sender_seat_and_body():
    base = read()
    assert read(sender="eve@example.org").digest != base.digest
    assert read(to=f"orders+{'a' * 26}@pbem.example").digest != base.digest
    assert read(body="card 6\n").digest != base.digest


def test_the_senders_date_is_text_only():
    """Order of arrival is the server's: nothing sortable comes from the Date header."""
    mail = read()
    assert mail.date_header == "Tue, 3 Nov 2026 10:02:00 +0000"
    assert not any(isinstance(getattr(mail, f.name), (date, datetime)) for f in dataclasses.fields(mail))
    assert read("Date: Thu, 1 Jan 1970 00:00:00 +0000").digest == mail.digest


# --- robustness -------------------------------------------------------------------------

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.eml"))
_JUNK = [b"<", b">", b"\r\n", b"=?utf-8?b?", b"?=", b'"', b"(", b"\\", b":", b";", b",", b"@",
         b"--", b"\x00", b"\xff", b"boundary=", b"charset=", b"=\r\n", b"<blockquote>"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                                                   st.integers(0, len(_JUNK) - 1), st.integers(0, 20)),
                                         min_size=1, max_size=12))
def test_mangled_mail_is_read_or_rejected_never_a_crash(path, edits):
    message = bytearray(path.read_bytes())
    for where, junk, cut in edits:
        at = int(where * len(message))
        message[at:at + cut % 3] = _JUNK[junk] if cut % 2 else b""
    try:
        parse_message(bytes(message), config=CONFIG)
    except MailRejected:
        pass


def test_a_charset_label_with_a_nul_is_survived():
    message = raw(body="card 5\n").replace(b"charset=utf-8", b"charset=us\x00-ascii")
    assert parse_message(message, config=CONFIG).text == "card 5"


def test_broken_address_headers_do_not_reject_the_mail():
    mail = read(to=f"Game <{TO}, (unclosed")
    assert mail.text == "card 5"
