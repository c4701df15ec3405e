"""The application layer's side of the work queue, without a worker: advances are sent only after
the commit, the settle window holds a complete decision, and the tick's sweep finds exactly
the games whose advance went missing."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update

from pbem.extensions import db
from pbem.models import Game, PendingOrder
from pbem.services import advance as advance_module
from pbem.services import dispatch
from pbem.services.advance import advance
from pbem.services.dispatch import request_advance, stalled_games
from pbem.tasks import QUEUE, REPORT_QUEUE, make_celery
from worker_helpers import cards_for, four_player_game, game_row, log_of, post_all


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(dispatch, "send_advance", lambda game_id, **kw: calls.append(game_id))
    return calls


def test_an_advance_is_sent_only_once_the_transaction_commits(app, sent):
    with app.app_context():
        db.session.execute(db.select(Game.id)).all()  # a transaction is open
        assert request_advance(db.session(), 41) is True
        assert sent == []
        db.session.commit()
        assert sent == [41]
        db.session.execute(db.select(Game.id)).all()
        request_advance(db.session(), 42)
        db.session.rollback()  # what asked for it was never committed
        db.session.commit()
        assert sent == [41]
        request_advance(db.session(), 43)  # no transaction open: sent at once
        assert sent == [41, 43]


def test_an_order_through_the_api_is_committed_then_queued_not_applied(client, session, make_user, stack):
    game_id, headers = four_player_game(session, make_user)
    chosen = cards_for(client, game_id, headers)
    post_all(client, game_id, headers, chosen)
    assert stack.redis.llen(f"{stack.prefix}{QUEUE}") == 4  # one advance per order, nobody ran it
    assert log_of(session, game_id) == []


def _everyone_chose(client, session, make_user, tag="", **deadlines):
    game_id, headers = four_player_game(session, make_user, deadlines=deadlines or None, tag=tag)
    post_all(client, game_id, headers, cards_for(client, game_id, headers))
    return game_id, headers


def test_advance_refuses_a_complete_secret_decision_inside_its_settle_window(client, session, make_user, monkeypatch):
    game_id, _ = _everyone_chose(client, session, make_user, settle_seconds=60)
    version, _ = game_row(session, game_id)
    held = advance(session, game_id)
    assert held.applied == [] and held.settle_until is not None
    assert log_of(session, game_id) == [] and game_row(session, game_id)[0] == version
    later = held.settle_until + timedelta(seconds=1)
    monkeypatch.setattr(advance_module, "now", lambda: later)
    done = advance(session, game_id)
    assert len(done.applied) == 4 and done.settle_until is None
    assert advance(session, game_id).applied == []  # and again: nothing


def test_the_sweep_finds_games_whose_advance_went_missing_and_only_those(client, session, make_user):
    missing, _ = _everyone_chose(client, session, make_user, tag="-a")  # four cards in, advances lost
    waiting_id, headers = four_player_game(session, make_user, tag="-b")
    first = next(iter(headers))  # one card of four: the game rightly waits for the others
    card = cards_for(client, waiting_id, {first: headers[first]})[first]
    assert client.post(f"/api/games/{waiting_id}/orders", headers=headers[first],
                       json={"orders": f"card {card}"}).status_code == 201
    advance(session, waiting_id)  # its advance ran: nothing to apply yet
    settling, _ = _everyone_chose(client, session, make_user, tag="-c", settle_seconds=120)

    now = datetime.now(timezone.utc)
    assert stalled_games(session, now) == []  # within the grace period
    later = now + timedelta(minutes=2)
    assert stalled_games(session, later) == [missing]  # the settling one is still in its window
    assert stalled_games(session, later + timedelta(minutes=2)) == [missing, settling]
    session.rollback()

    advance(session, missing)  # what the requeued task does
    assert stalled_games(session, later) == []
    session.execute(update(PendingOrder).values(submitted_at=now - timedelta(days=3)))
    session.commit()
    assert stalled_games(session, now) == [settling]  # old, but it waits for three people


def test_each_task_lands_in_one_queue_only(app, stack):  # app: a clean Redis prefix
    """Both queues declared on the real Redis (as the two production workers do): a task sent
    to one queue, or to none (the default), is in exactly one list, never copied to both."""
    celery = make_celery(stack.config)
    with celery.connection_for_write() as connection:
        for declared in celery.amqp.queues.values():
            declared(connection.default_channel).declare()

    def lengths():
        return {name: stack.redis.llen(f"{stack.prefix}{name}") for name in (QUEUE, REPORT_QUEUE)}

    celery.send_task("pbem.ping", queue=QUEUE)
    assert lengths() == {QUEUE: 1, REPORT_QUEUE: 0}
    celery.send_task("pbem.ping")
    assert lengths() == {QUEUE: 2, REPORT_QUEUE: 0}
    celery.send_task("pbem.render_reports", args=[0], queue=REPORT_QUEUE)
    assert lengths() == {QUEUE: 2, REPORT_QUEUE: 1}
    # Through each queue's own exchange and key too, as an AMQP broker routes them.
    with celery.producer_or_acquire() as producer:
        target = celery.amqp.queues[QUEUE]
        producer.publish({"probe": 1}, exchange=target.exchange.name, routing_key=target.routing_key,
                         serializer="json")
        assert lengths() == {QUEUE: 3, REPORT_QUEUE: 1}
        target = celery.amqp.queues[REPORT_QUEUE]
        producer.publish({"probe": 2}, exchange=target.exchange.name, routing_key=target.routing_key,
                         serializer="json")
        assert lengths() == {QUEUE: 3, REPORT_QUEUE: 2}
