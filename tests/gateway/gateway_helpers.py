"""Helpers for the gateway tests: a real SMTP sink, composing and sending mail over SMTP,
reading the replies, and snapshots of a game to prove nothing changed."""
from __future__ import annotations

import email
from email import policy
import smtplib
import socket
import itertools
import threading
import time
from email.message import EmailMessage, Message
from email.utils import formatdate, make_msgid
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.outbox.marker import with_marker
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.mail.models import InboundMessage
from pbem.models import Game, OrderLogEntry, OutboxMessage, PendingOrder

DOMAIN = "pbem.test"
TRUSTED = "mx.pbem.test"
WEBHOOK_SECRET = "webhook-test-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Sink:
    """A real SMTP server that keeps every message it is given (the mail catcher)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()

    def clear(self) -> None:
        with self.lock:
            self.messages.clear()
            self.envelopes.clear()

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if address in (m["To"] or "")]

    def replies_to(self, message_id: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if (m["In-Reply-To"] or "") == message_id]


def compose(sender: str, to: str, body: str, *, subject: str = "Re: your turn", message_id: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[bytes, str]:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id or make_msgid(domain="client.example")
    if "Date" not in (headers or {}):
        message["Date"] = _next_date()
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return bytes(message), str(message["Message-ID"])


_clock = itertools.count()
_START = time.time()


def _next_date() -> str:
    """A fresh Date for every mail, a minute apart, as a person writing them would have."""
    return formatdate(_START + 60 * next(_clock))


def send(port: int, raw: bytes, sender: str, to: str | list[str]) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(sender, [to] if isinstance(to, str) else to, raw)


def mail_and_wait(gateway: Any, sender: str, to: str, text: str, **kw: Any) -> str:
    """Send one mail to the running gateway over SMTP and wait until it is processed; its Message-ID."""
    raw, message_id = compose(sender, to, text, **kw)
    send(gateway.port, raw, sender, to)
    assert gateway.handler.wait_idle(30)
    return message_id


def body(message: Message) -> str:
    part = message.get_body(("plain",)) if hasattr(message, "get_body") else None
    payload = (part or message).get_payload(decode=True)
    text = payload.decode("utf-8") if isinstance(payload, bytes) else str(message.get_payload())
    text = text.replace("\r\n", "\n")
    # What we said, under the line every repliable mail starts with (pbem/outbox/marker.py).
    return text.removeprefix(with_marker(""))


def snapshot(session: Session, game_id: int) -> dict[str, Any]:
    """What a mail must not change when it is refused: version, order log, pending orders."""
    session.expire_all()
    game = session.get(Game, game_id)
    assert game is not None
    return {"version": game.version, "status": game.status,
            "log": list(session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.text)
                                        .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq))),
            "pending": list(session.execute(select(PendingOrder.seat, PendingOrder.text)
                                            .where(PendingOrder.game_id == game_id).order_by(PendingOrder.id)))}


def inbound_rows(session: Session) -> list[InboundMessage]:
    session.expire_all()
    return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def outbox_count(session: Session, **where: Any) -> int:
    query = select(func.count(OutboxMessage.id))
    for name, value in where.items():
        query = query.where(getattr(OutboxMessage, name) == value)
    return int(session.scalar(query) or 0)


def fail_once(monkeypatch: Any, owner: Any, name: str, error: BaseException) -> list[int]:
    """Make `owner.name` raise `error` on its first call only (a bug, the database away, the
    process dying), then behave; the list counts the calls."""
    real, calls = getattr(owner, name), []

    def failing_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, failing_once)
    return calls



def seat_address(session: Session, config: Any, game: Game, user_id: int) -> str:
    """The reply address of the user's seat in `game`."""
    seat = next(s for s in game.seats if s.user_id == user_id)
    address = seat_reply_address(session, seat, load(config))
    session.commit()
    return address


def ask(gateway: Any, sink: Any, sender: str, to: str, text: str) -> Message:
    """Mail `text` and wait for the one reply."""
    replies = sink.replies_to(mail_and_wait(gateway, sender, to, text))
    assert len(replies) == 1
    return replies[0]
