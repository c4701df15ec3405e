"""Service speed on PostgreSQL: requests per second for the game page and for order
submission, beside a raw PostgreSQL insert-and-commit loop measured in the same run.

Requests go through the WSGI app in this process (Flask's test client: no network, one
thread), so the figures are the app's own cost: routing, templates, the engine, and the
database round trips.  Two baselines, measured in the same run: what one connection can
commit on the same server, and the bare order endpoint (bench/bare.py): the same app,
session and token check, and the same two commits as a submission (the pending order,
then the advance's), with none of the logic.  `service.order_submit_per_bare` is the goal
of issue 18 (at least 0.5).

PBEM_BENCH_POSTGRES picks the server (default: the local test database); the benchmark
works in its own schema, dropped at the end.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable

from bench.bare import with_bare_routes
from bench.postgres import POSTGRES, create_schema, drop_schema, raw_insert_commit

SCHEMA = f"pbem_bench_{os.getpid()}"
PAGE_REQUESTS = 300
ORDERS = 300
RAW_COMMITS = 1000
TIME_LIMIT = 20.0  # seconds per measurement, whatever the counts
ROUNDS = 3  # the orders measured in this many turns, the bare endpoint before, between and after


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds else 0.0


def _loop(work: Callable[[], Any], limit: int, seconds: float = TIME_LIMIT) -> tuple[int, float]:
    """Run `work` up to `limit` times (or `seconds`); return (runs, seconds timed).
    `work` may return a number of seconds to count instead of its own wall time."""
    spent, runs, start = 0.0, 0, time.perf_counter()
    while runs < limit and time.perf_counter() - start < seconds:
        began = time.perf_counter()
        counted = work()
        spent += counted if isinstance(counted, float) else time.perf_counter() - began
        runs += 1
    return runs, spent


class _Service:
    """An app on the benchmark schema with one person, a token and a signed-in browser."""

    def __init__(self) -> None:
        from pbem.app import create_app
        from pbem.db import upgrade
        from pbem.extensions import db
        from pbem.services import accounts

        url = f"{POSTGRES}?options=-csearch_path%3D{SCHEMA}"
        upgrade(url)
        self.app = with_bare_routes(create_app({"PBEM_ENV": "testing", "SECRET_KEY": "bench", "DATABASE_URL": url,
                                                "RATELIMIT_ENABLED": False}))
        with self.app.app_context():
            self.user = accounts.User(display_name="Bench")
            self.user.addresses.append(accounts.EmailAddress(address="bench@example.com", is_primary=True))
            db.session.add(self.user)
            db.session.commit()
            self.user_id = self.user.id
            _, secret = accounts.create_api_token(db.session(), self.user, "bench")
        self.headers = {"Authorization": f"Bearer {secret}"}
        self.browser = self.app.test_client()
        with self.browser.session_transaction() as cookie:
            cookie["uid"] = self.user_id
        self.game_id = self.new_game()
        self.bare_game_id = self.new_game()  # the bare endpoint's orders go to a game of their own

    def new_game(self) -> int:
        answer = self.app.test_client().post("/api/games", headers=self.headers, json={
            "title": "bench", "players": 3, "bots": ["heuristic", "random"]})
        assert answer.status_code == 201, answer.json
        return answer.json["id"]

    def next_order(self) -> str:
        from pbem.testing import first_legal_order
        view = self.app.test_client().get(f"/api/games/{self.game_id}/view", headers=self.headers).json
        if view["game"]["status"] == "finished":
            self.game_id = self.new_game()
            return self.next_order()
        return first_legal_order(view["view"]["me"]["decisions"][0])

    def page(self) -> None:
        answer = self.browser.get(f"/games/{self.game_id}")
        assert answer.status_code == 200

    def submit(self) -> float:
        order = self.next_order()  # not timed: finding a legal order is the client's work
        client = self.app.test_client()
        began = time.perf_counter()
        answer = client.post(f"/api/games/{self.game_id}/orders", headers=self.headers, json={"orders": order})
        spent = time.perf_counter() - began
        assert answer.status_code == 201, answer.json
        return spent

    def submit_bare(self) -> float:
        client = self.app.test_client()
        began = time.perf_counter()
        answer = client.post(f"/bench/bare/{self.bare_game_id}/orders", headers=self.headers,
                             json={"orders": "place 12"})
        spent = time.perf_counter() - began
        assert answer.status_code == 201, answer.json
        return spent


def run() -> list[dict[str, Any]]:
    create_schema(SCHEMA)
    try:
        # The baseline before and after the service runs, so drift during the run shows in both.
        raw_before = raw_insert_commit(SCHEMA, RAW_COMMITS // 2, TIME_LIMIT)
        service = _Service()
        service.page()  # warm up templates and the state cache
        page_runs, page_time = _loop(service.page, PAGE_REQUESTS)
        # Orders and the bare endpoint take turns, bare first and last, so a machine whose load
        # drifts during the run weighs on both alike.
        bare = [_loop(service.submit_bare, ORDERS // (ROUNDS + 1), TIME_LIMIT / (ROUNDS + 1))]
        orders = []
        for _ in range(ROUNDS):
            orders.append(_loop(service.submit, ORDERS // ROUNDS, TIME_LIMIT / ROUNDS))
            bare.append(_loop(service.submit_bare, ORDERS // (ROUNDS + 1), TIME_LIMIT / (ROUNDS + 1)))
        raw_after = raw_insert_commit(SCHEMA, RAW_COMMITS // 2, TIME_LIMIT)
    finally:
        drop_schema(SCHEMA)
    raw_runs, raw_time = raw_before[0] + raw_after[0], raw_before[1] + raw_after[1]
    raw_rate = _rate(raw_runs, raw_time)
    order_runs, order_time = sum(runs for runs, _ in orders), sum(spent for _, spent in orders)
    order_rate = _rate(order_runs, order_time)
    bare_runs = sum(runs for runs, _ in bare)
    bare_rate = _rate(bare_runs, sum(spent for _, spent in bare))
    common = {"database": "postgresql", "transport": "in-process WSGI (Flask test client)"}
    return [
        {"name": "service.game_page", "value": _rate(page_runs, page_time), "unit": "requests/s",
         "requests": page_runs, **common,
         "note": "GET /games/<id> for the seated player: view, board, forms"},
        {"name": "service.order_submit", "value": order_rate, "unit": "requests/s", "orders": order_runs,
         **common, "note": "POST /api/games/<id>/orders: parse, check, commit, advance with two bots"},
        {"name": "service.pg_insert_commit", "value": raw_rate, "unit": "commits/s", "commits": raw_runs,
         "database": "postgresql",
         "note": "baseline: one psycopg connection, INSERT + COMMIT, before and after the service runs"},
        {"name": "service.bare_order", "value": bare_rate, "unit": "requests/s",
         "orders": bare_runs, **common,
         "note": "baseline: POST /bench/bare/<id>/orders (bench/bare.py), token check, INSERT + COMMIT, "
                 "UPDATE + COMMIT, no logic; in turns with the orders"},
        {"name": "service.order_submit_per_bare", "value": round(order_rate / bare_rate, 4) if bare_rate else None,
         "unit": "ratio", "goal": 0.5,
         "note": "order submissions per bare order in the same time (issue 18: at least 0.5)"},
        {"name": "service.order_submit_per_raw_commit",
         "value": round(order_rate / raw_rate, 4) if raw_rate else None, "unit": "ratio",
         "note": "order submissions per raw commit in the same time"},
    ]
