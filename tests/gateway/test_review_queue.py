"""The review queue of held mail (pbem/mail/review.py, /admin/mail/review), over real SMTP:
a mail whose DMARC check failed at our own server is held, its player is told without its
content, and only a site operator (PBEM_OPERATORS) may carry it out or discard it, once."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session

from gateway_helpers import TRUSTED, body, fail_once, inbound_rows, mail_and_wait, snapshot
from pbem.mail import execute
from pbem.outbox.seat_tokens import replace_token
from seat_game import ana_and_bo_game
from service_helpers import form_with, make_user, web_sign_in

ANA, BO, OPS = "ana@example.org", "bo@example.org", "ops@example.org"
FORGED = {"Authentication-Results": f"{TRUSTED}; spf=fail; dkim=none; dmarc=fail header.from=example.org"}
GENUINE = {"Authentication-Results": f"{TRUSTED}; spf=pass; dkim=pass; dmarc=pass header.from=example.org"}
QUEUE = "/admin/mail/review"


@pytest.fixture
def table(app: Any, session: Session, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Ana hosts and plays, Bo plays, a bot; Ops is a site operator."""
    monkeypatch.setitem(app.config, "PBEM_OPERATORS", f" {OPS.upper()} , root@example.org")
    make_user(session, OPS, "Ops")
    table = ana_and_bo_game(session, app.config)
    return table


def _client(app: Any, address: str) -> Any:
    client = app.test_client()
    web_sign_in(client, app, address)
    return client


def _held(session: Session, gateway: Any, table: dict[str, Any], text: str | None = None) -> tuple[int, str]:
    message_id = mail_and_wait(gateway, ANA, table["address"], text or table["order"], headers=FORGED)
    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("review", "dmarc_fail")
    return row.id, message_id


def _row(session: Session, inbound_id: int) -> Any:
    return next(r for r in inbound_rows(session) if r.id == inbound_id)


