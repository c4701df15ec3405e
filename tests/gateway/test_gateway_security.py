"""Security of the email gateway, over real SMTP: a forged From with a valid token, a valid
From with a wrong token, replays, loops and auto-replies, oversized mail, DMARC failures.
Each is refused or ignored with nothing changed in the game."""
from __future__ import annotations

import smtplib
from typing import Any

import pytest
from sqlalchemy.orm import Session

from gateway_helpers import DOMAIN, TRUSTED, body, compose, inbound_rows, outbox_count, send, snapshot
from pbem.mail.replies import UNKNOWN_TOPIC
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.mail.inbound import MAX_BYTES
from pbem.mail.models import InboundMessage
from pbem.outbox.settings import load
from pbem.outbox.tokens import new_token, reply_address
from pbem.models import Game, Seat
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA, MALLORY = "ana@example.org", "mallory@evil.example"
FORGED = f"{TRUSTED}; spf=fail; dkim=none; dmarc=fail header.from=example.org"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(app.config))
    session.commit()
    state = game_state(session, game)
    card = state.view(seat.name)["me"]["power_left"][0]
    return {"game_id": game.id, "seat_id": seat.id, "address": address, "order": f"card {card}"}


def _mail(gateway: Any, sender: str, to: str, text: str, **kw: Any) -> str:
    raw, message_id = compose(sender, to, text, **kw)
    send(gateway.port, raw, sender, to)
    assert gateway.handler.wait_idle(30)
    return message_id


def _last(session: Session) -> InboundMessage:
    return inbound_rows(session)[-1]


