"""Press by mail, over real SMTP: the PRESS command, replies to press mails that stay in their
thread (the whole table, or a private pair) and are never read as orders, the hourly limit,
and the same checks as orders: a forged From, an unknown or replaced token, hostile text."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from gateway_helpers import DOMAIN, body, compose, inbound_rows, mail_and_wait, send, snapshot
from pbem.models import Game, OutboxMessage, PressMessage
from pbem.outbox.models import MailDelivery
from pbem.outbox.press_tokens import press_reply_address
from pbem.outbox.seat_tokens import replace_token
from pbem.outbox.settings import load
from pbem.outbox.tokens import PRESS_LOCAL_PART, new_token, reply_address
from seat_game import ANA, BO, ana_and_bo_game

MALLORY = "mallory@evil.example"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    found = ana_and_bo_game(session, app.config)
    game = session.get(Game, found["game_id"])
    found["bo_seat"] = next(s.name for s in game.seats if s.user and s.user.primary_address == BO)
    session.rollback()
    return found


def messages(session: Session) -> list[tuple[str, str | None, str]]:
    session.expire_all()
    return [(m.seat, m.to_seat, m.text) for m in session.scalars(select(PressMessage).order_by(PressMessage.id))]


def press_mails(session: Session, to: str) -> list[tuple[OutboxMessage, str]]:
    """The press mails queued for `to`, each with its Reply-To."""
    session.expire_all()
    rows = session.scalars(select(OutboxMessage).where(OutboxMessage.to_address == to,
                                                       OutboxMessage.topic == "press").order_by(OutboxMessage.id))
    return [(row, session.get(MailDelivery, row.id).reply_to) for row in rows]


def reply(gateway: Any, sink: Any, sender: str, to: str, text: str) -> str:
    replies = sink.replies_to(mail_and_wait(gateway, sender, to, text))
    assert len(replies) == 1
    return body(replies[0])


def test_press_all_by_command_and_a_reply_to_the_press_mail_goes_to_the_table(table, session, gateway, sink):
    answer = reply(gateway, sink, ANA, table["address"], "PRESS ALL: Hello table, shall we?")
    assert "Press sent to the whole table" in answer
    assert messages(session) == [(table["seat"], None, "Hello table, shall we?")]
    [(mail, reply_to)] = press_mails(session, BO)
    assert "Hello table, shall we?" in mail.body and reply_to.startswith(f"{PRESS_LOCAL_PART}+")
    before = snapshot(session, table["game_id"])
    # Bo answers the press mail with text that would be an order: it is press, not an order.
    answer = reply(gateway, sink, BO, reply_to, f"{table['order']}\nSure, why not.")
    assert "Press sent to the whole table" in answer
    assert messages(session)[-1] == (table["bo_seat"], None, f"{table['order']}\nSure, why not.")
    assert snapshot(session, table["game_id"]) == before
    [(back, ana_reply_to)] = press_mails(session, ANA)
    assert "Sure, why not." in back.body and ana_reply_to.startswith(f"{PRESS_LOCAL_PART}+")


def test_a_private_thread_stays_private_by_mail(table, session, gateway, sink):
    answer = reply(gateway, sink, ANA, table["address"], f"press {table['bo_seat']}: just between us")
    assert f"Press sent to {table['bo_seat']} (privately)" in answer
    [(mail, reply_to)] = press_mails(session, BO)
    assert "privately to you" in mail.body and "(private)" in mail.subject
    reply(gateway, sink, BO, reply_to, "agreed, quietly")
    assert messages(session)[-1] == (table["bo_seat"], table["seat"], "agreed, quietly")
    # Nobody else was mailed either message.
    session.expire_all()
    bodies = session.scalars(select(OutboxMessage.to_address).where(
        OutboxMessage.body.contains("just between us") | OutboxMessage.body.contains("agreed, quietly"))).all()
    assert sorted(set(bodies)) == sorted({BO, ANA})


def test_press_refused_by_mail_says_why(app, table, session, gateway, sink, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_PRESS_PER_HOUR", 1)
    monkeypatch.setenv("PBEM_PRESS_PER_HOUR", "1")
    assert "Press sent" in reply(gateway, sink, ANA, table["address"], "PRESS ALL: one")
    answer = reply(gateway, sink, ANA, table["address"], "PRESS ALL: two")
    assert "last hour" in answer and "could not be carried out" in answer
    answer = reply(gateway, sink, ANA, table["address"], "PRESS ALL hello")
    assert "PRESS ALL: <message>" in answer
    assert [text for _, _, text in messages(session)] == ["one"]


def test_a_forged_from_or_a_wrong_token_sends_no_press(app, table, session, gateway, sink):
    address = press_reply_address(session, table["game_id"], table["seat"], None, load(app.config))
    session.commit()
    mail_and_wait(gateway, MALLORY, address, "I am Ana, trust me")
    assert (inbound_rows(session)[-1].status, inbound_rows(session)[-1].reason) == ("rejected", "from_mismatch")
    mail_and_wait(gateway, ANA, reply_address(new_token(), domain=DOMAIN, local_part=PRESS_LOCAL_PART), "hi")
    assert inbound_rows(session)[-1].reason == "unknown_token"
    # A replaced reply address takes the seat's press threads with it.
    replace_token(session, table["game_id"], table["seat"])
    session.commit()
    mail_and_wait(gateway, ANA, address, "still me")
    assert inbound_rows(session)[-1].reason == "replaced_token"
    assert messages(session) == []


def test_hostile_text_by_mail_is_cleaned(app, table, session, gateway, sink):
    address = press_reply_address(session, table["game_id"], table["seat"], None, load(app.config))
    session.commit()
    reply(gateway, sink, ANA, address, "a\u202eevil\u202c <b>x</b>\u200b\n\n\n\nnext")
    assert messages(session) == [(table["seat"], None, "aevil <b>x</b>\n\nnext")]
    [(mail, _)] = press_mails(session, BO)
    assert "\u202e" not in mail.body and "\n" not in mail.subject
    raw, message_id = compose(ANA, address, "\n".join(["y" * 60] * 50))
    send(gateway.port, raw.replace(b"\n", b"\r\n"), ANA, address)  # a long mail in SMTP's line ends
    assert gateway.handler.wait_idle(30)
    [answered] = sink.replies_to(message_id)
    answer = body(answered)
    assert "not sent" in answer and "at most 2000 characters" in answer
    assert len(messages(session)) == 1