def test_an_operator_sees_the_held_mail_and_processes_it_once(app: Any, table: dict[str, Any], session: Session,
                                                              gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    inbound_id, message_id = _held(session, gateway, table)
    assert snapshot(session, table["game_id"]) == before
    # The player hears of it at their own address, without what it said; the sender gets no reply.
    notices = sink.to(ANA)
    assert len(notices) == 1 and "held" in notices[0]["Subject"]
    assert table["order"] not in body(notices[0]) and not sink.replies_to(message_id)

    ops = _client(app, OPS)
    page = ops.get(QUEUE)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for shown in (ANA, "dmarc_fail", table["order"], table["address"], "Test game", table["seat"],
                  '<dd class="dmarc">fail: the From may be forged</dd>'):
        assert shown in text

    form = form_with(page.data, f"{QUEUE}/{inbound_id}/process")
    done = ops.post(form.action, data=form.data(), follow_redirects=True)
    assert done.status_code == 200 and f"Mail {inbound_id}: processed" in done.get_data(as_text=True)
    row = _row(session, inbound_id)
    assert row.status == "processed" and row.reason.startswith("ok; released by ops@example.org")
    after = snapshot(session, table["game_id"])
    assert after != before and len(sink.replies_to(message_id)) == 1
    assert "no mail is held" in ops.get(QUEUE).get_data(as_text=True).lower()

    # The same click again (or a second operator) changes nothing.
    again = ops.post(form.action, data=form.data(), follow_redirects=True)
    assert again.status_code == 200 and f"Mail {inbound_id}: processed" in again.get_data(as_text=True)
    assert snapshot(session, table["game_id"]) == after and len(sink.replies_to(message_id)) == 1
    assert _row(session, inbound_id).reason == row.reason


def test_discarding_a_held_mail_answers_nobody_and_changes_nothing(app: Any, table: dict[str, Any],
                                                                   session: Session, gateway: Any, sink: Any) -> None:
    before = snapshot(session, table["game_id"])
    inbound_id, message_id = _held(session, gateway, table)
    ops = _client(app, OPS)
    form = form_with(ops.get(QUEUE).data, f"{QUEUE}/{inbound_id}/discard")
    assert ops.post(form.action, data=form.data()).status_code == 302
    row = _row(session, inbound_id)
    assert row.status == "rejected" and row.reason.startswith("discarded by ops@example.org")
    # Processing it afterwards (a stale page) does nothing either.
    ops.post(f"{QUEUE}/{inbound_id}/process", data=form.data())
    assert _row(session, inbound_id).status == "rejected"
    assert snapshot(session, table["game_id"]) == before and not sink.replies_to(message_id)


def test_the_held_orders_are_shown_as_text(app: Any, table: dict[str, Any], session: Session, gateway: Any) -> None:
    _held(session, gateway, table, text='<img src="x" onerror="alert(1)">\ncard 1')
    text = _client(app, OPS).get(QUEUE).get_data(as_text=True)
    assert "&lt;img src=&#34;x&#34; onerror=&#34;alert(1)&#34;&gt;" in text and "<img" not in text


def test_only_operators_may_review(app: Any, table: dict[str, Any], session: Session, gateway: Any) -> None:
    """Neither the player the mail claims to be from, nor the game's host, nor another player
    may see or release it; nor anyone without a session or without a CSRF token."""
    before = snapshot(session, table["game_id"])
    inbound_id, _ = _held(session, gateway, table)
    for address in (ANA, BO):  # Ana is the claimed sender and the host
        client = _client(app, address)
        assert client.get(QUEUE).status_code == 403
        token = form_with(client.get("/profile").data, "/profile").data()["csrf_token"]
        for action in ("process", "discard"):
            assert client.post(f"{QUEUE}/{inbound_id}/{action}", data={"csrf_token": token}).status_code == 403
    anonymous = app.test_client()
    assert anonymous.get(QUEUE).status_code == 302
    assert anonymous.post(f"{QUEUE}/{inbound_id}/process").status_code in (302, 400)
    assert _client(app, OPS).post(f"{QUEUE}/{inbound_id}/process").status_code == 400  # no CSRF token
    assert _row(session, inbound_id).status == "review"
    assert snapshot(session, table["game_id"]) == before


def test_nobody_is_an_operator_by_default(app: Any, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.config, "PBEM_OPERATORS", "")
    assert _client(app, OPS).get(QUEUE).status_code == 403


def test_a_mail_held_after_an_error_is_carried_out_when_released(app: Any, table: dict[str, Any], session: Session,
                                                                 gateway: Any, sink: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The first attempt claims the Message-ID and then fails; releasing it must not take the
    mail's own claim for a replay."""
    fail_once(monkeypatch, execute, "act", RuntimeError("a bug while carrying out the orders"))
    before = snapshot(session, table["game_id"])
    message_id = mail_and_wait(gateway, ANA, table["address"], table["order"], headers=GENUINE)
    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("review", "error") and row.dedup_key
    assert snapshot(session, table["game_id"]) == before and not sink.replies_to(message_id)

    ops = _client(app, OPS)
    page = ops.get(QUEUE)
    assert '<dd class="dmarc">pass: our mail server checked the From</dd>' in page.get_data(as_text=True)
    form = form_with(page.data, f"{QUEUE}/{row.id}/process")
    assert ops.post(form.action, data=form.data()).status_code == 302

    released = _row(session, row.id)
    assert released.status == "processed" and released.reason.startswith("ok; released by ops@example.org")
    after = snapshot(session, table["game_id"])
    assert (table["seat"], table["order"]) in after["pending"] + [entry[1:] for entry in after["log"]]
    [reply] = sink.replies_to(message_id)
    assert "Accepted" in body(reply)


def test_releasing_keeps_the_other_checks(app: Any, table: dict[str, Any], session: Session, gateway: Any,
                                          sink: Any) -> None:
    """Process skips DMARC only: a held mail to a reply address replaced meanwhile is refused."""
    before = snapshot(session, table["game_id"])
    inbound_id, message_id = _held(session, gateway, table)
    replace_token(session, table["game_id"], table["seat"])
    session.commit()
    ops = _client(app, OPS)
    form = form_with(ops.get(QUEUE).data, f"{QUEUE}/{inbound_id}/process")
    ops.post(form.action, data=form.data())
    row = _row(session, inbound_id)
    assert row.status == "rejected" and row.reason.startswith("replaced_token; released by ops@example.org")
    assert snapshot(session, table["game_id"]) == before
    [answer] = sink.replies_to(message_id)
    assert "was replaced" in body(answer) and "Nothing in your mail was carried out" in body(answer)
