"""Reading one inbound mail: who sent it, for which seat, whether to answer it, what it says.

`parse_message(raw)` is pure (no database, no clock, no network) and decides nothing
about games: the gateway stores the raw bytes first, then calls it, then looks the token
up, checks the From address against the seat's player and hands the order lines on.

What the sender controls is never trusted for more than it can prove: the token is the
credential; From must also match (the gateway checks); the sender's Date header is kept
as text only, never as an order of arrival; Authentication-Results count only from our
own trusted servers.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import policy
from email.errors import InvalidHeaderDefect
from email.message import Message
from email.parser import BytesParser
from typing import Any, Literal

from pbem.mail.extract import body_text, count_attachments, reply_text
from pbem.outbox import tokens
from pbem.outbox.settings import MailSettings
from pbem.text import one_line

MAX_BYTES = 1024 * 1024  # attachments count too; the SMTP server announces the same SIZE
MAX_PARTS = 200  # MIME parts; a real reply has a handful
MAX_FIELDS = 1000  # header fields; a real reply has under 100
MAX_ADDRESSES = 50  # per header: enough for any real reply, bounded work for forged ones
MAX_HEADER_CHARS = 998  # RFC 5322's line limit: informational values are cut to it
MAX_PARSED_CHARS = 2000  # the stdlib's address parser is slow (1 MB of To: takes minutes)
# Vacation programs that set none of the standard headers still say what they are in the
# subject; bounces.py uses the same pattern to tell them from failure notices.
AUTO_REPLY_SUBJECT = re.compile(r"^\s*(?:out of (?:the )?office|automatic reply|auto(?:matic)?[- ]?(?:reply|response)"
                                r"|auto:|away from (?:the )?office|on vacation|vacation reply)", re.I)

Dmarc = Literal["pass", "fail", "none", "absent"]
# Control characters (C0 but tab and line breaks, DEL, C1) have no place in a header or in
# orders, and PostgreSQL refuses NUL in text; lone surrogates are bytes no charset could read.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` without control characters, and with U+FFFD for bytes no charset could read.
    Everything the sender wrote passes through here before the gateway sees it (header
    values, decoded words, the body text, the envelope), so nothing downstream meets a NUL."""
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("", text))


class MailRejected(ValueError):
    """A mail we will not read at all.  `reason` is a short code for logs and metrics:
    too_large, malformed, no_from, multiple_from, bad_from."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True)
class MailConfig:
    """What the parser must know about our side; the gateway builds it from app config."""

    domain: str = "pbem.example"  # of the reply addresses orders+<token>@<domain>
    local_part: str = tokens.LOCAL_PART
    press_local_part: str = tokens.PRESS_LOCAL_PART  # press+<token>@<domain>: a press thread
    token_length: int = tokens.TOKEN_LENGTH
    # authserv-ids of *our* receiving servers (the first word of their Authentication-Results).
    trusted_authserv_ids: frozenset[str] = frozenset()
    # X-Loop values our outgoing mail carries; seeing one back means a loop.
    loop_markers: frozenset[str] = frozenset({"pbem"})
    # Addresses we send from (besides orders+...@domain); mail from them is a loop.
    own_addresses: frozenset[str] = frozenset()
    max_hops: int = 30  # more Received headers than this: a mail loop between servers

    @classmethod
    def of(cls, settings: MailSettings) -> MailConfig:
        """What the parser must know, from the mail settings."""
        return cls(domain=settings.domain, trusted_authserv_ids=settings.trusted_authserv_ids,
                   loop_markers=frozenset({settings.loop_marker}),
                   own_addresses=frozenset({settings.sender_address.lower()}))


@dataclass(frozen=True)
class InboundMail:
    message_id: str  # "<id>" as sent, or "<sha256-of-content@content-id.invalid>" if none
    digest: str  # sha256 of From, token(s) and the normalised body: catches re-sends
    from_address: str  # domain lower-cased; compare as the accounts service does
    from_name: str
    recipients: tuple[str, ...]  # envelope RCPT TO if the gateway gave it, else header hints
    tokens: tuple[str, ...]  # distinct valid reply tokens among the recipients
    subject: str
    auto_submitted: bool  # Auto-Submitted other than "no", an autoresponder header or subject
    bulk_or_list: bool  # Precedence bulk/list/junk, List-Id, List-Unsubscribe
    bounce: bool  # null sender, mailer-daemon/postmaster, delivery or read reports
    loop: bool  # our own X-Loop, mail from ourselves, or too many hops
    dmarc: Dmarc  # from the topmost trusted Authentication-Results; "absent" without one
    text: str  # the reply without history and signatures: look for orders here
    attachments_ignored: int = 0
    size: int = 0
    date_header: str | None = None  # informational text only: never an order of arrival

    @property
    def token(self) -> str | None:
        """The seat's token when exactly one was found (a mail speaks for one seat)."""
        return self.tokens[0] if len(self.tokens) == 1 else None

    @property
    def automated(self) -> bool:
        """Never answer this mail: an auto-reply, bounce, list message or loop."""
        return self.auto_submitted or self.bulk_or_list or self.bounce or self.loop


