"""Mail commands, the error reply, the signed webhook and outbound delivery."""
from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from gateway_helpers import WEBHOOK_SECRET, body, compose, inbound_rows, send, snapshot
from pbem.outbox.delivery import deliver, unsubscribe_token
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.models import MailDelivery
from pbem.outbox.messages import send_mail
from pbem.outbox.settings import load
from pbem.mail.webhook import signature
from pbem.models import Game, OutboxMessage, User
from pbem.services.moves_mail import RECAP
from seat_game import BO, ana_and_bo_game
from service_helpers import make_game, make_user

ANA = "ana@example.org"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(app.config))
    session.commit()
    return {"game_id": game.id, "address": address, "user_id": ana.id}


def _ask(gateway: Any, sink: Any, to: str, text: str) -> str:
    raw, message_id = compose(ANA, to, text)
    send(gateway.port, raw, ANA, to)
    assert gateway.handler.wait_idle(30)
    replies = sink.replies_to(message_id)
    assert len(replies) == 1
    return body(replies[0])


def test_information_commands(table: dict[str, Any], gateway: Any, sink: Any) -> None:
    text = _ask(gateway, sink, table["address"], "status\nBOARD\nHand\nHISTORY\nHELP")
    assert "Waiting for:" in text and "choose your power card" in text
    assert "Score track:" in text
    assert "Power cards left in your hand: 4, 5, 6, 7, 8, 9." in text
    assert "Age 1 begins." in text
    assert "RESIGN CONFIRM" in text


def test_waiting_for_names_only_the_seats_whose_orders_are_not_in(app: Any, session: Session, gateway: Any,
                                                                   sink: Any) -> None:
    """Ana's card is in and the bot decides the moment the others have: Bo alone is awaited,
    in the confirmation and in STATUS alike."""
    table = ana_and_bo_game(session, app.config)
    bo = next(s.name for s in session.get(Game, table["game_id"]).seats if s.user and s.user.primary_address == BO)
    session.rollback()
    text = _ask(gateway, sink, table["address"], f"{table['order']}\nSTATUS")
    assert text.count(f"Waiting for: Bo ({bo}) (choose your power card).") == 2, text
    assert "you (" not in text and "bot" not in text.split("Waiting for:", 1)[1]


