"""Helpers for the worker tests: real `celery worker` processes, people with API tokens,
games driven through the JSON API, and bounded waiting."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.models import Game, OrderLogEntry, PendingOrder, Seat
from pbem.services import accounts, lobby
from pbem.testing import first_legal_order

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 40.0


def wait_until(predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.02) -> Any:
    """Poll `predicate` until it returns something true; fail after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


@dataclass
class WorkerProcess:
    """One `celery worker` (its main process leads its own process group)."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_ready(self, timeout: float = READY_SECONDS) -> None:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"worker {self.name} exited ({self.process.returncode}):\n{self.log()[-3000:]}")
            return " ready." in self.log()
        try:
            wait_until(ready, timeout, f"worker {self.name} to be ready", interval=0.05)
        except AssertionError as error:
            raise AssertionError(f"{error}\n{self.log()[-3000:]}") from None

    def kill(self) -> None:
        """SIGKILL the whole worker: its main process and every pool process, no warning."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(10)

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
            except ProcessLookupError:
                pass
        else:
            try:  # pool processes orphaned by a killed main process
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@dataclass
class Workers:
    """Starts real worker processes for one test and stops every one of them afterwards."""

    env: dict[str, str]
    folder: Path
    started: list[WorkerProcess] = field(default_factory=list)

    def start(self, *, concurrency: int = 2, beat: bool = False, wait: bool = True, **extra_env: str) -> WorkerProcess:
        name = f"w{len(self.started) + 1}-{os.getpid()}"
        log_path = self.folder / f"{name}.log"
        command = [sys.executable, "-m", "celery", "-A", "worker.celery_app", "worker", "--loglevel", "INFO",
                   "--concurrency", str(concurrency), "--hostname", f"{name}@%h", "--without-gossip",
                   "--without-mingle", "--without-heartbeat"]
        if beat:
            command += ["--beat", "--schedule", str(self.folder / f"{name}-beat-schedule")]
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, cwd=ROOT, env={**self.env, **extra_env}, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        worker = WorkerProcess(name, process, log_path)
        self.started.append(worker)
        if wait:
            worker.wait_ready()
        return worker

    def stop_all(self) -> None:
        for worker in self.started:  # the test is over: no need to wait for a warm shutdown
            worker.kill()


# ---- Redis -----------------------------------------------------------------------------------

def purge(client: redis.Redis, prefix: str) -> None:
    """Delete every key of this test run (its prefix), and nothing else."""
    keys = list(client.scan_iter(match=f"{prefix}*", count=500))
    if keys:
        client.delete(*keys)


def queue_idle(client: redis.Redis, prefix: str) -> bool:
    """No task waiting in the queue and none delivered but unacknowledged."""
    return client.llen(f"{prefix}pbem") == 0 and client.hlen(f"{prefix}unacked") == 0


# ---- people and games ---------------------------------------------------------------------------

def token_headers(session: Session, user: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {accounts.create_api_token(session, user, 'test')[1]}"}


def four_player_game(session: Session, make_user: Callable[..., Any], *, seed: int = 11,
                     deadlines: dict[str, Any] | None = None, tag: str = "") -> tuple[int, dict[str, dict[str, str]]]:
    """A started 4-player game of four people; returns its id and each seat's API headers."""
    names = ["Ana", "Bo", "Cy", "Di"]
    users = [make_user(session, f"{name.lower()}{tag}@example.com", name) for name in names]
    game = lobby.create_game(session, users[0], lobby.NewGame(
        title="Worker game", players=4, invites=[f"{n.lower()}{tag}@example.com" for n in names[1:]],
        seed=seed, deadlines=deadlines), base_url="http://pbem.test")
    for user in users[1:]:
        lobby.join_game(session, game.id, user)
    game = session.get(Game, game.id)
    session.refresh(game)
    assert game.status == Game.ACTIVE
    headers = {}
    for user in users:
        seat = next(s for s in game.seats if s.user_id == user.id)
        headers[seat.name] = token_headers(session, user)
    return game.id, headers


def game_row(session: Session, game_id: int) -> tuple[int, str]:
    session.expire_all()
    version, status = session.execute(select(Game.version, Game.status).where(Game.id == game_id)).one()
    session.rollback()
    return version, status


def log_of(session: Session, game_id: int) -> list[tuple[int, str, str]]:
    rows = session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.text)
                           .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq)).all()
    session.rollback()
    return [tuple(row) for row in rows]


def pending_count(session: Session, game_id: int) -> int:
    count = session.scalar(select(func.count()).select_from(PendingOrder).where(PendingOrder.game_id == game_id))
    session.rollback()
    return int(count or 0)


