"""Asynchronous advancing, end to end: gunicorn serving the JSON API, a real Celery worker,
Redis as the broker, PostgreSQL as the database, all on this machine.

- Latency from the last order to the advanced state: a client posts the order that
  completes what a game waits for (a development turn, or the second secret card) and
  watches the game's row; the clock stops when the advanced state is committed, which is
  the same transaction that queues its notifications (the outbox rows).  p50 and p95.
- Sustained orders per second through the API: several clients, each playing its own
  two-person game (view, then order, as a program would), for a fixed time; every order
  goes through HTTP, gunicorn, the order path, Redis and a worker's advance.
- Report and notice mails are on (as in production): a second worker renders them from its
  own queue, as docker-compose.yml runs it.
- The baselines, in the same run: one psycopg connection doing INSERT + COMMIT in a loop on
  the same server, before and after; and the bare order endpoint (bench/bare.py) on the same
  gunicorn and worker, in turns with the orders: the same clients, each posting to its
  own game and waiting for the worker, whose task (`bench.bare_advance`) only makes the
  advance's commit.  `worker.api_orders_per_bare` is the goal of issue 18 (at least 0.5).

PBEM_BENCH_POSTGRES and PBEM_BENCH_REDIS pick the servers (default: the local ones); the
benchmark works in its own schema and under its own Redis key prefix, removed at the end.
"""
from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import psycopg
import redis

from bench.local import celery_worker, free_port, stop
from bench.postgres import POSTGRES, create_schema, drop_schema, raw_insert_commit
from pbem.tasks import REPORT_QUEUE

ROOT = Path(__file__).resolve().parent.parent
REDIS = os.environ.get("PBEM_BENCH_REDIS", "redis://127.0.0.1:6379/14")
SCHEMA = f"pbem_bench_worker_{os.getpid()}"
PREFIX = f"pbembench:{os.getpid()}:"
LATENCY_SAMPLES = 120
LATENCY_SECONDS = 15.0
THROUGHPUT_CLIENTS = 8
THROUGHPUT_SECONDS = 10.0
ROUNDS = 2  # the orders measured in this many turns, the bare endpoint before, between and after
RAW_COMMITS = 500
RAW_SECONDS = 3.0
WEB_WORKERS = 2
WEB_THREADS = 4
WORKER_CONCURRENCY = max(2, os.cpu_count() or 2)
ADVANCE_TIMEOUT = 10.0
START_TIMEOUT = 40.0


def _psycopg_url() -> str:
    return POSTGRES.replace("postgresql+psycopg://", "postgresql://")


class _Stack:
    """gunicorn + a Celery worker on the benchmark schema and Redis prefix."""

    def __init__(self, folder: Path) -> None:
        from pbem.db import upgrade
        self.url = f"{POSTGRES}?options=-csearch_path%3D{SCHEMA}"
        upgrade(self.url)
        self.port = free_port()
        self.env = {**os.environ, "DATABASE_URL": self.url, "REDIS_URL": REDIS, "PBEM_QUEUE_PREFIX": PREFIX,
                    "PBEM_ADVANCE": "queue", "PBEM_ENV": "production", "SECRET_KEY": "bench-secret",
                    "PBEM_RATELIMIT": "0", "PBEM_BASE_URL": f"http://127.0.0.1:{self.port}",
                    "PYTHONUNBUFFERED": "1"}
        self.logs = {name: folder / f"{name}.log" for name in ("web", "worker", "reports")}
        self.processes: list[subprocess.Popen[bytes]] = []
        self._start("web", [sys.executable, "-m", "gunicorn", "--workers", str(WEB_WORKERS), "--threads",
                            str(WEB_THREADS), "--bind", f"127.0.0.1:{self.port}", "bench.bare_web:app"])
        self._start("worker", celery_worker("bench.bare_worker", WORKER_CONCURRENCY, hostname="advance@%h"))
        # Report mails render beside it, as in docker-compose.yml: their own queue and process,
        # at a lower CPU priority (compose gives that container a smaller CPU share).
        self._start("reports", ["nice", "-n", "10", *celery_worker("worker.celery_app", 1, queue=REPORT_QUEUE,
                                                                    hostname="reports@%h")])

    def _start(self, name: str, command: list[str]) -> None:
        with open(self.logs[name], "wb") as log:
            self.processes.append(subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                                   stderr=subprocess.STDOUT))

    def wait_ready(self) -> None:
        from pbem.app import create_app
        from pbem.services.dispatch import PING_TASK
        from pbem.tasks import producer
        end = time.monotonic() + START_TIMEOUT
        while True:
            try:
                status, _ = request(self.port, "GET", "/api/openapi.json")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > end or any(p.poll() is not None for p in self.processes):
                raise RuntimeError(f"gunicorn did not start:\n{self.logs['web'].read_text()[-2000:]}")
            time.sleep(0.1)
        app = create_app({"DATABASE_URL": self.url, "REDIS_URL": REDIS, "PBEM_QUEUE_PREFIX": PREFIX,
                          "PBEM_ENV": "testing", "SECRET_KEY": "bench-secret"})
        producer(app).send_task(PING_TASK, ignore_result=False).get(timeout=START_TIMEOUT)

    def stop(self) -> None:
        stop(self.processes)


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None,
            body: dict[str, Any] | None = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=payload,
                           headers={**(headers or {}), **({"Content-Type": "application/json"} if payload else {})})
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, (json.loads(data) if data else None)
    finally:
        connection.close()


