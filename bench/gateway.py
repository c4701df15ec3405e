"""Email gateway throughput on PostgreSQL: inbound messages per second from SMTP receipt
(real aiosmtpd over loopback) to stored, authenticated orders, in production's shape
(docker-compose.yml): the SMTP server stores each mail and queues `pbem.process_inbound`;
a Celery worker (`worker.celery_app`, prefork, WORKER_CONCURRENCY processes, Redis as the
broker) processes it, and runs the advances the orders ask for.

Each message is a reply to a seat's token address from the player's confirmed address,
carrying a legal order (a secret card choice that replaces the last one); the row counts when it is processed (token, From, de-duplication,
the order committed through the application layer, the reply queued).  The mails come in
over CONNECTIONS SMTP connections at once, after one untimed mail per game (the worker's
processes read each game once, as a server that has been running a while).  Figures:
`gateway.smtp_store` (SMTP transaction to the committed raw row, the acknowledgement path),
`gateway.smtp_to_orders` (the same, through processing), and the worker's CPU per mail
(`gateway.worker_cpu_per_mail`: steadier than the rates where others load the machine too).
Outbound delivery is off
(replies stay in the outbox).  PBEM_BENCH_POSTGRES and PBEM_BENCH_REDIS pick the servers.
Bounded: at most MESSAGES messages or SECONDS seconds.  What one mail costs the database
(statements, commits) is a test, not a figure here: tests/gateway/test_mail_budget.py.
"""
from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

import redis

from bench.local import celery_worker, free_port, stop
from bench.postgres import create_schema, drop_schema
from pbem.tasks import QUEUE

ROOT = Path(__file__).resolve().parent.parent
REDIS = os.environ.get("PBEM_BENCH_REDIS", "redis://127.0.0.1:6379/14")
PREFIX = f"pbembench:gateway:{os.getpid()}:"
MESSAGES = 400
SECONDS = 20.0
WORKER_CONCURRENCY = 4  # docker-compose.yml's default (WORKER_CONCURRENCY)
START_TIMEOUT = 40.0
CONNECTIONS = 4  # SMTP connections sending at once
# Games of two people of whom only one mails: their secret card choice stays pending (the other
# has not chosen), so every mail's card order is legal, committed, and replaces the last one.
SEATS = 20


