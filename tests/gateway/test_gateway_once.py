"""Each stored message acts once and in order of arrival, whatever fails or races: a database
error leaves it stored for a retry; its orders are carried out once even when it is processed
again (a crash before its status was saved, a release after an error); a later message of the
same seat waits for an earlier one still unprocessed."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from gateway_helpers import compose, fail_once, inbound_rows, snapshot
from pbem.mail import execute, replies, store
from pbem.mail import gateway as gw
from pbem.mail import render, review
from pbem.mail.models import InboundMessage
from pbem.outbox.settings import load
from pbem.models import OutboxMessage, PendingOrder, Vacation, now
from pbem.services import play
from seat_game import ANA, ana_and_bo_game, ana_game


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _store(app: Any, session: Session, table: dict[str, Any], text: str) -> int:
    raw, _ = compose(ANA, table["address"], text)
    with app.app_context():
        return store.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[table["address"]])


def _replies(session: Session) -> list[str]:
    session.expire_all()
    return list(session.scalars(select(OutboxMessage.body).where(OutboxMessage.topic == replies.REPLY_TOPIC)))


@pytest.fixture
def submissions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often orders were submitted (the gateway imports submit_orders when it uses it)."""
    calls: list[int] = []
    real = play.submit_orders

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "submit_orders", counted)
    return calls


class _Died(BaseException):
    """The process dying (a kill, a lost machine): no handler runs."""


def _row(session: Session, inbound_id: int) -> Any:
    return next(r for r in inbound_rows(session) if r.id == inbound_id)


def test_a_database_error_leaves_the_mail_stored_for_a_retry(app: Any, table: dict[str, Any], session: Session,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    fail_once(monkeypatch, execute, "act", OperationalError("SELECT 1", {}, Exception("server closed the connection")))
    settings = load(app.config)
    inbound_id = _store(app, session, table, table["order"])
    with pytest.raises(OperationalError):  # the task's autoretry sees it
        gw.process(session, inbound_id, settings)
    row = _row(session, inbound_id)
    assert (row.status, row.processed_at) == ("stored", None)
    assert gw.process(session, inbound_id, settings) == "processed"  # the retry, at once
    assert _row(session, inbound_id).reason == "ok"


def test_orders_go_in_once_when_the_process_dies_before_the_mail_is_marked(
        app: Any, table: dict[str, Any], session: Session, submissions: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fail_once(monkeypatch, replies, "reply", _Died())
    settings = load(app.config)
    inbound_id = _store(app, session, table, table["order"])
    with pytest.raises(_Died):
        gw.process(session, inbound_id, settings)
    session.rollback()
    applied = snapshot(session, table["game_id"])
    assert (table["seat"], table["order"]) in [entry[1:] for entry in applied["log"]] + applied["pending"]
    session.execute(update(InboundMessage).values(processed_at=now() - 2 * store.PROCESS_LEASE))
    session.commit()
    assert store.pending(session) == [inbound_id]  # the sweep finds it after the lease
    assert gw.process(session, inbound_id, settings) == "processed"
    assert snapshot(session, table["game_id"]) == applied and len(submissions) == 1
    # The reply's text of the last step goes in with the final status (one commit less a
    # mail): the retry knows only that the orders went in, and names them.
    [reply] = _replies(session)
    assert f"Carried out when this mail was first processed:\n    {table['order']}\n" in reply


def test_orders_go_in_once_when_a_mail_held_after_an_error_is_released(
        app: Any, table: dict[str, Any], session: Session, submissions: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fail_once(monkeypatch, render, "board", RuntimeError("drawing the board failed"))
    settings = load(app.config)
    inbound_id = _store(app, session, table, f"{table['order']}\nBOARD")
    assert gw.process(session, inbound_id, settings) == "review"
    applied = snapshot(session, table["game_id"])
    assert (table["seat"], table["order"]) in [entry[1:] for entry in applied["log"]] + applied["pending"]
    assert review.release(session, inbound_id, "ops@example.org", settings) == "processed"
    assert snapshot(session, table["game_id"]) == applied and len(submissions) == 1
    [reply] = _replies(session)
    assert "Accepted for" in reply and "Nothing was carried out" not in reply


@pytest.fixture
def two_players(app: Any, session: Session) -> dict[str, Any]:
    return ana_and_bo_game(session, app.config)


def test_a_seats_mails_act_in_order_of_arrival(app: Any, two_players: dict[str, Any], session: Session) -> None:
    """Queue workers took the correction before the original: it waits, then follows."""
    first_card, second_card = two_players["cards"]
    settings = load(app.config)
    original = _store(app, session, two_players, f"card {first_card}")
    correction = _store(app, session, two_players, f"card {second_card}")
    before = snapshot(session, two_players["game_id"])
    assert gw.process(session, correction, settings) == "stored"  # waits for the original
    assert snapshot(session, two_players["game_id"]) == before
    assert gw.process(session, original, settings) == "processed"  # and the correction follows it
    assert [(r.id, r.status) for r in inbound_rows(session)] == [(original, "processed"), (correction, "processed")]
    pending = session.scalars(select(PendingOrder.text).where(PendingOrder.seat == two_players["seat"]))
    assert list(pending) == [f"card {second_card}"]
    assert gw.process(session, correction, settings) == "processed"  # its own task, late: nothing more


def test_a_vacation_is_declared_once_when_a_mail_held_after_an_error_is_released(
        app: Any, table: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only orders: every step that changes something (a vacation here) counts once per
    mail; the steps that only read (BOARD) run again, and the reply tells both."""
    calls = fail_once(monkeypatch, render, "board", RuntimeError("drawing the board failed"))
    settings = load(app.config)
    start = (now() + timedelta(days=30)).date()
    inbound_id = _store(app, session, table, f"VACATION {start} {start + timedelta(days=3)}\nBOARD")
    assert gw.process(session, inbound_id, settings) == "review"
    assert _vacations(session) == 1
    assert review.release(session, inbound_id, "ops@example.org", settings) == "processed"
    assert _vacations(session) == 1 and len(calls) == 2
    [reply] = _replies(session)
    assert f"Vacation noted: from {start}" in reply and "Nothing was carried out" not in reply


def _vacations(session: Session) -> int:
    session.expire_all()
    return session.scalar(select(func.count(Vacation.id)))


def test_a_mail_whose_earlier_one_finished_while_it_chose_to_wait_goes_on_by_itself(
        app: Any, two_players: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """The earlier mail finished just after this one saw it unprocessed, and looked for mails
    waiting on it before this one had let go: nobody else would take this one until the sweep."""
    first_card, second_card = two_players["cards"]
    settings = load(app.config)
    assert gw.process(session, _store(app, session, two_players, f"card {first_card}"), settings) == "processed"
    correction = _store(app, session, two_players, f"card {second_card}")
    real, calls = store.admission, []

    def saw_it_unprocessed_once(*args: Any, **kwargs: Any) -> store.Admission:
        calls.append(1)
        found = real(*args, **kwargs)
        return found._replace(earlier=True) if len(calls) == 1 else found

    monkeypatch.setattr(store, "admission", saw_it_unprocessed_once)
    assert gw.process(session, correction, settings) == "processed" and len(calls) == 2
    pending = session.scalars(select(PendingOrder.text).where(PendingOrder.seat == two_players["seat"]))
    assert list(pending) == [f"card {second_card}"]