def parse_message(raw: bytes, *, config: MailConfig = MailConfig(), max_bytes: int = MAX_BYTES,
                  envelope_to: tuple[str, ...] | list[str] | None = None,
                  envelope_from: str | None = None) -> InboundMail:
    """Read a raw RFC 5322 message.  Raise MailRejected for one not to be read at all.

    `envelope_to` (the SMTP RCPT TO, or what a webhook provider reports) is authoritative
    when given; otherwise To, Cc, Delivered-To and X-Original-To are used.
    `envelope_from` is the SMTP MAIL FROM ("" for the null sender of bounces).
    """
    if len(raw) > max_bytes:  # before parsing: size is the one thing that costs to check late
        raise MailRejected("too_large", f"{len(raw)} bytes, at most {max_bytes}")
    if not raw.strip():
        raise MailRejected("malformed", "empty message")
    try:
        return _read(raw, config, envelope_to, envelope_from)
    except MailRejected:
        raise
    except Exception as error:  # the stdlib parsers have corner cases that raise (a nesting
        raise MailRejected("malformed", type(error).__name__) from None  # too deep): never crash


class _BoundedCompat32(policy.Compat32):
    """compat32 with Content-Type/-Disposition values cut to MAX_PARSED_CHARS: its
    parameter parser is quadratic (23 s for a 1 MB Content-Type), and the parser itself
    calls it to find multipart boundaries.  Real values are under 300 characters."""

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        name, value = super().header_source_parse(sourcelines)
        if name.strip().lower() in ("content-type", "content-disposition"):
            value = value[:MAX_PARSED_CHARS]
        return name, value


_POLICY = _BoundedCompat32()


def parse_structure(raw: bytes) -> Message:
    """The message's MIME structure, read in linear time (compat32, bounded parameters)."""
    return BytesParser(policy=_POLICY).parsebytes(raw)


def _read(raw: bytes, config: MailConfig, envelope_to: tuple[str, ...] | list[str] | None,
          envelope_from: str | None) -> InboundMail:
    # compat32 reads structure and bodies in linear time; policy.default parses every
    # Content-Type with its structured parser (14 s for a 1 MB mail of small parts).  The
    # modern parser is used only on bounded From/To/Cc values, where it is strict.
    message = parse_structure(raw)
    if _part_count_exceeds(message, MAX_PARTS):
        raise MailRejected("malformed", f"more than {MAX_PARTS} MIME parts")
    if len(message) > MAX_FIELDS:
        raise MailRejected("malformed", f"more than {MAX_FIELDS} header fields")
    headers = _Headers(message)
    from_name, from_address = _sender(headers)
    recipients = _recipients(headers, envelope_to)
    found = _tokens(recipients, config)
    body = printable(body_text(message))
    subject = _subject(headers)
    digest = hashlib.sha256("\n".join((from_address, ",".join(sorted(found)),
                                       " ".join(body.split()))).encode("utf-8")).hexdigest()
    return InboundMail(
        message_id=_message_id(headers) or f"<{digest}@content-id.invalid>",
        digest=digest,
        from_address=from_address,
        from_name=from_name,
        recipients=recipients,
        tokens=found,
        subject=subject,
        auto_submitted=_auto_submitted(headers, subject),
        bulk_or_list=_bulk_or_list(headers),
        bounce=_bounce(message, headers, from_address, envelope_from),
        loop=_loop(headers, from_address, config),
        dmarc=_dmarc(headers, config.trusted_authserv_ids),
        text=reply_text(body),
        attachments_ignored=count_attachments(message),
        size=len(raw),
        date_header=headers.first("Date") or None,  # as sent, unparsed
    )


def addressed_token(raw: bytes, *, config: MailConfig = MailConfig(),
                    envelope_to: tuple[str, ...] | list[str] | None = None) -> str | None:
    """The one seat token the message is addressed to, as `parse_message` would find it, but
    reading no more than the header (the gateway records it on arrival, to keep a seat's
    mails in order).  None when there is none, several, or the header cannot be read."""
    try:
        headers = _Headers(BytesParser(policy=_POLICY).parsebytes(raw[:MAX_BYTES], headersonly=True)) \
            if envelope_to is None else None
        found = _tokens(_recipients(headers, envelope_to), config)
    except Exception:  # stored all the same: parse_message decides what the mail is
        return None
    return found[0] if len(found) == 1 else None


