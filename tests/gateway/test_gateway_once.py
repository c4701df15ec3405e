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

from gateway_helpers import compose, inbound_rows, snapshot
from pbem.mail import gateway as gw
from pbem.mail import render, review
from pbem.mail.gateway import seat_reply_address
from pbem.mail.models import InboundMessage
from pbem.mail.settings import load
from pbem.models import OutboxMessage, PendingOrder, Vacation, now
from pbem.services import lobby, play
from pbem.services.state import game_state
from seat_game import ANA, ana_game
from service_helpers import make_game, make_user

BO = "bo@example.org"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _store(app: Any, session: Session, table: dict[str, Any], text: str) -> int:
    raw, _ = compose(ANA, table["address"], text)
    with app.app_context():
        return gw.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[table["address"]])


def _replies(session: Session) -> list[str]:
    session.expire_all()
    return list(session.scalars(select(OutboxMessage.body).where(OutboxMessage.kind == gw.REPLY_KIND)))


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
    real_act, calls = gw._act, []

    def database_away_once(*args: Any) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))
        return real_act(*args)

    monkeypatch.setattr(gw, "_act", database_away_once)
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
    real_reply, calls = gw._reply, []

    def dies_once(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise _Died()
        real_reply(*args)

    monkeypatch.setattr(gw, "_reply", dies_once)
    settings = load(app.config)
    inbound_id = _store(app, session, table, table["order"])
    with pytest.raises(_Died):
        gw.process(session, inbound_id, settings)
    session.rollback()
    applied = snapshot(session, table["game_id"])
    assert (table["seat"], table["order"]) in [entry[1:] for entry in applied["log"]] + applied["pending"]
    session.execute(update(InboundMessage).values(processed_at=now() - 2 * gw.PROCESS_LEASE))
    session.commit()
    assert gw.pending(session) == [inbound_id]  # the sweep finds it after the lease
    assert gw.process(session, inbound_id, settings) == "processed"
    assert snapshot(session, table["game_id"]) == applied and len(submissions) == 1
    [reply] = _replies(session)
    assert "Accepted for" in reply and table["order"] in reply


def test_orders_go_in_once_when_a_mail_held_after_an_error_is_released(
        app: Any, table: dict[str, Any], session: Session, submissions: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_board, calls = render.board, []

    def fails_once(*args: Any) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("drawing the board failed")
        return real_board(*args)

    monkeypatch.setattr(render, "board", fails_once)
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
    """Ana and Bo (and a bot) choose power cards: Ana's choice stays pending until Bo's."""
    ana, bo = make_user(session, ANA, "Ana"), make_user(session, BO, "Bo")
    game = make_game(session, ana, bots=("heuristic",), invites=[BO], seed=5)
    lobby.join_game(session, game.id, bo)
    session.expire_all()
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(app.config))
    session.commit()
    cards = game_state(session, game).view(seat.tribe)["me"]["power_left"]
    return {"game_id": game.id, "seat": seat.tribe, "address": address, "cards": cards[:2]}


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
    real_board, calls = render.board, []

    def fails_once(*args: Any) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("drawing the board failed")
        return real_board(*args)

    monkeypatch.setattr(render, "board", fails_once)
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
