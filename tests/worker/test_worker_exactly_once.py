"""Exactly once, with real workers over Redis and PostgreSQL: concurrent final orders, a task
delivered twice, and a worker killed in the middle of an advance.

The game: four people at the first secret choice of age 1 (their power cards).  Once the
fourth card is in, one advance applies the four together (four log lines, one version
bump) and the game then waits for the first person's development turn."""
from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

from pbem.services.dispatch import ADVANCE_TASK
from pbem.tasks import QUEUE, producer
from worker_helpers import (assert_cards_applied_once, cards_for, four_player_game, game_row, log_of, post_all,
                            post_card, queue_idle, wait_until)


def drained(stack):
    return queue_idle(stack.redis, stack.prefix)


def test_four_final_choices_posted_in_parallel_processes_advance_the_age_exactly_once(
        client, session, workers, make_user, stack):
    game_id, headers = four_player_game(session, make_user)
    chosen = cards_for(client, game_id, headers)
    version_before, _ = game_row(session, game_id)
    workers.start(concurrency=4)  # four pool processes: the four advances can really race

    # Fresh processes (no connection shared with this one), forked from a server that has
    # imported the app once, so the four start quickly.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["pbem.app", "worker_helpers"])
    barrier, answers = context.Barrier(len(chosen)), context.Queue()
    posters = [context.Process(target=post_card, args=(stack.config, game_id, headers[seat], card, barrier, answers))
               for seat, card in chosen.items()]
    for poster in posters:
        poster.start()
    try:
        statuses = [answers.get(timeout=60) for _ in posters]
    finally:
        for poster in posters:
            poster.join(10)
            if poster.is_alive():
                poster.kill()
    assert statuses == [201] * 4

    wait_until(lambda: len(log_of(session, game_id)) >= 4, 20, "the age's cards to be applied")
    wait_until(lambda: drained(stack), 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)


def test_a_task_delivered_twice_is_a_no_op(client, session, workers, make_user, stack):
    game_id, headers = four_player_game(session, make_user)
    chosen = cards_for(client, game_id, headers)
    version_before, _ = game_row(session, game_id)
    post_all(client, game_id, headers, chosen)  # four advances queued, no worker yet
    celery = producer(stack.app)
    for _ in range(2):  # the same message delivered again (same task id), twice
        celery.send_task(ADVANCE_TASK, args=[game_id], task_id="the-same-delivery", queue=QUEUE)
    assert stack.redis.llen(f"{stack.prefix}{QUEUE}") == 6
    assert log_of(session, game_id) == []

    workers.start(concurrency=2)
    wait_until(lambda: drained(stack) and len(log_of(session, game_id)) >= 4, 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)

    # Delivered again long after: still nothing to do.
    late = [celery.send_task(ADVANCE_TASK, args=[game_id], queue=QUEUE, ignore_result=False) for _ in range(2)]
    for copy in late:
        assert copy.get(timeout=60)["applied"] == 0  # it ran, and found nothing to do
    wait_until(lambda: drained(stack), 20, "the queue to drain again")
    assert_cards_applied_once(session, game_id, chosen, version_before)


def _one_advance_in_flight(client, session, make_user, stack):
    """Four cards committed, every queued message dropped, then exactly one advance queued
    (so recovery can only come from redelivering that message)."""
    game_id, headers = four_player_game(session, make_user)
    chosen = cards_for(client, game_id, headers)
    version_before, _ = game_row(session, game_id)
    post_all(client, game_id, headers, chosen)
    stack.redis.delete(f"{stack.prefix}{QUEUE}")
    producer(stack.app).send_task(ADVANCE_TASK, args=[game_id], task_id="advance-once", queue=QUEUE)
    return game_id, chosen, version_before


def _paused(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    marker = tmp_path / "advance-paused"
    return marker, {"PBEM_TEST_ADVANCE_PAUSE": "60", "PBEM_TEST_ADVANCE_MARKER": str(marker)}


def test_a_pool_process_killed_mid_advance_is_replaced_and_the_advance_finishes(
        client, session, workers, make_user, stack, tmp_path):
    game_id, chosen, version_before = _one_advance_in_flight(client, session, make_user, stack)
    marker, pause = _paused(tmp_path)
    worker = workers.start(concurrency=1, **pause)

    wait_until(lambda: marker.exists() and marker.read_text(), 20, "the advance to reach its commit")
    # The advance has applied the cards and holds its transaction open: nothing is visible.
    assert log_of(session, game_id) == [] and game_row(session, game_id)[0] == version_before
    os.kill(int(marker.read_text()), signal.SIGKILL)  # the pool process, in the middle

    wait_until(lambda: len(log_of(session, game_id)) >= 4, 30, "the redelivered advance")
    wait_until(lambda: drained(stack), 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)
    log = worker.log()
    assert "WorkerLostError" in log or "Process 'ForkPoolWorker" in log, log[-2000:]
    assert log.count("advance-once] received") == 2  # the same message, delivered again


def test_a_whole_worker_killed_mid_advance_and_restarted_finishes_the_advance(
        client, session, workers, make_user, stack, tmp_path):
    game_id, chosen, version_before = _one_advance_in_flight(client, session, make_user, stack)
    marker, pause = _paused(tmp_path)
    # Redis hands back a message whose worker vanished after the visibility timeout.
    first = workers.start(concurrency=1, PBEM_VISIBILITY_TIMEOUT="3", **pause)

    wait_until(lambda: marker.exists() and marker.read_text(), 20, "the advance to reach its commit")
    assert log_of(session, game_id) == []
    first.kill()  # main process and pool: SIGKILL, no goodbye, the message stays unacknowledged
    assert stack.redis.hlen(f"{stack.prefix}unacked") == 1
    assert log_of(session, game_id) == [] and game_row(session, game_id)[0] == version_before

    second = workers.start(concurrency=1, PBEM_VISIBILITY_TIMEOUT="3")
    wait_until(lambda: len(log_of(session, game_id)) >= 4, 30, "the restarted worker to finish the advance")
    wait_until(lambda: drained(stack), 20, "the queue to drain")
    assert_cards_applied_once(session, game_id, chosen, version_before)
    assert "advance-once] received" in second.log()
