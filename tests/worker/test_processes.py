"""The web and the SMTP gateway as production starts them (the Dockerfile's gunicorn command
on pbem.wsgi:app, and `pbem smtpd`), with a real worker, Redis and PostgreSQL: an order
sent to each process is applied by the worker."""
from __future__ import annotations

import json
import os
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import select

from pbem.mail.replies import REPLY_TOPIC
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.models import Game, OutboxMessage
from service_helpers import make_game
from worker_helpers import ROOT, log_of, token_headers, wait_until

DOMAIN = "pbem.test"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def start(stack, app, tmp_path) -> Iterator:
    """start(command, port, **env): a process of ours, ready once it listens on `port`."""
    started: list[subprocess.Popen[bytes]] = []

    def run(command: list[str], port: int, **extra: str) -> Path:
        log_path = tmp_path / f"process-{port}.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, cwd=ROOT, env={**stack.env, **extra}, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        started.append(process)

        def up() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"{command} exited:\n{log_path.read_text(errors='replace')[-3000:]}")
            return listening(port)
        wait_until(up, 60, f"{command[:3]} to listen on {port}", interval=0.1)
        return log_path

    yield run
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


class Stream:
    """A page's event stream, read in a thread: the stamps of its `change` events so far."""

    def __init__(self, url: str) -> None:
        self.changes: list[str] = []
        self.answer = urllib.request.urlopen(url, timeout=90)
        assert self.answer.headers["Content-Type"].startswith("text/event-stream")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event = None
        try:
            for raw in self.answer:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[len("event: "):]
                elif line.startswith("data: ") and event == "change":
                    self.changes.append(line[len("data: "):])
        except (OSError, ValueError, AttributeError):
            pass  # closed by the test (http.client drops its file midway through a read)

    def close(self) -> None:
        self.answer.close()


def one_person_game(session, make_user) -> tuple[Game, str, str]:
    """Ana and two bots; her seat and the first card she may play."""
    ana = make_user(session, "ana@example.org", "Ana")
    game = make_game(session, ana, seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    from pbem.services.state import game_state
    card = game_state(session, game).view(seat.name)["me"]["power_left"][0]
    return game, seat.name, f"card {card}"


def test_gunicorn_serves_the_app_factory_and_its_orders_reach_the_worker(session, workers, make_user, start):
    game, seat_name, order = one_person_game(session, make_user)
    ana = next(s.user for s in game.seats if s.name == seat_name)
    headers = token_headers(session, ana)
    session.commit()
    workers.start(concurrency=1)
    port = free_port()
    # The Dockerfile's command, on a loopback port.
    # The Dockerfile's command (threads, so an open page's stream does not hold a process),
    # with one process: two open streams must not keep it from answering.
    start([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
           "--worker-class", "gthread", "--threads", "8", "--access-logfile", "-", "pbem.wsgi:app"],
          port, PBEM_ADVANCE="queue")
    base = f"http://127.0.0.1:{port}"
    stamp = json.load(urllib.request.urlopen(f"{base}/games/{game.id}/version", timeout=30))["stamp"]
    streams = [Stream(f"{base}/games/{game.id}/live?stamp={stamp}") for _ in range(2)]
    with urllib.request.urlopen(f"{base}/healthz", timeout=30) as answer:
        assert answer.status == 200 and json.load(answer)["database"] == "ok"
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games/{game.id}/orders", method="POST",
                                     data=json.dumps({"orders": order}).encode(),
                                     headers={**headers, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
    wait_until(lambda: any(seat == seat_name and text == order for _, seat, text in log_of(session, game.id)),
               60, "the worker to apply the order sent to gunicorn")
    # The worker's commit reaches the open pages through Redis: a change whose version moved.
    version = int(stamp.split(".")[0])
    for stream in streams:
        wait_until(lambda: any(int(s.split(".")[0]) > version for s in stream.changes), 60,
                   "the worker's advance to reach an open page's stream")
        stream.close()


def test_pbem_smtpd_stores_mail_and_the_worker_carries_out_its_orders(session, workers, make_user, start, stack):
    game, seat_name, order = one_person_game(session, make_user)
    settings = load({**stack.config, "PBEM_MAIL_DOMAIN": DOMAIN})
    seat = next(s for s in game.seats if s.name == seat_name)
    address = seat_reply_address(session, seat, settings)
    session.commit()
    workers.start(concurrency=1, PBEM_MAIL_DOMAIN=DOMAIN)
    port = free_port()
    # The console script, as docker-compose.yml runs it.
    start([str(Path(sys.executable).parent / "pbem"), "smtpd"], port, PBEM_SMTPD_PORT=str(port), PBEM_MAIL_DOMAIN=DOMAIN,
          PBEM_ADVANCE="queue", PBEM_MAIL_PROCESS="queue")
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "Ana <ana@example.org>", address, "my card"
    mail["Message-ID"] = "<processes-test@example.org>"
    mail.set_content(f"{order}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(mail)
    wait_until(lambda: any(seat == seat_name and text == order for _, seat, text in log_of(session, game.id)),
               60, "the worker to carry out the order mailed to pbem smtpd")

    def answered() -> bool:
        found = session.scalar(select(OutboxMessage.id).where(OutboxMessage.to_address == "ana@example.org",
                                                              OutboxMessage.topic == REPLY_TOPIC))
        session.rollback()
        return found is not None
    wait_until(answered, 60, "the confirmation to Ana")
