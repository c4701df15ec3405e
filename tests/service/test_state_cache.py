"""The state cache (pbem/services/state.py): a process that did not make an advance (a web
process beside the worker) brings its newest cached state up to date with the order-log
lines since, instead of replaying the whole game."""
from __future__ import annotations

from sqlalchemy import event

from engine.records import replay
from pbem.models import Game
from pbem.services import play
from pbem.services.state import _cached, cache_key, clear_cache, game_state, log_lines, record, remember
from pbem.testing import first_legal_order
from service_helpers import make_game


def play_orders(session, game, user, count):
    for _ in range(count):
        session.expire_all()
        decision = play.game_view(session, session.get(Game, game.id), user).view["me"]["decisions"][0]
        play.submit_for_user(session, game.id, user, first_legal_order(decision), channel="api")


def test_a_newer_version_applies_only_the_lines_since_the_cached_state(session, ana):
    game = make_game(session, ana)  # Ana and two bots: each of her orders lets the bots move too
    play_orders(session, game, ana, 3)
    session.refresh(game)
    older_key, older = cache_key(session, game), game_state(session, game)
    logged_before = len(older.order_log())
    play_orders(session, game, ana, 4)
    # As in another process: only the older state is cached.
    clear_cache()
    remember(older_key, older)
    session.refresh(game)
    statements = []
    listener = lambda conn, cursor, sql, params, context, many: statements.append((sql, params))  # noqa: E731
    event.listen(session.get_bind(), "before_cursor_execute", listener)
    try:
        caught_up = game_state(session, game)
    finally:
        event.remove(session.get_bind(), "before_cursor_execute", listener)
    full = replay(record(game, log_lines(session, game.id)))
    assert len(full.order_log()) > logged_before
    assert caught_up.order_log() == full.order_log()
    assert caught_up.view(None) == full.view(None)
    assert len(older.order_log()) == logged_before  # the cached state itself is left as it was
    # One query, for the lines after those the cached state has (not the whole log).
    (sql, params), = statements
    assert "order_log" in sql and "seq >" in sql
    assert logged_before in (params.values() if isinstance(params, dict) else params)


def test_only_the_two_newest_versions_of_a_game_stay_cached():
    # Older versions served only readers caught by an advance; kept, they filled the cache.
    clear_cache()
    game, other = ("url", 1, "created", "seed"), ("url", 2, "created", "seed")
    key = lambda game, version: (*game[:2], version, *game[2:])  # noqa: E731 - cache_key's layout
    for version in (3, 1, 2, 4):
        remember(key(game, version), f"state {version}")
    remember(key(other, 1), "other game")
    assert [_cached(key(game, version)) for version in (1, 2, 3, 4)] == [None, None, "state 3", "state 4"]
    assert _cached(key(other, 1)) == "other game"
    clear_cache()
