"""Email gateway throughput on PostgreSQL: inbound messages per second from SMTP receipt
(real aiosmtpd over loopback) to stored, authenticated orders.

Each message is a reply to a seat's token address from the player's confirmed address,
carrying a legal order (a secret card choice that replaces the last one); the row counts when it is processed (token, From, de-duplication,
the order committed through the application layer, the reply queued).  Two figures:
`gateway.smtp_store` (SMTP transaction to the committed raw row, the acknowledgement path)
and `gateway.smtp_to_orders` (the same, through processing).  Outbound delivery is off
(replies stay in the outbox).  Bounded: at most MESSAGES messages or SECONDS seconds.  What one
mail costs the database (statements, commits) is a test, not a figure here:
tests/gateway/test_mail_budget.py.
"""
from __future__ import annotations

import os
import smtplib
import socket
import sys
import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bench.postgres import create_schema, drop_schema

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = 200
SECONDS = 20.0
# Games of two people of whom only one mails: their secret card choice stays pending (the other
# has not chosen), so every mail's card order is legal, committed, and replaces the last one.
SEATS = 20


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _mail(sender: str, to: str, body: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: your turn"
    message["Message-ID"] = make_msgid(domain="bench.example")
    message["Date"] = formatdate(time.time() + 60 * n)
    message.set_content(body + "\n\n-- \nsent from the bench\n")
    return bytes(message)


def run() -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests" / "service"))
    from pbem.app import create_app
    from pbem.db import upgrade
    from pbem.extensions import db
    from pbem.mail.models import InboundMessage
    from pbem.mail.smtpd import controller
    from pbem.outbox.seat_tokens import seat_reply_address
    from pbem.services import lobby
    from pbem.services.state import game_state
    from service_helpers import make_game, make_user

    schema = f"pbem_bench_gateway_{os.getpid()}"
    url = create_schema(schema)
    try:
        upgrade(url)
        app = create_app({"TESTING": True, "PBEM_ENV": "testing", "SECRET_KEY": "bench", "DATABASE_URL": url,
                          "PBEM_MAIL_DOMAIN": "pbem.bench", "PBEM_MAIL_PROCESS": "inline",
                          "PBEM_MAIL_RATE_PER_HOUR": 100_000, "RATELIMIT_ENABLED": False})
        seats = []
        with app.app_context():
            session = db.session()
            for i in range(SEATS):
                user = make_user(session, f"p{i}@bench.example", f"P{i}")
                other = make_user(session, f"q{i}@bench.example", f"Q{i}")
                game = make_game(session, user, players=2, bots=(), invites=[f"q{i}@bench.example"], seed=i)
                lobby.join_game(session, game.id, other)
                session.expire_all()
                seat = next(s for s in game.seats if s.user_id == user.id)
                cards = game_state(session, game).view(seat.name)["me"]["power_left"]
                seats.append((f"p{i}@bench.example", seat_reply_address(session, seat), cards))
            session.commit()
            db.session.remove()
        port = _free_port()
        server, handler = controller(app, host="127.0.0.1", port=port)
        server.start()
        try:
            raws = []
            for n in range(MESSAGES):
                sender, address, cards = seats[n % SEATS]
                body = f"card {cards[(n // SEATS) % len(cards)]}"
                raws.append((sender, address, _mail(sender, address, body, n)))
            start = time.perf_counter()
            sent = 0
            with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
                for sender, address, raw in raws:
                    client.sendmail(sender, [address], raw)
                    sent += 1
                    if time.perf_counter() - start > SECONDS:
                        break
            stored_at = time.perf_counter()
            handler.wait_idle(SECONDS * 3)
            done_at = time.perf_counter()
            with app.app_context():
                statuses = dict(db.session.execute(select(InboundMessage.status, func.count())
                                                   .group_by(InboundMessage.status)).all())
                db.session.remove()
        finally:
            server.stop()
            handler.close()
        processed = statuses.get("processed", 0)
        return [
            {"name": "gateway.smtp_store", "value": round(sent / (stored_at - start), 1), "unit": "messages/s",
             "messages": sent, "note": "SMTP DATA to committed raw row (what the 250 waits for), PostgreSQL"},
            {"name": "gateway.smtp_to_orders", "value": round(processed / (done_at - start), 1),
             "unit": "messages/s", "messages": sent, "processed": processed, "statuses": statuses,
             "note": "SMTP receipt to authenticated, de-duplicated, committed orders and a queued reply; "
                     "one SMTP connection, inline processing (one lane per game, smtpd.PROCESS_LANES), PostgreSQL"},
        ]
    finally:
        drop_schema(schema)


if __name__ == "__main__":
    import json
    for row in run():
        print(json.dumps(row))
