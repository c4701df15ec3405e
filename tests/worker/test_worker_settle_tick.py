"""The settle window and the tick, with a real worker (and beat) over Redis and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from pbem.models import OrderLogEntry
from pbem.services.dispatch import ADVANCE_TASK, TICK_TASK
from pbem.tasks import QUEUE, producer
from worker_helpers import (answer_while_locked, assert_cards_applied_once, cards_for, four_player_game, game_row,
                            log_of, pending_count, post_all, queue_idle, wait_until)

SETTLE = 2


def test_a_settle_window_waits_after_the_last_order_and_a_change_restarts_it(
        client, session, workers, make_user, stack):
    game_id, headers = four_player_game(session, make_user, deadlines={"settle_seconds": SETTLE})
    chosen = cards_for(client, game_id, headers)
    version_before, _ = game_row(session, game_id)
    workers.start(concurrency=2)

    post_all(client, game_id, headers, chosen)
    first = next(iter(chosen))
    hand = client.get(f"/api/games/{game_id}/view", headers=headers[first]).json["view"]["me"]["decisions"][0]
    changed = next(card for card in hand["options"]["cards"] if card != chosen[first])
    changed_at = datetime.now(timezone.utc)
    answer = client.post(f"/api/games/{game_id}/orders", headers=headers[first], json={"orders": f"card {changed}"})
    assert answer.status_code == 201
    chosen[first] = changed
    # An early advance (a duplicate, or one queued before the change) must not apply anything.
    producer(stack.app).send_task(ADVANCE_TASK, args=[game_id], queue=QUEUE)

    # No beat runs here and nobody posts again: only the advance's own countdown can apply them.
    wait_until(lambda: len(log_of(session, game_id)) >= 4, 60, "the cards to be applied after the window")
    applied = session.scalars(select(OrderLogEntry.applied_at).where(OrderLogEntry.game_id == game_id)).all()
    session.rollback()
    assert min(applied) >= changed_at + timedelta(seconds=SETTLE)  # the change restarted the window
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)  # the changed card counts


def test_beat_ticks_and_the_tick_requeues_an_advance_the_broker_lost(client, session, workers, make_user, stack):
    game_id, headers = four_player_game(session, make_user)
    chosen = cards_for(client, game_id, headers)
    version_before, _ = game_row(session, game_id)
    post_all(client, game_id, headers, chosen)
    stack.redis.delete(f"{stack.prefix}{QUEUE}")  # the queued advances are lost
    assert pending_count(session, game_id) == 4

    workers.start(concurrency=2, beat=True, PBEM_TICK_SECONDS="1", PBEM_STALL_GRACE_SECONDS="1")
    wait_until(lambda: len(log_of(session, game_id)) >= 4, 30, "the tick to find the stalled game")
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)
    assert stack.redis.get(f"{stack.prefix}pbem:heartbeat:tick")


def test_two_ticks_never_run_at_once(client, session, workers, stack):
    workers.start(concurrency=2)
    busy = answer_while_locked(stack, "tick", TICK_TASK)
    assert busy == {"skipped": "another tick is running"}
    free = producer(stack.app).send_task(TICK_TASK, queue=QUEUE, ignore_result=False).get(timeout=20)
    assert free["requeued"] == [] and "at" in free


def test_a_decision_completed_by_a_resignation_is_advanced_when_the_window_closes(
        client, session, workers, make_user, stack):
    """Ana resigns by mail's RESIGN CONFIRM (the service it calls) with the three others' cards
    in and their advances done: the stand-in bot's card completes the decision inside the
    settle window.  No beat runs and nobody posts again: the resignation's own advance must
    come back when the window closes, as an order's advance does."""
    from pbem.extensions import db
    from pbem.models import User
    from pbem.services.resign import resign_seat
    window = 12  # long enough for the three orders' advances to finish first on a busy machine
    game_id, headers = four_player_game(session, make_user, deadlines={"settle_seconds": window})
    chosen = cards_for(client, game_id, headers)
    resigning = next(iter(chosen))
    del chosen[resigning]
    workers.start(concurrency=2)
    posted_at = datetime.now(timezone.utc)
    post_all(client, game_id, headers, chosen)
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 30, "the three orders' advances")
    with stack.app.app_context():
        user = db.session.scalar(select(User).where(User.display_name == "Ana"))
        resign_seat(db.session(), game_id, user, datetime.now(timezone.utc))
        db.session.remove()
    assert not log_of(session, game_id)  # held by the window (were it closed, this test proves nothing)
    wait_until(lambda: len(log_of(session, game_id)) >= 4, 60, "the cards to be applied after the window")
    applied = session.scalars(select(OrderLogEntry.applied_at).where(OrderLogEntry.game_id == game_id)).all()
    session.rollback()
    assert min(applied) >= posted_at + timedelta(seconds=window)
