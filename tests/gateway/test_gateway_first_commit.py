"""An order mail's lease, authentication, Message-ID claim and orders are one transaction (the
orders' own commit, docs/email.md): what a refusal rolls back is recorded again with the final
status, and a process that dies before that commit leaves the mail for the next taker."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from gateway_helpers import compose, fail_once, inbound_rows, snapshot
from pbem.mail import execute, store
from pbem.mail import gateway as gw
from pbem.models import OutboxMessage
from pbem.outbox.settings import load
from seat_game import ANA, ana_game


class _Died(BaseException):
    """The process dying (a kill, a lost machine): no handler runs."""


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _store(app: Any, session: Session, table: dict[str, Any], raw: bytes) -> int:
    with app.app_context():
        return store.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[table["address"]])


def test_a_refused_order_keeps_its_claim_and_its_sender(app: Any, table: dict[str, Any], session: Session) -> None:
    """The refusal rolled back the transaction that held the claim: a replay of the refused
    mail is still a replay, and the refused mail still names its game and player."""
    settings = load(app.config)
    raw, _ = compose(ANA, table["address"], "card 99")
    first = _store(app, session, table, raw)
    assert gw.process(session, first, settings) == "processed"
    replay = _store(app, session, table, raw)
    assert gw.process(session, replay, settings) == "ignored"
    rows = {row.id: row for row in inbound_rows(session)}
    assert (rows[first].reason, rows[replay].reason) == ("order_error", "duplicate_message_id")
    assert rows[first].dedup_key is not None and rows[first].user_id is not None
    assert (rows[first].game_id, rows[first].seat) == (table["game_id"], table["seat"])
    replies = list(session.scalars(select(OutboxMessage.body).where(OutboxMessage.to_address == ANA,
                                                                      OutboxMessage.topic == "reply")))
    assert len(replies) == 1 and "Nothing was carried out" in replies[0]


def test_a_mail_whose_process_died_before_its_first_commit_is_free_at_once(
        app: Any, table: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the first attempt stays: no lease for the sweep to wait out, no claim that
    would make the mail a replay of itself; the next attempt carries it out once."""
    fail_once(monkeypatch, execute, "act", _Died())
    settings = load(app.config)
    raw, _ = compose(ANA, table["address"], table["order"])
    inbound_id = _store(app, session, table, raw)
    before = snapshot(session, table["game_id"])
    with pytest.raises(_Died):
        gw.process(session, inbound_id, settings)
    session.rollback()  # the connection goes away with the process
    assert store.pending(session) == [inbound_id]
    [row] = inbound_rows(session)
    assert (row.status, row.processed_at, row.dedup_key) == ("stored", None, None)
    assert snapshot(session, table["game_id"]) == before
    assert gw.process(session, inbound_id, settings) == "processed"
    [row] = inbound_rows(session)
    assert row.reason == "ok"
    applied = snapshot(session, table["game_id"])
    assert (table["seat"], table["order"]) in [entry[1:] for entry in applied["log"]] + applied["pending"]