class _Players:
    """Two people with API tokens, and two-person games between them (made through the
    application layer, as the lobby does)."""

    def __init__(self, url: str) -> None:
        from sqlalchemy.orm import Session

        from pbem.app import create_app
        from pbem.extensions import db
        from pbem.models import EmailAddress, User
        from pbem.services import accounts
        self.app = create_app({"DATABASE_URL": url, "PBEM_ENV": "testing", "SECRET_KEY": "bench-secret"})
        with self.app.app_context():
            self.engine = db.engine
        self.session = Session(self.engine)
        self.lock = threading.Lock()  # one session, shared by the client threads
        self.users, self.headers = [], []
        for name in ("Ana", "Bo"):
            user = User(display_name=name, notify_turn=True)
            user.addresses.append(EmailAddress(address=f"{name.lower()}@bench.example", is_primary=True))
            self.session.add(user)
            self.session.commit()
            self.users.append(user)
            self.headers.append({"Authorization": f"Bearer {accounts.create_api_token(self.session, user, 'b')[1]}"})

    def new_game(self, seed: int) -> int:
        from pbem.services import lobby
        with self.lock:
            game = lobby.create_game(self.session, self.users[0], lobby.NewGame(
                title="bench", players=2, invites=["bo@bench.example"], seed=seed), base_url="http://bench")
            lobby.join_game(self.session, game.id, self.users[1])
            return game.id


def _next_move(port: int, game_id: int, headers: list[dict[str, str]]) -> tuple[str, int, str, bool] | None:
    """('finished', ...) or (order text, seat index, kind, completes) for a seat that owes a
    decision and has no order in; None while the game waits for a worker."""
    from pbem.testing import first_legal_order
    for index, seat_headers in enumerate(headers):
        status, seen = request(port, "GET", f"/api/games/{game_id}/view", seat_headers)
        assert status == 200, seen
        if seen["game"]["status"] == "finished":
            return ("finished", index, "", False)
        decisions = seen["view"]["me"]["decisions"]
        if decisions and not seen["pending"]:
            decision = decisions[0]
            # A secret choice completes the decision only when every other seat is in.
            completes = not decision["simultaneous"] or len(seen["submitted"]) == len(headers) - 1
            return (first_legal_order(decision), index, decision["kind"], completes)
    return None


def _version(cursor: Any, game_id: int) -> int:
    cursor.execute("SELECT version FROM games WHERE id = %s", (game_id,))
    return int(cursor.fetchone()[0])