def _mail(sender: str, to: str, body: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: your turn"
    message["Message-ID"] = make_msgid(domain="bench.example")
    message["Date"] = formatdate(time.time() + 60 * n)
    message.set_content(body + "\n\n-- \nsent from the bench\n")
    return bytes(message)


class _Worker:
    """The Celery worker of docker-compose.yml's `worker` service, on the bench's schema and
    Redis prefix."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(celery_worker("worker.celery_app", WORKER_CONCURRENCY), cwd=ROOT,
                                            env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self, app: Any) -> None:
        from pbem.services.dispatch import PING_TASK
        from pbem.tasks import producer
        try:
            producer(app).send_task(PING_TASK, ignore_result=False, queue=QUEUE).get(timeout=START_TIMEOUT)
        except Exception as error:
            raise RuntimeError(f"the worker did not start:\n{self.log.read_text()[-2000:]}") from error

    def cpu_seconds(self) -> float | None:
        """CPU time the worker and its pool processes used so far (Linux /proc; None elsewhere)."""
        try:
            pids = {self.process.pid} | {int(pid) for pid in (Path("/proc") / str(self.process.pid) / "task" /
                                                              str(self.process.pid) / "children").read_text().split()}
            ticks = 0
            for pid in pids:
                fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
            return ticks / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        stop([self.process], 30)


def _send(port: int, raws: list[tuple[str, str, bytes]], seconds: float) -> int:
    """Send the mails over CONNECTIONS SMTP connections at once, as a sending server does
    with a queue of mail (each seat's mails on one connection, in order), for at most
    `seconds`; how many were sent."""
    start, sent = time.perf_counter(), [0] * CONNECTIONS

    def connection(slot: int) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
            for n, (sender, address, raw) in enumerate(raws):
                if n % SEATS % CONNECTIONS == slot:
                    client.sendmail(sender, [address], raw)
                    sent[slot] += 1
                    if time.perf_counter() - start > seconds:
                        break

    with ThreadPoolExecutor(CONNECTIONS) as pool:
        list(pool.map(connection, range(CONNECTIONS)))
    return sum(sent)


def _drain(app: Any, seconds: float) -> None:
    """Wait until no mail is left stored (unprocessed), for at most `seconds`."""
    from pbem.extensions import db
    from pbem.mail.models import InboundMessage
    end = time.perf_counter() + seconds
    with app.app_context():
        waiting = select(func.count()).where(InboundMessage.status == InboundMessage.STORED)
        while db.session.scalar(waiting) and time.perf_counter() < end:
            db.session.rollback()
            time.sleep(0.01)
        db.session.remove()


def _purge_redis() -> None:
    client = redis.Redis.from_url(REDIS)
    keys = list(client.scan_iter(match=f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)


def run() -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests" / "service"))
    from pbem.app import create_app
    from pbem.db import upgrade
    from pbem.extensions import db
    from pbem.mail.models import InboundMessage
    from pbem.mail.smtpd import controller
    from pbem.outbox.seat_tokens import seat_reply_address
    from pbem.services import lobby
    from pbem.services.state import game_state
    from service_helpers import make_game, make_user

    schema = f"pbem_bench_gateway_{os.getpid()}"
    url = create_schema(schema)
    # As the compose services are configured; the same settings for the SMTP server and the worker.
    env = {"DATABASE_URL": url, "REDIS_URL": REDIS, "PBEM_QUEUE_PREFIX": PREFIX, "PBEM_ENV": "production",
           "SECRET_KEY": "bench-secret", "PBEM_ADVANCE": "queue", "PBEM_MAIL_DOMAIN": "pbem.bench",
           "PBEM_MAIL_RATE_PER_HOUR": "100000", "PBEM_RATELIMIT": "0", "PYTHONUNBUFFERED": "1"}
    worker = None
    try:
        upgrade(url)
        # The games are made with inline advances (no worker yet), as the lobby would leave them.
        setup = create_app({"TESTING": True, "PBEM_ENV": "testing", "SECRET_KEY": env["SECRET_KEY"],
                            "DATABASE_URL": url, "PBEM_MAIL_DOMAIN": env["PBEM_MAIL_DOMAIN"]})
        seats = []
        with setup.app_context():
            session = db.session()
            for i in range(SEATS):
                user = make_user(session, f"p{i}@bench.example", f"P{i}")
                other = make_user(session, f"q{i}@bench.example", f"Q{i}")
                game = make_game(session, user, players=2, bots=(), invites=[f"q{i}@bench.example"], seed=i)
                lobby.join_game(session, game.id, other)
                session.expire_all()
                seat = next(s for s in game.seats if s.user_id == user.id)
                cards = game_state(session, game).view(seat.name)["me"]["power_left"]
                seats.append((f"p{i}@bench.example", seat_reply_address(session, seat), cards))
            session.commit()
            db.session.remove()
            db.engine.dispose()
        app = create_app({**env, "PBEM_MAIL_RATE_PER_HOUR": 100_000, "RATELIMIT_ENABLED": False})
        with tempfile.TemporaryDirectory() as folder:
            worker = _Worker(env, Path(folder) / "worker.log")
            worker.wait_ready(app)
            port = free_port()
            server, handler = controller(app, host="127.0.0.1", port=port)
            server.start()
            try:
                raws = []
                for n in range(SEATS + MESSAGES):
                    sender, address, cards = seats[n % SEATS]
                    body = f"card {cards[(n // SEATS) % len(cards)]}"
                    raws.append((sender, address, _mail(sender, address, body, n)))
                # One mail per game first, not timed: each process reads its games' state once
                # and compiles its statements, as a server that has been running for a while.
                _send(port, raws[:SEATS], SECONDS)
                _drain(app, SECONDS * 3)
                start, cpu_before = time.perf_counter(), worker.cpu_seconds()
                sent = _send(port, raws[SEATS:], SECONDS)
                stored_at = time.perf_counter()
                _drain(app, SECONDS * 3)
                done_at, cpu_after = time.perf_counter(), worker.cpu_seconds()
                with app.app_context():
                    statuses = dict(db.session.execute(select(InboundMessage.status, func.count())
                                                       .group_by(InboundMessage.status)).all())
                    db.session.remove()
            finally:
                server.stop()
                handler.close()
                worker.stop()
        processed = statuses.get("processed", 0) - SEATS
        return [
            {"name": "gateway.smtp_store", "value": round(sent / (stored_at - start), 1), "unit": "messages/s",
             "messages": sent, "note": f"SMTP DATA to committed raw row (what the 250 waits for), {CONNECTIONS} "
                                       "SMTP connections, PostgreSQL"},
            {"name": "gateway.smtp_to_orders", "value": round(processed / (done_at - start), 1),
             "unit": "messages/s", "messages": sent, "processed": processed, "statuses": statuses,
             "note": "SMTP receipt to authenticated, de-duplicated, committed orders and a queued reply; "
                     f"{CONNECTIONS} SMTP connections, the Celery worker of docker-compose.yml ({WORKER_CONCURRENCY} "
                     "processes, Redis) processing and advancing, PostgreSQL"},
            # What the figure above says little about on a machine others load too.
            {"name": "gateway.worker_cpu_per_mail", "unit": "ms",
             "value": None if cpu_before is None or cpu_after is None or not processed
             else round((cpu_after - cpu_before) * 1000 / processed, 1),
             "note": "CPU of the Celery worker's processes (processing the mail, and the advance its order "
                     "asks for) over the timed mails, per mail processed; PostgreSQL's not included"},
        ]
    finally:
        if worker is not None:
            worker.stop()
        _purge_redis()
        drop_schema(schema)


if __name__ == "__main__":
    import json
    for row in run():
        print(json.dumps(row))