def _recipients(headers: _Headers | None, envelope_to: tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if envelope_to is not None:  # the envelope is authoritative
        return tuple(dict.fromkeys(_normal(a) for a in envelope_to))
    assert headers is not None
    return _header_recipients(headers)


def _tokens(recipients: tuple[str, ...], config: MailConfig) -> tuple[str, ...]:
    """The reply tokens among the recipients: of seats (orders+) and of press threads (press+);
    the token alone is the credential, and says which it is (pbem/mail/senders.py)."""
    return tuple(dict.fromkeys(
        token for token in (tokens.token_from_address(r, domain=config.domain, local_part=local_part,
                                                      length=config.token_length)
                            for r in recipients for local_part in (config.local_part, config.press_local_part))
        if token))


# --- addresses --------------------------------------------------------------------------

_ADDR = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")


def _normal(address: str) -> str:
    local, _, domain = address.strip().strip("<>").rpartition("@")
    return f"{local}@{domain.lower()}"


class _Headers:
    """Header values as sent, by name, unfolded, 8-bit bytes read as UTF-8, control characters
    removed (`printable`).  Not through the structured parser: it rewrites some (Date) and
    raises on others (Message-ID: <<<>>>)."""

    def __init__(self, message: Message):
        self._values: dict[str, list[str]] = {}
        for name, value in message.raw_items():
            self._values.setdefault(name.strip().lower(), []).append(printable(_unescape_bytes(str(value))))

    def all(self, name: str, limit: int = MAX_HEADER_CHARS) -> list[str]:
        values = self._values.get(name.lower(), ())
        return [" ".join(value.split())[:limit] for value in values]

    def first(self, name: str) -> str:
        values = self._values.get(name.lower())
        return " ".join(values[0].split())[:MAX_HEADER_CHARS] if values else ""

    def count(self, name: str) -> int:
        return len(self._values.get(name.lower(), ()))

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._values


def _unescape_bytes(value: str) -> str:
    # The bytes parser keeps non-ASCII header bytes as surrogates; they are UTF-8 nowadays.
    return value.encode("ascii", "surrogateescape").decode("utf-8", "replace")


def _parsed(name: str, value: str) -> Any:
    return policy.default.header_factory(name, value)


def _subject(headers: _Headers) -> str:
    """One line of visible text: our answers echo it ("Re: ...") and the review page shows it,
    so a sender's direction overrides must not turn it around there."""
    value = headers.first("Subject")
    try:
        value = printable(str(_parsed("Subject", value)))  # decodes =?utf-8?q?...?= words
    except Exception:  # undecodable encoded words: the raw text is still informative
        pass
    return one_line(value)


def _part_count_exceeds(message: Message, limit: int) -> bool:
    stack, seen = [message], 0
    while stack:
        seen += 1
        if seen > limit:
            return True
        payload = stack.pop().get_payload()
        if isinstance(payload, list):
            stack.extend(part for part in payload if isinstance(part, Message))
    return False


def _sender(headers: _Headers) -> tuple[str, str]:
    """The one From address.  Several, none, or an address the parser had to guess at
    (an 'invalid' defect, as in "a@x)<b@y>") is a rejection, not a choice."""
    values = headers.all("From", limit=MAX_PARSED_CHARS + 1)
    if not values:
        raise MailRejected("no_from")
    if len(values) > 1:
        raise MailRejected("multiple_from", "several From headers")
    if len(values[0]) > MAX_PARSED_CHARS:
        raise MailRejected("bad_from", "From header too long")
    try:
        header = _parsed("From", values[0])
        addresses = header.addresses
    except Exception:
        raise MailRejected("bad_from", "unparseable From header") from None
    if len(addresses) != 1:
        raise MailRejected("multiple_from" if addresses else "no_from", f"{len(addresses)} addresses")
    if any(isinstance(defect, InvalidHeaderDefect) for defect in header.defects):
        raise MailRejected("bad_from", "unparseable From header")
    address = addresses[0]
    if not _ADDR.fullmatch(address.addr_spec) or len(address.addr_spec) > 254:
        raise MailRejected("bad_from", "not a plain mailbox address")
    return printable(address.display_name)[:200], _normal(address.addr_spec)


def _header_recipients(headers: _Headers) -> tuple[str, ...]:
    found: list[str] = []
    for name in ("Delivered-To", "X-Original-To", "To", "Cc"):
        for raw in headers.all(name, limit=MAX_BYTES)[:MAX_ADDRESSES]:
            try:  # display names may hold anything, so the parser, not a regex, finds addresses
                if len(raw) > MAX_PARSED_CHARS:
                    raise ValueError("too long for the address parser")
                addresses = [a.addr_spec for a in _parsed(name, raw).addresses]
            except Exception:  # unstructured (Delivered-To), unparseable or long: <...> or bare
                addresses = [a.strip() for a in re.findall(r"<([^<>]*)>", raw) or raw.split(",")]
            found.extend(a for a in addresses[:MAX_ADDRESSES] if _ADDR.fullmatch(a))
    return tuple(dict.fromkeys(_normal(a) for a in found))


def _message_id(headers: _Headers) -> str | None:
    value = headers.first("Message-ID")
    match = re.search(r"<([^<>\s]{1,250})>", value) or re.fullmatch(r"\s*([^<>\s]{1,250})\s*", value)
    return f"<{match.group(1)}>" if match else None


# --- flags ------------------------------------------------------------------------------

def _auto_submitted(headers: _Headers, subject: str) -> bool:
    value = headers.first("Auto-Submitted").split(";")[0].strip().lower()
    if value and value != "no":  # RFC 3834: auto-generated, auto-replied, auto-notified
        return True
    if any(name in headers for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder")):
        return True  # vacation programs that predate Auto-Submitted
    return headers.first("Precedence").lower() == "auto_reply" or AUTO_REPLY_SUBJECT.match(subject) is not None


def _bulk_or_list(headers: _Headers) -> bool:
    return headers.first("Precedence").lower() in ("bulk", "list", "junk") or any(
        name in headers for name in ("List-Id", "List-Unsubscribe", "List-Post"))


def _bounce(message: Message, headers: _Headers, from_address: str, envelope_from: str | None) -> bool:
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return True
    if headers.first("Return-Path") == "<>" or "X-Failed-Recipients" in headers:
        return True
    if from_address.partition("@")[0].lower() in ("mailer-daemon", "postmaster"):
        return True
    # Reports are the top-level type or one of its parts, not something deep inside a
    # forwarded attachment.
    parts = [message, *(message.get_payload() if message.is_multipart() else [])]
    return any(isinstance(part, Message) and part.get_content_type() in _REPORTS for part in parts)


_REPORTS = frozenset(("multipart/report", "message/delivery-status", "message/global-delivery-status",
                      "message/disposition-notification"))


def _loop(headers: _Headers, from_address: str, config: MailConfig) -> bool:
    markers = {marker.lower() for marker in config.loop_markers}
    if any(value.lower() in markers for value in headers.all("X-Loop")):
        return True
    if from_address.lower() in {a.lower() for a in config.own_addresses}:
        return True
    local, _, domain = from_address.lower().partition("@")
    if domain == config.domain.lower() and local.partition("+")[0] in (config.local_part.lower(),
                                                                       config.press_local_part.lower()):
        return True
    return headers.count("Received") > config.max_hops


# --- DMARC --------------------------------------------------------------------------------

def _dmarc(headers: _Headers, trusted: frozenset[str] | set[str]) -> Dmarc:
    """The dmarc= result of the topmost Authentication-Results from a trusted server.

    Servers add their header on top, so ours is above anything the sender wrote;
    headers further down (even ones naming our server) are the sender's and are ignored.
    """
    wanted = {t.lower() for t in trusted}
    for value in headers.all("Authentication-Results"):
        authserv_id, results = _auth_results(value)
        if authserv_id not in wanted:
            continue
        verdicts = [result for method, result in results if method == "dmarc"]
        if "fail" in verdicts:
            return "fail"
        return "pass" if "pass" in verdicts else "none"
    return "absent"


def _auth_results(value: str) -> tuple[str, list[tuple[str, str]]]:
    """RFC 8601 'authserv-id [version]; method=result ...; ...', comments removed."""
    text = _strip_comments(value)
    head, *resinfos = text.split(";")
    authserv_id = (head.split() or [""])[0].lower()
    results = []
    for resinfo in resinfos:
        match = re.match(r"\s*([\w.-]+)\s*(?:/\s*\d+\s*)?=\s*([\w-]+)", resinfo)
        if match:
            results.append((match.group(1).lower(), match.group(2).lower()))
    return authserv_id, results


def _strip_comments(text: str) -> str:
    out, depth, quoted, escaped = [], 0, False, False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
            continue
        elif char == '"' and not depth:
            quoted = not quoted
        elif char == "(" and not quoted:
            depth += 1
            continue
        elif char == ")" and not quoted and depth:
            depth -= 1
            continue
        if not depth:
            out.append(char)
    return "".join(out)