class _Page:
    """An open game page's event stream (pbem/live.py): when the first `change` event whose
    version is past `version` arrived."""

    def __init__(self, port: int, game_id: int, version: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, seen = request(port, "GET", f"/games/{game_id}/version")
        self.connection.request("GET", f"/games/{game_id}/live?stamp={seen['stamp']}")
        self.answer = self.connection.getresponse()
        self.version, self.arrived = version, None
        self.done = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.answer:
                line = raw.decode().strip()
                if line.startswith("data: ") and int(line[6:].split(".")[0]) > self.version:
                    self.arrived = time.perf_counter()
                    break
        except (OSError, ValueError, AttributeError):
            pass
        self.done.set()

    def close(self) -> None:
        self.connection.close()


def measure_latency(port: int, players: _Players) -> tuple[list[float], list[float]]:
    """Milliseconds from sending an order that completes what the game waits for until the
    advanced state (and its notifications) is committed; and from that commit until an open
    page's event stream tells of it (the push)."""
    samples: list[float] = []
    pushes: list[float] = []
    connection = psycopg.connect(_psycopg_url(), options=f"-csearch_path={SCHEMA}", autocommit=True)
    cursor = connection.cursor()
    game_id, seed = players.new_game(1), 1
    end = time.monotonic() + LATENCY_SECONDS
    try:
        while len(samples) < LATENCY_SAMPLES and time.monotonic() < end:
            move = _next_move(port, game_id, players.headers)
            if move is None:
                time.sleep(0.002)
                continue
            order, index, _, completes = move
            if order == "finished":
                seed += 1
                game_id = players.new_game(seed)
                continue
            before = _version(cursor, game_id)
            page = _Page(port, game_id, before) if completes else None
            began = time.perf_counter()
            status, answer = request(port, "POST", f"/api/games/{game_id}/orders", players.headers[index],
                                     {"orders": order})
            if status != 201 or page is None:
                if page is not None:
                    page.close()
                continue  # the view was a moment old (look again), or the order completes nothing
            while _version(cursor, game_id) == before:
                if time.perf_counter() - began > ADVANCE_TIMEOUT:
                    raise RuntimeError(f"game {game_id} did not advance within {ADVANCE_TIMEOUT} s")
                time.sleep(0.0005)
            committed = time.perf_counter()
            samples.append((committed - began) * 1000)
            page.done.wait(ADVANCE_TIMEOUT)
            page.close()
            if page.arrived is None:
                raise RuntimeError(f"game {game_id}: the page's stream never told of the advance")
            pushes.append(max(0.0, page.arrived - committed) * 1000)
    finally:
        connection.close()
    return samples, pushes


def _run_clients(client: Callable[[int, threading.Event], None], clients: int, seconds: float) -> float:
    """Run `client(slot, stop)` in `clients` threads for `seconds`; the seconds it took.  A
    client that raises fails the measurement."""
    stop = threading.Event()
    failures: list[str] = []

    def run(slot: int) -> None:
        try:
            client(slot, stop)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(repr(error))

    threads = [threading.Thread(target=run, args=(slot,), daemon=True) for slot in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    spent = time.perf_counter() - began
    for thread in threads:
        thread.join(30)
    if failures:
        raise RuntimeError(f"a client failed: {failures[0]}")
    return spent


def measure_throughput(port: int, players: _Players, seconds: float = THROUGHPUT_SECONDS) -> tuple[int, int, float]:
    """(orders accepted, order-log rows written, seconds) with THROUGHPUT_CLIENTS clients."""
    games = [players.new_game(1000 + i) for i in range(THROUGHPUT_CLIENTS)]
    accepted = [0] * len(games)

    def client(slot: int, stop: threading.Event) -> None:
        game_id, seed = games[slot], 2000 + slot * 100
        while not stop.is_set():
            move = _next_move(port, game_id, players.headers)
            if move is None:
                time.sleep(0.002)
                continue
            order, index, _, _ = move
            if order == "finished":
                seed += 1
                game_id = players.new_game(seed)
                continue
            status, _ = request(port, "POST", f"/api/games/{game_id}/orders", players.headers[index],
                                {"orders": order})
            if status == 201 and not stop.is_set():
                accepted[slot] += 1

    logged_before = _count_log()
    spent = _run_clients(client, len(games), seconds)
    return sum(accepted), _count_log() - logged_before, spent


def measure_bare(port: int, players: _Players, seconds: float) -> tuple[int, float]:
    """(bare orders done, seconds) with THROUGHPUT_CLIENTS clients: each reads its game's
    version, posts a bare order and waits for the worker's task to move the version, as a
    real client reads a view, posts its order and waits for the advance."""
    games = [players.new_game(5000 + i) for i in range(THROUGHPUT_CLIENTS)]
    done = [0] * len(games)

    def version(game_id: int) -> int:
        status, seen = request(port, "GET", f"/bench/bare/{game_id}", players.headers[0])
        assert status == 200, seen
        return int(seen["version"])

    def client(slot: int, stop: threading.Event) -> None:
        game_id = games[slot]
        while not stop.is_set():
            before = version(game_id)
            status, answer = request(port, "POST", f"/bench/bare/{game_id}/orders", players.headers[0],
                                     {"orders": "place 12"})
            assert status == 201, answer
            while version(game_id) == before:
                if stop.is_set():
                    return
                time.sleep(0.002)
            if not stop.is_set():
                done[slot] += 1

    spent = _run_clients(client, len(games), seconds)
    return sum(done), spent


def _count_log() -> int:
    with psycopg.connect(_psycopg_url(), options=f"-csearch_path={SCHEMA}") as connection:
        return int(connection.execute("SELECT count(*) FROM order_log").fetchone()[0])


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _purge_redis() -> None:
    client = redis.Redis.from_url(REDIS)
    keys = list(client.scan_iter(match=f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)


def run() -> list[dict[str, Any]]:
    import tempfile
    create_schema(SCHEMA)
    stack = None
    try:
        raw_before = raw_insert_commit(SCHEMA, RAW_COMMITS, RAW_SECONDS)
        with tempfile.TemporaryDirectory() as folder:
            stack = _Stack(Path(folder))
            try:
                stack.wait_ready()
                players = _Players(stack.url)
                try:
                    latencies, pushes = measure_latency(stack.port, players)
                    # Orders and the bare endpoint take turns, bare first and last, so a machine
                    # whose load drifts during the run weighs on both alike.
                    bare = [measure_bare(stack.port, players, THROUGHPUT_SECONDS / (ROUNDS + 1))]
                    orders = logged = 0
                    seconds = 0.0
                    for _ in range(ROUNDS):
                        done = measure_throughput(stack.port, players, THROUGHPUT_SECONDS / ROUNDS)
                        orders, logged, seconds = orders + done[0], logged + done[1], seconds + done[2]
                        bare.append(measure_bare(stack.port, players, THROUGHPUT_SECONDS / (ROUNDS + 1)))
                finally:  # an open transaction would hold the schema's drop forever
                    players.session.close()
                    players.engine.dispose()
            finally:
                stack.stop()
        raw_after = raw_insert_commit(SCHEMA, RAW_COMMITS, RAW_SECONDS)
    finally:
        drop_schema(SCHEMA)
        _purge_redis()
    raw_rate = round((raw_before[0] + raw_after[0]) / (raw_before[1] + raw_after[1]), 1)
    order_rate = round(orders / seconds, 1)
    bare_orders = sum(count for count, _ in bare)
    bare_rate = round(bare_orders / sum(spent for _, spent in bare), 1)
    common = {"database": "postgresql", "broker": "redis",
              "web": f"gunicorn {WEB_WORKERS} workers x {WEB_THREADS} threads",
              "worker": f"celery prefork x {WORKER_CONCURRENCY}, reports rendered by its own worker (nice 10)"}
    return [
        {"name": "worker.advance_latency_p50", "value": round(statistics.median(latencies), 2), "unit": "ms",
         "samples": len(latencies), **common,
         "note": "HTTP POST of the order that completes what a 2-person game waits for -> advanced state "
                 "committed by the worker (order log, version, notifications in the outbox)"},
        {"name": "worker.advance_latency_p95", "value": round(_percentile(latencies, 0.95), 2), "unit": "ms",
         "samples": len(latencies), **common},
        {"name": "worker.push_latency_p50", "value": round(statistics.median(pushes), 2), "unit": "ms",
         "samples": len(pushes), "p95": round(_percentile(pushes, 0.95), 2), **common,
         "note": "the worker's commit of an advance (seen in PostgreSQL) -> the change event on an open "
                 "game page's stream (Redis pub/sub, gunicorn thread); the database is watched every 0.5 ms"},
        {"name": "worker.api_orders", "value": order_rate, "unit": "orders/s", "orders": orders,
         "applied_per_s": round(logged / seconds, 1), "clients": THROUGHPUT_CLIENTS, "seconds": round(seconds, 1),
         **common,
         "note": "sustained: each client plays its own 2-person game through the API (GET view, POST order), "
                 "every order advanced by the worker before that game can go on"},
        {"name": "worker.bare_orders", "value": bare_rate, "unit": "orders/s", "orders": bare_orders,
         "clients": THROUGHPUT_CLIENTS, **common,
         "note": "baseline: the same clients on POST /bench/bare/<id>/orders (token check, INSERT + COMMIT) "
                 "and a worker task doing UPDATE + COMMIT (bench/bare.py), in turns with the orders"},
        {"name": "worker.api_orders_per_bare", "value": round(order_rate / bare_rate, 4) if bare_rate else None,
         "unit": "ratio", "goal": 0.5,
         "note": "API orders (with their advances) per bare order in the same time (issue 18: at least 0.5)"},
        {"name": "worker.pg_insert_commit", "value": raw_rate, "unit": "commits/s",
         "commits": raw_before[0] + raw_after[0], "database": "postgresql",
         "note": "baseline: one psycopg connection, INSERT + COMMIT, before and after, same run"},
        {"name": "worker.api_orders_per_raw_commit", "value": round(order_rate / raw_rate, 4) if raw_rate else None,
         "unit": "ratio", "note": "API orders (with their advances) per raw commit in the same time"},
    ]


if __name__ == "__main__":
    for row in run():
        print(json.dumps(row), flush=True)
