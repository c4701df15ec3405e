"""A game the tick fails on: the other games still get their turn, and a game that fails on
tick after tick shows on /healthz and the operators' page until a tick gets through it."""
from __future__ import annotations

from sqlalchemy import delete, select, update

from pbem.models import Game, OrderLogEntry, TickFailure
from pbem.services import health
from pbem.services.state import clear_cache
from deadline_helpers import SECOND, fresh, make_user, policy_game, tick
from service_helpers import make_game, web_sign_in

OPS = "ops@example.com"


def broken(session, game) -> OrderLogEntry:
    """A line in the game's order log that its rules refuse: rebuilding its state fails, as
    it would after a bad migration or a hand edit of the database."""
    seq = session.scalar(select(OrderLogEntry.seq).where(OrderLogEntry.game_id == game.id)
                         .order_by(OrderLogEntry.seq.desc()).limit(1)) or 0
    line = OrderLogEntry(game_id=game.id, seq=seq + 1, seat=game.seats[0].name, text="fly to the moon",
                         by="player", applied_at=game.decision_at)
    session.add(line)
    session.execute(update(Game).where(Game.id == game.id).values(version=Game.version + 1))
    session.commit()
    clear_cache()
    return line


def test_a_failing_game_stops_no_other_and_is_counted_tick_after_tick(app, session, ana, bo):
    bad, good = policy_game(session, ana), policy_game(session, bo)
    broken(session, bad)
    due = max(bad.deadline_at, good.deadline_at) + SECOND
    report = tick(session, due)
    assert report.failed == [bad.id] and "fly to the moon" not in str(report.defaulted)
    assert [game for game, _ in report.defaulted] == [good.id]
    for count in (2, 3):
        report = tick(session, due + count * SECOND)
        assert report.failed == [bad.id]
        assert session.get(TickFailure, bad.id).count == count
    row = session.get(TickFailure, bad.id)
    assert row.first_at == due and row.last_at == due + 3 * SECOND and row.error


def test_a_game_failing_on_every_tick_shows_on_healthz_and_the_operators_page(app, session, ana, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_OPERATORS", OPS)
    make_user(session, OPS, "Ops")
    bad = make_game(session, ana, players=2, bots=("heuristic",), title="Broken table")
    line = broken(session, bad)
    due = bad.deadline_at + SECOND
    client = app.test_client()
    for count in range(1, health.FAILING_TICKS + 1):
        tick(session, due + count * SECOND)
        answer = client.get("/healthz")
        assert answer.status_code == 200
        listed = [entry["game"] for entry in answer.json["failing_games"]]
        assert listed == ([bad.id] if count >= health.FAILING_TICKS else [])
    assert answer.json["status"] == "degraded" and answer.json["database"] == "ok"
    assert "Broken table" not in answer.text and "moon" not in answer.text  # the public answer names nobody

    assert client.get("/admin/ops").status_code == 302  # sign in first
    web_sign_in(client, app, "ana@example.com")
    assert client.get("/admin/ops").status_code == 403  # players are not operators
    operator = app.test_client()
    web_sign_in(operator, app, OPS)
    page = operator.get("/admin/ops").get_data(as_text=True)
    assert "Broken table" in page and f"game {bad.id}" in page and "ReplayError" in page

    # Mended: the next tick gets through it, the default is played, and the list is empty.
    session.execute(delete(OrderLogEntry).where(OrderLogEntry.id == line.id))
    session.execute(update(Game).where(Game.id == bad.id).values(version=Game.version + 1))
    session.commit()
    report = tick(session, due + 10 * SECOND)
    assert report.failed == [] and [game for game, _ in report.defaulted] == [bad.id]
    assert session.scalars(select(TickFailure)).all() == []
    answer = client.get("/healthz")
    assert answer.json["failing_games"] == [] and answer.json["status"] == "ok"
    assert fresh(session, bad).deadline_at > due


def test_healthz_says_when_the_tick_is_late(app, session):
    assert client_health(app)["tick_late"] is True  # it never ran
    from datetime import datetime, timezone
    tick(session, datetime.now(timezone.utc))
    answer = client_health(app)
    assert answer["tick_late"] is False and answer["status"] == "ok" and answer["last_tick_at"]


def client_health(app) -> dict:
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 200
    return answer.json


def test_a_tick_that_breaks_off_every_time_is_not_taken_for_a_live_one(app, session, monkeypatch):
    """A tick starts (and records that it did) but fails outside any one game's step: health
    must not say "ok" because ticks keep starting."""
    from datetime import datetime, timezone

    import pytest

    from pbem.services import tick as tick_module
    from pbem.services.health import check

    now = datetime.now(timezone.utc)
    tick(session, now)
    assert client_health(app)["status"] == "ok"

    def broken(*_args):
        raise RuntimeError("digests broken")
    monkeypatch.setattr(tick_module, "send_digests", broken)
    for step in range(1, 6):
        with pytest.raises(RuntimeError):
            tick(session, now + step * 30 * SECOND)
    answer = client_health(app)
    assert answer["status"] == "degraded" and answer["tick_broke_off"] is True
    assert "digests broken" not in str(answer)  # the reason is for operators
    found = check(session, now + 160 * SECOND, tick_seconds=30)
    assert found.tick_late and found.tick_error == "RuntimeError: digests broken"

    monkeypatch.undo()
    tick(session, now + 180 * SECOND)
    answer = client_health(app)
    assert answer["status"] == "ok" and answer["tick_broke_off"] is False
