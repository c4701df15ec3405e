"""A turn played with a real reply of each family of mail clients.

Each body is a real reply from the corpus (tests/mail/corpus_real: the public fixtures of
reply parsers), with the person's order put on top, and with our own last mail pasted below
it unquoted after an "On ... wrote:" line, as some clients do: the order is carried out,
nothing of our mail (which may hold orders) is read again, and what was not read is quoted.
"""
from __future__ import annotations

import json
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from engine.aztlan.bots import make_bot
from engine.aztlan.orders import to_text
from gateway_helpers import body, send
from pbem.outbox.delivery import deliver_pending
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.marker import MARKER
from pbem.outbox.settings import load
from pbem.models import Game, OrderLogEntry
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"
CASES = Path(__file__).parents[1] / "mail" / "corpus_real" / "cases"
# One real reply per family: (case, what it is)
FAMILIES = [
    ("mailgun__gmail__top.txt", "Gmail, plain text"),
    ("mailgun__gmail__top.html", "Gmail, HTML only"),
    ("mailgun__outlook__top.txt", "Outlook desktop"),
    ("mailgun__ms_outlook_2010__top.html", "Outlook 2010, HTML only"),
    ("mailgun__iphone__top.txt", "iPhone Mail"),
    ("mailgun__thunderbird__top.txt", "Thunderbird"),
    ("mailgun__yahoo__top.txt", "Yahoo Mail"),
    ("mailgun__android__top.txt", "Android phone"),
    ("crisp-oss__email_ios_outlook_fr__top.txt", "Outlook for iOS, French"),
    ("willdurand__email_norwegian_gmail__top.txt", "Gmail, Norwegian"),
]


def real_reply(case: str, order: str) -> str:
    """The case's body with `order` instead of the orders the corpus put there."""
    path = CASES / case
    text = path.read_text("utf-8")
    orders = json.loads(path.with_suffix(".json").read_text("utf-8"))["orders"]
    if path.suffix == ".html":
        return text.replace("".join(f"<div>{o}</div>" for o in orders), f"<div>{order}</div>", 1)
    return order + text.removeprefix("\n".join(orders))


def mail(to: str, text: str, html: bool) -> tuple[bytes, str]:
    message = EmailMessage()
    message["From"] = f"Ana <{ANA}>"
    message["To"] = to
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = make_msgid(domain="client.example")
    message.set_content(text, subtype="html" if html else "plain", cte="quoted-printable")
    return message.as_bytes(policy=policy.SMTP), str(message["Message-ID"])  # CRLF, as clients send


def test_a_turn_with_a_reply_from_each_client_family(app: Any, session: Session, gateway: Any, sink: Any) -> None:
    with app.app_context():
        ana = make_user(session, ANA, "Ana")
        game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    settings = load(app.config)
    address = seat_reply_address(session, seat, settings)
    session.commit()
    deliver_pending(session, settings)
    seat_name, game_id = seat.name, game.id
    for step, (case, family) in enumerate(FAMILIES):
        session.expire_all()
        game = session.get(Game, game_id)
        assert game.status == Game.ACTIVE, family
        state = game_state(session, game)
        order = to_text(make_bot("heuristic", f"clients:{step}").order(state, state.seats.index(seat_name)))
        ours = sink.to(ANA)[-1]  # our last mail: a turn mail or a confirmation, marker first
        assert ours.get_body(("plain",)).get_content().startswith(MARKER)
        pasted = f"On Mon, 3 Nov 2026 at 10:02, pbem <{address}> wrote:\n{ours.get_body(('plain',)).get_content()}"
        html = case.endswith(".html")
        text = real_reply(case, order)
        text = text + (f"<div>{pasted.replace(chr(10), '<br>')}</div>" if html else "\n\n" + pasted)
        raw, message_id = mail(address, text, html)
        session.rollback()
        send(gateway.port, raw, ANA, address)
        assert gateway.handler.wait_idle(30)
        replies = sink.replies_to(message_id)
        assert len(replies) == 1, family
        answer = body(replies[0])
        assert answer.startswith("Accepted for "), (family, answer)
        assert f"    {order}\n" in answer, (family, answer)
        assert "Nothing was carried out" not in answer, family
        session.expire_all()
        logged = [row.text for row in session.query(OrderLogEntry).filter_by(game_id=game_id, seat=seat_name)]
        assert order in logged, family


def test_a_chatty_reply_gets_a_short_friendly_answer(app: Any, session: Session, gateway: Any, sink: Any) -> None:
    """No orders: no error, what the game waits for, how to send orders, the prose quoted back;
    a prose line over 200 characters is no error either."""
    with app.app_context():
        ana = make_user(session, ANA, "Ana")
        game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(app.config))
    session.commit()
    long_line = "What a game! " * 20
    raw, message_id = mail(address, f"Thanks for hosting, Bob.\n{long_line}\n\nCheers,\nAna\n", False)
    session.rollback()
    send(gateway.port, raw, ANA, address)
    assert gateway.handler.wait_idle(30)
    answer = body(sink.replies_to(message_id)[0])
    assert answer.startswith("Thanks for your mail. No orders or commands were found in it"), answer
    assert "Waiting for: you (" in answer and "You are asked to" in answer
    assert "reply with them on the first lines of your mail" in answer
    assert "    > Thanks for hosting, Bob." in answer and "    > Cheers," in answer
    assert "could not be carried out" not in answer and "longer than" not in answer