def test_an_error_quotes_the_line_and_returns_the_unprocessed_part(table: dict[str, Any], session: Session,
                                                                   gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    text = _ask(gateway, sink, table["address"], "Hi!\ncard 7\nplce 12\nSTATUS\n")
    # The greeting is no order; the mistyped order is one, and refuses the whole mail.
    assert text.startswith("Nothing was carried out: line 3 could not be carried out.")
    assert "    > plce 12" in text and "expected" in text
    assert "Not processed:\n    card 7\n    plce 12\n    STATUS" in text
    assert "Send HELP" in text
    assert "Before your orders, not read as orders:\n    > Hi!" in text
    assert snapshot(session, table["game_id"]) == before


def test_a_bad_command_argument_says_what_was_expected(table: dict[str, Any], gateway: Any, sink: Any) -> None:
    text = _ask(gateway, sink, table["address"], "card 7\nVACATION next week")
    assert "> VACATION next week" in text and "YYYY-MM-DD" in text
    assert text.startswith("Nothing was carried out")


def test_orders_and_commands_in_one_mail(table: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    text = _ask(gateway, sink, table["address"], "- card 9\n\nHAND\n\nThanks,\nAna\n")
    assert text.startswith("Accepted for Ana")
    assert "    card 9\n" in text
    assert "Your power card this age: 9." in text


def test_queue_and_cancel(table: dict[str, Any], gateway: Any, sink: Any) -> None:
    text = _ask(gateway, sink, table["address"], "QUEUE\nplace 1\nplace 2")
    assert "1. place 1" in text and "2. place 2" in text
    text = _ask(gateway, sink, table["address"], "CANCEL 1\nQUEUE")
    assert "Queued turn 1 cancelled" in text and "1. place 2" in text


def _post(client: Any, raw: bytes, *, secret: str = WEBHOOK_SECRET, stamp: int | None = None,
          envelope_to: str = "", envelope_from: str = ANA) -> Any:
    stamp = int(time.time()) if stamp is None else stamp
    return client.post("/mail/inbound", data=raw, content_type="message/rfc822", headers={
        "X-Pbem-Timestamp": str(stamp), "X-Pbem-Envelope-From": envelope_from,
        "X-Pbem-Envelope-To": envelope_to,
        "X-Pbem-Signature": signature(secret, str(stamp), envelope_from, envelope_to, raw)})


def test_webhook_stores_signed_mail_and_refuses_the_rest(app: Any, table: dict[str, Any], session: Session,
                                                         sink: Any) -> None:
    client = app.test_client()
    raw, message_id = compose(ANA, table["address"], "STATUS")
    assert _post(client, raw, secret="wrong", envelope_to=table["address"]).status_code == 403
    assert _post(client, raw, stamp=int(time.time()) - 600, envelope_to=table["address"]).status_code == 403
    assert inbound_rows(session) == []
    response = _post(client, raw, envelope_to=table["address"])
    assert response.status_code == 200, response.data
    rows = inbound_rows(session)
    assert [(r.channel, r.status) for r in rows] == [("webhook", "processed")]
    assert "Waiting for:" in body(sink.replies_to(message_id)[0])
    # Forged envelope: the signature covers it.
    forged = client.post("/mail/inbound", data=raw, content_type="message/rfc822", headers={
        "X-Pbem-Timestamp": str(int(time.time())), "X-Pbem-Envelope-To": "orders+x@pbem.test",
        "X-Pbem-Signature": signature(WEBHOOK_SECRET, str(int(time.time())), ANA, table["address"], raw)})
    assert forged.status_code == 403


def test_delivery_is_idempotent_and_unsubscribe_works(app: Any, table: dict[str, Any], session: Session,
                                                      sink: Any) -> None:
    settings = load(app.config)
    message = send_mail(session, ANA, "Your turn", "Play!", topic="turn", key="turn:1:2:serpent")
    again = send_mail(session, ANA, "Your turn", "Play!", topic="turn", key="turn:1:2:serpent")
    session.commit()
    assert again.id == message.id
    assert deliver(session, message.id, settings) == "sent"
    assert deliver(session, message.id, settings) == "already"
    got = [m for m in sink.to(ANA) if m["Subject"] == "Your turn"]
    assert len(got) == 1
    assert got[0]["X-Loop"] == settings.loop_marker
    link = got[0]["List-Unsubscribe"].strip("<>")
    path = link.split(settings.base_url, 1)[1]
    client = app.test_client()
    page = client.get(path)
    assert page.status_code == 200
    assert page.headers["Referrer-Policy"] == "no-referrer"  # its address is the credential
    assert client.post(path).status_code == 200
    session.expire_all()
    assert session.get(User, table["user_id"]).notify_turn is False
    assert client.post("/mail/unsubscribe/" + unsubscribe_token(load({"SECRET_KEY": "other"}), 1,
                                                                  "notify_turn")).status_code == 404
    assert session.scalar(select(OutboxMessage.sent_at).where(OutboxMessage.id == message.id)) is not None


def test_after_a_backlog_only_the_newest_turn_mail_of_a_game_goes_out(app: Any, table: dict[str, Any],
                                                                       session: Session, sink: Any) -> None:
    settings = load(app.config)
    stale = send_mail(session, ANA, "Your turn in Backlog (game 901)", "Choose a card.", topic="turn",
                      key="turn:901:1:serpent")
    latest = send_mail(session, ANA, "Your turn in Backlog (game 901)", "Develop.", topic="turn",
                       key="turn:901:2:serpent")
    elsewhere = send_mail(session, ANA, "Your turn in Other (game 902)", "Choose a card.", topic="turn",
                          key="turn:902:1:serpent")
    # News of the opponents' moves is told once, in the mail that has it: never withheld.
    news = send_mail(session, ANA, "Your turn in Other (game 902)", f"Develop.\n{RECAP}\n  Bo placed 2.",
                     topic="turn", key="turn:902:2:serpent")
    renamed = send_mail(session, ANA, "Your turn in Renamed (game 902)", "Settle.", topic="turn",
                        key="turn:902:3:serpent")  # the host renamed the game: same seat still
    session.commit()
    outcomes = [deliver(session, row.id, settings) for row in (stale, latest, elsewhere, news, renamed)]
    assert outcomes[0] in ("withheld", "already")  # "already": delivered right at the commit
    got = [(m["Subject"], body(m).strip()) for m in sink.to(ANA) if "(game 90" in m["Subject"]]
    assert sorted(got) == [("Your turn in Backlog (game 901)", "Develop."),
                           ("Your turn in Other (game 902)", f"Develop.\n{RECAP}\n  Bo placed 2."),
                           ("Your turn in Renamed (game 902)", "Settle.")]
    session.expire_all()
    held = session.get(MailDelivery, stale.id)
    assert held.withheld_at is not None and f"outbox {latest.id}" in held.last_error
    assert session.get(OutboxMessage, stale.id).sent_at is None
    assert deliver(session, stale.id, settings) == "withheld"  # a retry decides the same way
    assert len([m for m in sink.to(ANA) if "(game 901)" in m["Subject"]]) == 1