def test_forged_from_with_a_valid_token_changes_nothing(table: dict[str, Any], session: Session,
                                                        gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    _mail(gateway, MALLORY, table["address"], table["order"])
    row = _last(session)
    assert (row.status, row.reason) == ("rejected", "from_mismatch")
    assert snapshot(session, table["game_id"]) == before
    # One short answer to the address at most, saying nothing about the game.
    _mail(gateway, MALLORY, table["address"], "card 5")
    assert len(sink.to(MALLORY)) == 1
    assert "Ana" not in body(sink.to(MALLORY)[0]) and table["address"] not in body(sink.to(MALLORY)[0])
    assert snapshot(session, table["game_id"]) == before


def test_one_short_answer_a_day_whatever_the_case_of_the_address(table: dict[str, Any], session: Session,
                                                                  gateway: Any, sink: Any) -> None:
    wrong = reply_address(new_token(), domain=DOMAIN)
    _mail(gateway, "Mallory@evil.example", wrong, "card 5")
    _mail(gateway, MALLORY, wrong, "card 6")
    assert [(r.status, r.reason) for r in inbound_rows(session)] == [("rejected", "unknown_token")] * 2
    assert outbox_count(session, topic=UNKNOWN_TOPIC) == 1


@pytest.mark.parametrize("to", ["wrong token", "no token"])
def test_no_answer_to_a_from_our_server_found_forged(table: dict[str, Any], session: Session, gateway: Any,
                                                     sink: Any, to: str) -> None:
    """The victim of a forged From would get the answer (backscatter)."""
    address = reply_address(new_token(), domain=DOMAIN) if to == "wrong token" else f"hello@{DOMAIN}"
    _mail(gateway, ANA, address, "card 5", headers={"Authentication-Results": FORGED})
    assert _last(session).status == "rejected"
    assert outbox_count(session, topic=UNKNOWN_TOPIC) == 0
    assert [m for m in sink.to(ANA) if m["In-Reply-To"]] == []


def test_valid_from_with_a_wrong_token_changes_nothing(table: dict[str, Any], session: Session,
                                                       gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    wrong = reply_address(new_token(), domain=DOMAIN)
    _mail(gateway, ANA, wrong, table["order"])
    row = _last(session)
    assert (row.status, row.reason) == ("rejected", "unknown_token")
    assert snapshot(session, table["game_id"]) == before
    assert outbox_count(session, topic=UNKNOWN_TOPIC) == 1


def test_a_replayed_message_is_ignored(table: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    raw, message_id = compose(ANA, table["address"], table["order"])
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    assert len(sink.replies_to(message_id)) == 1
    after_first = snapshot(session, table["game_id"])
    assert after_first["log"], "the card was applied"
    send(gateway.port, raw, ANA, table["address"])  # the very same message again
    assert gateway.handler.wait_idle(30)
    assert (_last(session).status, _last(session).reason) == ("ignored", "duplicate_message_id")
    # The same content under a new Message-ID (a relay's re-send keeps the Date).
    date = raw.split(b"Date: ", 1)[1].split(b"\n", 1)[0].decode().strip()
    _mail(gateway, ANA, table["address"], table["order"], headers={"Date": date})
    assert (_last(session).status, _last(session).reason) == ("ignored", "duplicate_content")
    assert snapshot(session, table["game_id"]) == after_first
    assert len(sink.replies_to(message_id)) == 1
    assert len([m for m in sink.to(ANA) if m["In-Reply-To"]]) == 1


@pytest.mark.parametrize("headers,reason", [
    ({"X-Loop": f"pbem@{DOMAIN}"}, "loop"),
    ({"Auto-Submitted": "auto-replied"}, "auto-submitted"),
    ({"Precedence": "bulk"}, "bulk"),
])
def test_loops_and_auto_replies_are_never_answered(table: dict[str, Any], session: Session, gateway: Any,
                                                   sink: Any, headers: dict[str, str], reason: str) -> None:
    before = snapshot(session, table["game_id"])
    _mail(gateway, ANA, table["address"], table["order"], headers=headers)
    assert (_last(session).status, _last(session).reason) == ("ignored", reason)
    assert snapshot(session, table["game_id"]) == before
    assert [m for m in sink.to(ANA) if m["In-Reply-To"]] == []


def test_a_bounce_is_never_answered(table: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    raw, _ = compose("MAILER-DAEMON@mx.example.org", table["address"], "Delivery failed")
    with smtplib.SMTP("127.0.0.1", gateway.port) as client:
        client.sendmail("<>", [table["address"]], raw)
    assert gateway.handler.wait_idle(30)
    assert (_last(session).status, _last(session).reason) == ("ignored", "bounce")
    assert len(sink.messages) == 0


def test_an_oversized_message_is_refused_at_smtp(table: dict[str, Any], session: Session, gateway: Any) -> None:
    before = snapshot(session, table["game_id"])
    raw, _ = compose(ANA, table["address"], table["order"] + "\n" + "x" * 100 + ("\n" + "y" * 998) * (MAX_BYTES // 999 + 2))
    with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused, smtplib.SMTPServerDisconnected)) as error:
        send(gateway.port, raw, ANA, table["address"])
    if hasattr(error.value, "smtp_code"):
        assert error.value.smtp_code == 552
    assert inbound_rows(session) == []
    assert snapshot(session, table["game_id"]) == before


def test_the_smtp_answer_reveals_nothing_internal(table: dict[str, Any], session: Session, gateway: Any) -> None:
    raw, _ = compose(ANA, table["address"], "STATUS")
    with smtplib.SMTP("127.0.0.1", gateway.port, timeout=30) as client:
        client.ehlo()
        client.mail(ANA)
        client.rcpt(table["address"])
        code, text = client.data(raw)
    assert gateway.handler.wait_idle(30)
    assert code == 250 and str(_last(session).id) not in text.decode()
    assert text.decode() == "2.0.0 OK"


def test_mail_for_other_domains_is_not_relayed(gateway: Any) -> None:
    raw, _ = compose(ANA, "someone@elsewhere.example", "hello")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(gateway.port, raw, ANA, "someone@elsewhere.example")


def test_dmarc_failure_goes_to_review(table: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    _mail(gateway, ANA, table["address"], table["order"],
          headers={"Authentication-Results": f"{TRUSTED}; spf=fail; dkim=none; dmarc=fail header.from=example.org"})
    assert (_last(session).status, _last(session).reason) == ("review", "dmarc_fail")
    assert snapshot(session, table["game_id"]) == before
    # No reply; only the notice that a mail was held (tests/gateway/test_review_queue.py).
    assert [m["Subject"] for m in sink.to(ANA)] == [f"A mail in your name was held (Test game, game {table['game_id']})"]


def test_rate_limit_counts_only_mail_that_failed_authentication(app: Any, table: dict[str, Any],
                                                                session: Session) -> None:
    """A flood under Ana's From (forged: wrong token, or a DMARC failure) is cut off after the
    limit, unanswered; Ana's own authenticated mail still goes through, however many."""
    from dataclasses import replace

    from pbem.mail import gateway as gw
    from pbem.mail import store
    settings = replace(load(app.config), rate_per_hour=2)

    def mail(to: str, minute: int, **headers: str) -> str:
        raw, _ = compose(ANA, to, "STATUS", headers={"Date": f"Mon, 1 Jan 2029 10:{minute:02}:00 +0000", **headers})
        inbound_id = store.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[to])
        return gw.process(session, inbound_id, settings)

    wrong = reply_address(new_token(), domain=DOMAIN)
    assert [mail(wrong, 0), mail(wrong, 1)] == ["rejected", "rejected"]
    assert mail(table["address"], 2, **{"Authentication-Results": FORGED}) == "ignored"
    assert (_last(session).reason, outbox_count(session, topic=UNKNOWN_TOPIC)) == ("rate_limited", 1)
    assert mail(wrong, 3) == "ignored"
    assert [mail(table["address"], 10 + n) for n in range(3)] == ["processed"] * 3


def test_a_resigned_seat_takes_no_more_orders(table: dict[str, Any], session: Session, gateway: Any,
                                              sink: Any) -> None:
    message_id = _mail(gateway, ANA, table["address"], "RESIGN")
    assert "RESIGN CONFIRM" in body(sink.replies_to(message_id)[0])
    message_id = _mail(gateway, ANA, table["address"], "RESIGN CONFIRM")
    assert "You resigned" in body(sink.replies_to(message_id)[0])
    session.expire_all()
    seat = session.get(Seat, table["seat_id"])
    assert seat.user_id is None and seat.bot
    before = snapshot(session, table["game_id"])
    _mail(gateway, ANA, table["address"], "STATUS")
    assert (_last(session).status, _last(session).reason) == ("rejected", "unknown_token")
    assert snapshot(session, table["game_id"]) == before
    assert session.get(Game, table["game_id"]).status in (Game.ACTIVE, Game.FINISHED)
