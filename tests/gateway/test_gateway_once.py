"""Each stored message acts once and in order of arrival, whatever fails or races: a database
error leaves it stored for a retry; its orders are carried out once even when it is processed
again (a crash before its status was saved, a release after an error); a later message of the
same seat waits for an earlier one still unprocessed."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from gateway_helpers import compose, inbound_rows
from pbem.mail import gateway as gw
from pbem.mail.settings import load
from seat_game import ANA, ana_game


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _store(session: Session, table: dict[str, Any], text: str) -> int:
    raw, _ = compose(ANA, table["address"], text)
    return gw.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[table["address"]])


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
    inbound_id = _store(session, table, table["order"])
    with pytest.raises(OperationalError):  # the task's autoretry sees it
        gw.process(session, inbound_id, settings)
    row = _row(session, inbound_id)
    assert (row.status, row.processed_at) == ("stored", None)
    assert gw.process(session, inbound_id, settings) == "processed"  # the retry, at once
    assert _row(session, inbound_id).reason == "ok"
