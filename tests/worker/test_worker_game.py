"""A whole game advanced by a real worker: four people, every order through the JSON API,
nothing advanced by the web process itself."""
from __future__ import annotations

from sqlalchemy import select

from engine.records import replay
from pbem.models import Game, OutboxMessage, Seat
from pbem.services.state import log_lines, record
from worker_helpers import drive_by_api, four_player_game, game_row, log_of, pending_count, queue_idle, wait_until


def test_a_four_player_game_driven_only_by_api_orders_advances_by_itself_to_the_end(
        client, session, workers, make_user, stack):
    game_id, headers = four_player_game(session, make_user)
    workers.start(concurrency=2)
    version_before, _ = game_row(session, game_id)

    played = drive_by_api(client, session, game_id, headers, timeout=120)

    view = played["view"]
    assert view["game"]["status"] == "finished"
    result = view["view"]["result"]
    assert result["winner"] in headers and sorted(result["scores"]) == sorted(headers)
    assert view["view"]["age"] == 5 and len(view["view"]["age_scores"]) == 5  # all five ages scored
    # Every order the players posted is in the log exactly once, and the log replays to the
    # same result: no order lost, doubled or skipped.
    log = log_of(session, game_id)
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert len(log) == played["orders"]
    game = session.get(Game, game_id)
    assert replay(record(game, log_lines(session, game_id))).result() == result == game.result
    assert pending_count(session, game_id) == 0
    assert not any(session.scalars(select(Seat.waiting).where(Seat.game_id == game_id)))
    # Each applied order was one change of the game (one compare-and-set each at most).
    version_after, status = game_row(session, game_id)
    assert status == Game.FINISHED and version_before < version_after <= version_before + len(log)
    # The players were told: turn mails along the way, and the result at the end.
    kinds = session.scalars(select(OutboxMessage.topic)).all()
    assert kinds.count("result") == 4 and "turn" in kinds
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 10, "the queue to drain")
    assert game_row(session, game_id) == (version_after, status)
