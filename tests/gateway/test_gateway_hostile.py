"""Hostile mail over real SMTP: control characters in headers, unauthenticated mail, an
autoresponder that answers every answer, and forged senders when nothing vouches for From."""
from __future__ import annotations

import smtplib
from dataclasses import replace
from typing import Any, Iterator

import pytest
from sqlalchemy.orm import Session

from gateway_helpers import DOMAIN, body, fail_once, free_port, inbound_rows, outbox_count, send, snapshot
from pbem.mail import replies
from pbem.mail.replies import QUIET_TOPIC, UNKNOWN_TOPIC
from pbem.mail.inbound import printable
from pbem.outbox.settings import load
from pbem.mail.smtpd import controller
from pbem.outbox.tokens import new_token, reply_address
from seat_game import ANA, BO, ana_and_bo_game, ana_game

MALLORY = "mallory@evil.example"


def raw_mail(headers: list[tuple[str, str]], text: str) -> bytes:
    """A mail written byte by byte: the standard library would refuse to write these headers."""
    lines = [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n" + text + "\r\n").encode("utf-8")


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _headers(to: str, **override: str) -> list[tuple[str, str]]:
    base = {"From": f"Ana <{ANA}>", "To": to, "Subject": "Re: your turn",
            "Message-ID": f"<{new_token()}@client.example>", "Date": "Mon, 1 Jan 2029 10:00:00 +0000"}
    base.update(override)
    return list(base.items())


@pytest.mark.parametrize("name,value", [
    ("Subject", "Re: your\x00 turn"),
    ("Subject", "=?utf-8?q?Re=3A_your=00_turn?="),
    ("From", f"An\x00a <{ANA}>"),
    ("From", f"=?utf-8?q?An=00a?= <{ANA}>"),
    ("Message-ID", "<abc\x00def@client.example>"),
    ("In-Reply-To", "<abc\x00def@client.example>"),
    ("References", "<abc\x01def@client.example> <x\x00y@z>"),
])
def test_control_characters_in_a_header_never_reach_the_database(table: dict[str, Any], session: Session,
                                                                  gateway: Any, sink: Any, name: str,
                                                                  value: str) -> None:
    before = snapshot(session, table["game_id"])
    raw = raw_mail(_headers(table["address"], **{name: value}), table["order"])
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("processed", "ok")
    after = snapshot(session, table["game_id"])
    assert len(after["log"]) > len(before["log"])
    [reply] = [m for m in sink.to(ANA) if m["Auto-Submitted"] == "auto-replied"]
    assert all(printable(str(value)) == str(value) for value in reply.values()), reply.items()


def test_direction_overrides_in_a_subject_are_not_echoed(table: dict[str, Any], session: Session, gateway: Any,
                                                        sink: Any) -> None:
    """Our answer says "Re: <their subject>": an override there would turn our own words around."""
    raw = raw_mail(_headers(table["address"], Subject="=?utf-8?q?=E2=80=AEsutats_=E2=81=A6x?="), table["order"])
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    [reply] = [m for m in sink.to(ANA) if m["Auto-Submitted"] == "auto-replied"]
    assert reply["Subject"] == "Re: sutats x"


@pytest.mark.parametrize("text,reason", [("{order}\x00", "ok"), ("hello\x00 there\x07", "empty")])
def test_control_characters_in_the_body_never_reach_the_database(table: dict[str, Any], session: Session,
                                                                 gateway: Any, sink: Any, text: str,
                                                                 reason: str) -> None:
    message_id = f"<{new_token()}@client.example>"
    raw = raw_mail(_headers(table["address"], **{"Message-ID": message_id}), text.format(order=table["order"]))
    send(gateway.port, raw, ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    assert (inbound_rows(session)[-1].status, inbound_rows(session)[-1].reason) == ("processed", reason)
    [reply] = sink.replies_to(message_id)
    assert "\x00" not in body(reply) and "\x07" not in body(reply)


def test_unauthenticated_mail_with_a_nul_is_rejected_not_held(table: dict[str, Any], session: Session,
                                                             gateway: Any, sink: Any) -> None:
    wrong = reply_address(new_token(), domain=DOMAIN)
    raw = raw_mail(_headers(wrong, Subject="hi\x00there"), "card 5")
    send(gateway.port, raw, ANA, wrong)
    assert gateway.handler.wait_idle(30)
    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("rejected", "unknown_token")
    [answer] = sink.to(ANA)[-1:]
    assert answer["Subject"] == "Re: hithere" and outbox_count(session, topic=UNKNOWN_TOPIC) == 1


def _send_raw(port: int, sender: str, to: str, raw: bytes) -> list[int]:
    """One SMTP transaction; the codes of MAIL, RCPT and (if both were accepted) DATA."""
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.ehlo()
        codes = [client.mail(sender)[0], client.rcpt(to)[0]]
        if codes == [250, 250]:
            codes.append(client.data(raw)[0])
    return codes


@pytest.mark.parametrize("where", ["MAIL FROM", "RCPT TO"])
@pytest.mark.parametrize("char", ["\x00", "\x01", "\x7f"])
def test_control_characters_in_the_envelope_get_a_permanent_answer(table: dict[str, Any], session: Session,
                                                                   gateway: Any, where: str, char: str) -> None:
    """Not a 451 (storing failed): the sending server would retry it for days."""
    token = table["address"].split("+", 1)[1].split("@")[0]
    sender = f"an{char}a@example.org" if where == "MAIL FROM" else ANA
    to = f"orders+{token}{char}@{DOMAIN}" if where == "RCPT TO" else table["address"]
    codes = _send_raw(gateway.port, sender, to, raw_mail(_headers(table["address"]), table["order"]))
    assert gateway.handler.wait_idle(30)
    assert codes[:2] == ([553, 503] if where == "MAIL FROM" else [250, 553])
    assert inbound_rows(session) == []


def test_an_error_on_unauthenticated_mail_rejects_it_instead_of_holding_it(table: dict[str, Any], session: Session,
                                                                          gateway: Any, sink: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Anyone can send it, and an operator's release would only refuse it again: the review
    queue is for mail that authenticated as a seat's player (or failed DMARC)."""
    calls = fail_once(monkeypatch, replies, "unknown_sender", RuntimeError("a bug"))
    wrong = reply_address(new_token(), domain=DOMAIN)
    send(gateway.port, raw_mail(_headers(wrong), "card 5"), ANA, wrong)
    assert gateway.handler.wait_idle(30)
    assert calls and [(r.status, r.reason) for r in inbound_rows(session)] == [("rejected", "error")]


AUTORESPONSE = "Thank you for your message. I am away until Monday and will answer then.\n\nAna"


def test_an_autoresponder_without_auto_reply_headers_cannot_loop(app: Any, table: dict[str, Any],
                                                                 session: Session, gateway: Any,
                                                                 sink: Any) -> None:
    """Ana's mail program answers every mail from pbem, setting none of the headers that mark
    an auto-reply.  pbem stops answering after its reply budget (one notice says why), which
    ends the loop; her orders are still carried out meanwhile."""
    budget = load(app.config).replies_per_hour
    subject, answered, rounds = "Re: your turn", 0, 0
    while rounds < 3 * budget:
        rounds += 1
        message_id = f"<{new_token()}@client.example>"
        raw = raw_mail(_headers(table["address"], Subject=subject, **{"Message-ID": message_id,
                       "Date": f"Mon, 1 Jan 2029 10:{rounds:02}:00 +0000"}), AUTORESPONSE)
        send(gateway.port, raw, ANA, table["address"])
        assert gateway.handler.wait_idle(30)
        answers = [m for m in sink.to(ANA) if m["In-Reply-To"] == message_id]
        if not answers:
            break
        answered += 1
        subject = f"Re: {answers[-1]['Subject']}"
    else:
        raise AssertionError(f"pbem answered all {rounds} autoresponses")
    assert answered == budget + 1  # the budget, and the notice
    assert outbox_count(session, topic=QUIET_TOPIC) == 1
    notice = next(m for m in sink.to(ANA) if "answers at most" in body(m))
    assert notice["Auto-Submitted"] == "auto-replied"
    assert [r.reason for r in inbound_rows(session)] == ["empty"] * budget + ["empty; unanswered"] * (
        rounds - budget)
    # Her orders still count, unanswered; a real person's orders never use up the budget.
    before = snapshot(session, table["game_id"])
    message_id = f"<{new_token()}@client.example>"
    send(gateway.port, raw_mail(_headers(table["address"], **{"Message-ID": message_id}), table["order"]),
         ANA, table["address"])
    assert gateway.handler.wait_idle(30)
    assert inbound_rows(session)[-1].reason == "ok; unanswered"
    assert len(snapshot(session, table["game_id"])["log"]) > len(before["log"])
    assert not sink.replies_to(message_id) and outbox_count(session, topic=QUIET_TOPIC) == 1


def test_read_only_commands_are_answered_within_a_budget_too(app: Any, table: dict[str, Any], session: Session,
                                                           gateway: Any, sink: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """STATUS and BOARD are answered (BOARD draws a picture), so a mail program sending them
    in a loop is held to the answers-per-hour budget as well."""
    budget = 3
    monkeypatch.setattr(gateway.handler, "settings", replace(gateway.handler.settings, answers_per_hour=budget))
    ids = []
    for number in range(budget + 2):
        ids.append(f"<{new_token()}@client.example>")
        send(gateway.port, raw_mail(_headers(table["address"], **{"Message-ID": ids[-1],
             "Date": f"Mon, 1 Jan 2029 11:{number:02}:00 +0000"}), "STATUS"), ANA, table["address"])
        assert gateway.handler.wait_idle(30)
    answers = [[body(m) for m in sink.replies_to(message_id)] for message_id in ids]
    assert all(len(found) == 1 and "answers at most" not in found[0] for found in answers[:budget])
    assert "answers at most" in answers[budget][0] and answers[budget + 1] == []  # the notice, then silence
    assert [r.reason for r in inbound_rows(session)] == ["ok"] * budget + ["ok; unanswered"] * 2
    assert outbox_count(session, topic=QUIET_TOPIC) == 1  # one notice says why


@pytest.fixture
def unchecked_gateway(app: Any) -> Iterator[Any]:
    """The gateway with no trusted Authentication-Results configured: nothing vouches for From."""
    settings = replace(load(app.config), trusted_authserv_ids=frozenset())
    server, handler = controller(app, host="127.0.0.1", port=free_port(), settings=settings)
    server.start()
    yield server
    server.stop()
    handler.close()


def test_without_a_checked_from_only_the_games_players_get_a_short_answer(app: Any, session: Session,
                                                                          unchecked_gateway: Any,
                                                                          sink: Any) -> None:
    """A forger writing in a stranger's name must not make pbem mail the stranger
    (backscatter); a player of the game who wrote to another seat's address hears why."""
    table = ana_and_bo_game(session, app.config)
    wrong = reply_address(new_token(), domain=DOMAIN)
    for sender, to in ((MALLORY, table["address"]), (MALLORY, wrong), (BO, wrong), (BO, table["address"])):
        send(unchecked_gateway.port, raw_mail(_headers(to, From=sender), "card 5"), sender, to)
        assert unchecked_gateway.handler.wait_idle(30)
    assert [(r.status, r.reason) for r in inbound_rows(session)] == [
        ("rejected", "from_mismatch"), ("rejected", "unknown_token"), ("rejected", "unknown_token"),
        ("rejected", "from_mismatch")]
    assert sink.to(MALLORY) == []
    assert outbox_count(session, topic=UNKNOWN_TOPIC) == 1 and len(sink.to(BO)) >= 1
    assert "could not be taken as orders" in body(next(m for m in sink.to(BO) if m["In-Reply-To"]))