def decision_of(client: Any, game_id: int, headers: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    seen = client.get(f"/api/games/{game_id}/view", headers=headers).json
    decisions = seen["view"]["me"]["decisions"]
    return seen, (decisions[0] if decisions and not seen["pending"] else None)


def drive_by_api(client: Any, session: Session, game_id: int, headers: dict[str, dict[str, str]],
                 timeout: float, pick: Callable[[dict[str, Any]], str] = first_legal_order) -> dict[str, Any]:
    """Play every seat through the API (`pick`: the order for a decision of the view; first
    legal orders by default) until the game is over; the game only moves on when a worker
    advances it.  Each time the game's version changes every seat looks at its view and
    posts what it owes.  Returns the last view and counts."""
    end = time.monotonic() + timeout
    posted = refused = 0
    seen_version = None
    while time.monotonic() < end:
        version, status = game_row(session, game_id)
        if version == seen_version and status != Game.FINISHED:
            time.sleep(0.005)  # the worker has not advanced the game yet
            continue
        seen_version = version
        for seat_headers in headers.values():
            seen, decision = decision_of(client, game_id, seat_headers)
            if seen["game"]["status"] == Game.FINISHED:
                return {"view": seen, "orders": posted, "refused": refused}
            if decision is None:
                continue
            answer = client.post(f"/api/games/{game_id}/orders", headers=seat_headers,
                                 json={"orders": pick(decision)})
            if answer.status_code == 201:
                posted += 1
            else:
                # The view was read while a worker committed the next state: look again.
                assert answer.status_code in (409, 422), answer.json
                refused += 1
                seen_version = None
    raise AssertionError(f"game {game_id} not finished after {timeout:.0f} s ({posted} orders posted)")


def post_card(config: dict[str, Any], game_id: int, headers: dict[str, str], card: int, barrier: Any,
              answers: Any) -> None:
    """In a separate process: build the app, wait for the others, post one power card."""
    try:
        from pbem.app import create_app
        client = create_app(config).test_client()
        client.get("/api/me", headers=headers)  # warm up (connection, token lookup) before the race
        barrier.wait(timeout=60)
        answers.put(client.post(f"/api/games/{game_id}/orders", headers=headers,
                                json={"orders": f"card {card}"}).status_code)
    except BaseException as error:  # noqa: BLE001 - reported to the test
        answers.put(repr(error))


# ---- the first secret choice of a four-person game ----------------------------------------

def cards_for(client: Any, game_id: int, headers: dict[str, dict[str, str]]) -> dict[str, int]:
    """A legal card per seat (each seat's own hand)."""
    chosen = {}
    for seat_name, seat_headers in headers.items():
        seen = client.get(f"/api/games/{game_id}/view", headers=seat_headers).json
        decision = seen["view"]["me"]["decisions"][0]
        assert decision["kind"] == "power"
        chosen[seat_name] = decision["options"]["cards"][-1]
    return chosen


def assert_cards_applied_once(session: Session, game_id: int, chosen: dict[str, int], version_before: int) -> None:
    """The four cards are in the log once each (seq 1-4), applied by one version bump, and
    the game now waits for one seat's development turn."""
    log = log_of(session, game_id)
    assert [seq for seq, _, _ in log] == [1, 2, 3, 4]  # no gap, nothing doubled
    assert sorted((seat, text) for _, seat, text in log) == sorted(
        (seat_name, f"card {card}") for seat_name, card in chosen.items())
    assert game_row(session, game_id) == (version_before + 1, Game.ACTIVE)
    assert pending_count(session, game_id) == 0
    waiting = session.scalars(select(Seat.name).where(Seat.game_id == game_id, Seat.waiting.is_(True))).all()
    session.rollback()
    assert len(waiting) == 1  # the first development turn's seat, nobody else


def post_all(client: Any, game_id: int, headers: dict[str, dict[str, str]], chosen: dict[str, int]) -> None:
    for seat, card in chosen.items():
        answer = client.post(f"/api/games/{game_id}/orders", headers=headers[seat], json={"orders": f"card {card}"})
        assert answer.status_code == 201, answer.json
        assert not answer.json["applied"]  # queued for the worker, never applied by the web


def answer_while_locked(stack: Any, lock: str, task: str, timeout: float = 30) -> Any:
    """What the single-flight task `task` answers while its lock `lock` is held elsewhere."""
    from pbem.tasks import QUEUE, producer
    held = stack.redis.lock(f"{stack.prefix}pbem:lock:{lock}", timeout=30)
    assert held.acquire(blocking=False)  # a run is going on (elsewhere)
    try:
        return producer(stack.app).send_task(task, queue=QUEUE, ignore_result=False).get(timeout=timeout)
    finally:
        held.release()
