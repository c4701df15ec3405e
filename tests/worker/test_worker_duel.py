"""One whole game of Duel, the test game with no presentation of its own, between two people
and a bot, advanced only by real `celery worker` processes (PBEM_ADVANCE=queue, no eager mode):
it proves the seam a second game plugs into on every channel at once.

The people's orders arrive by the three channels in turn: the web's plain decision form (a
signed-in player), the JSON API (a token) and mail to the seat's reply address (the SMTP
gateway stores it and hands it to `pbem.process_inbound` in the worker, as in production).
The worker advances the game after each complete set of decisions (both secret bids, then
each pick in turn), renders the notices and reports (PBEM_REPORT_MAIL=queue) and delivers
every mail over SMTP to a real sink."""
from __future__ import annotations

import html
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from email.message import Message
from typing import Any, Iterator

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine import get_game
from engine.records import replay
from gateway_helpers import Sink, body, compose, send
from pbem.mail.models import InboundMessage
from pbem.models import Game, OrderLogEntry, OutboxMessage, ReportJob
from pbem.outbox.models import MailDelivery
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services import lobby
from pbem.services.state import log_lines, record
from service_helpers import forms, make_game, web_sign_in
from worker_helpers import decision_of, queue_idle, token_headers, wait_until

DOMAIN = "pbem.test"
TITLE = "Duel night"
ROUNDS = 3  # Duel's default
CHANNELS = ("web", "api", "mail")
# Who bids first in each round, and each person's bid per round.  A first bid, the one kept
# secret while the other person is mailed, is never a bid revealed in an earlier round, so
# finding "bid N" in a mail of that moment can only be a leak (the bot bids 1 every round).
FIRST = ("Ana", "Bo", "Ana")
BIDS = {"Ana": (4, 1, 5), "Bo": (2, 3, 2)}
ASK = "STATUS\nBOARD\nHISTORY\nHAND"  # what a person may ask by mail while a bid is pending


@dataclass
class Person:
    name: str
    address: str
    seat: str
    web: Any  # a test client signed in as this person
    api: dict[str, str]  # API token headers
    reply_to: str  # the seat's reply address
    channels: Iterator[str]  # the channel of each next order


# ---- the game and its people ---------------------------------------------------------------------

def duel(app: Flask, session: Session, make_user: Any, client: Any) -> tuple[int, dict[str, Person], str]:
    """A started game of Ana, Bo and a bot that bids least; its id, the people and the bot's seat."""
    users = {name: make_user(session, f"{name.lower()}@example.org", name) for name in BIDS}
    game = make_game(session, users["Ana"], game="duel", players=3, bots=("minimal",), invites=["bo@example.org"],
                     seed=21, title=TITLE)
    lobby.join_game(session, game.id, users["Bo"])
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.status == Game.ACTIVE
    people = {}
    for offset, (name, user) in enumerate(users.items()):
        seat = next(s for s in game.seats if s.user_id == user.id)
        web = client if name == "Ana" else app.test_client()
        web_sign_in(web, app, user.primary_address)
        people[name] = Person(name, user.primary_address, seat.name, web, token_headers(session, user),
                              seat_reply_address(session, seat, load({**app.config, "PBEM_MAIL_DOMAIN": DOMAIN})),
                              itertools.islice(itertools.cycle(CHANNELS), offset, None))
        session.commit()
    bot = next(s.name for s in game.seats if s.bot)
    session.rollback()
    return game.id, people, bot


def owed(person: Person, game_id: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The person's API view and the decision they owe and have not sent yet (None: none)."""
    return decision_of(person.web, game_id, person.api)


def owes(person: Person, game_id: int, kind: str, number: int) -> bool:
    seen, decision = owed(person, game_id)
    return seen["view"]["round"] == number and decision is not None and decision["kind"] == kind


def next_pick(people: dict[str, Person], game_id: int, number: int) -> tuple[Person, int] | str | None:
    """Who picks next in round `number` and the best token left; "done" once the round is
    over; None while the worker has not got there."""
    for person in people.values():
        seen, decision = owed(person, game_id)
        if seen["game"]["status"] == Game.FINISHED or seen["view"]["round"] > number:
            return "done"
        if decision is not None and decision["kind"] == "pick":
            return person, max(decision["options"]["tokens"])
    return None


# ---- the three channels --------------------------------------------------------------------------

def mail(gateway: Any, sink: Sink, session: Session, person: Person, text: str) -> str:
    """Mail `text` to the person's seat through the gateway; the worker's answer, once sent."""
    raw, message_id = compose(person.address, person.reply_to, text)
    send(gateway.port, raw, person.address, person.reply_to)
    assert gateway.handler.wait_idle(30)  # stored and handed to the worker

    def processed() -> InboundMessage | None:
        session.expire_all()
        row = session.scalar(select(InboundMessage).where(InboundMessage.message_id == message_id,
                                                          InboundMessage.status != InboundMessage.STORED))
        session.rollback()
        return row
    row = wait_until(processed, 60, f"the worker to carry out {person.name}'s mail")
    [reply] = wait_until(lambda: sink.replies_to(message_id), 60, f"the answer to {person.name}'s mail")
    assert (row.channel, row.status, row.reason) == ("smtp", "processed", "ok"), body(reply)
    return body(reply)


def order(gateway: Any, sink: Sink, session: Session, game_id: int, person: Person, text: str) -> str:
    """Send one order by the person's next channel; it is acknowledged as queued for the
    worker, never applied by the process that took it.  The channel used."""
    channel = next(person.channels)
    if channel == "web":
        [form] = [f for f in forms(person.web.get(f"/games/{game_id}").data)
                  if "decision" in f.attrs.get("class", "")]
        assert form.attrs["data-kind"] == text.split()[0] and form.names() == ["csrf_token", "kind", "orders"]
        page = person.web.post(form.action, data=form.data(orders=text), follow_redirects=True)
        assert page.status_code == 200 and f"Accepted: {text}. The game applies it" in page.get_data(as_text=True)
    elif channel == "api":
        answer = person.web.post(f"/api/games/{game_id}/orders", headers=person.api, json={"orders": text})
        assert answer.status_code == 201 and not answer.json["applied"], answer.json
    else:
        answer = mail(gateway, sink, session, person, text)
        assert answer.startswith(f"Accepted for {person.name} ({person.seat}) in game {game_id}"), answer
        # Applied at once by the mail's worker if nothing else waits (play.submit_orders(within=True)).
        assert f"    {text}\n" in answer, answer
    return channel


# ---- reading what was sent -----------------------------------------------------------------------

def last_outbox_id(session: Session) -> int:
    session.expire_all()
    found = session.scalar(select(func.max(OutboxMessage.id))) or 0
    session.rollback()
    return int(found)


def mailed_between(session: Session, address: str, low: int, high: int) -> list[tuple[str, str]]:
    """(text, HTML as text) of the mails queued for `address` with an id in (low, high]."""
    rows = session.execute(select(OutboxMessage.body, MailDelivery.html)
                           .outerjoin(MailDelivery, MailDelivery.outbox_id == OutboxMessage.id)
                           .where(OutboxMessage.to_address == address, OutboxMessage.id > low,
                                  OutboxMessage.id <= high)).all()
    session.rollback()
    return [(text, html.unescape(re.sub(r"<[^>]+>", " ", page or ""))) for text, page in rows]


def telling(coins: int) -> re.Pattern[str]:
    """A bid of `coins` as mails write bids ("bid 4", "bid: 4")."""
    return re.compile(rf"\bbid\W{{0,3}}{coins}\b")


def parts(message: Message) -> dict[str, Any]:
    found: dict[str, Any] = {"types": [], "pdf": None, "pdf_name": None, "html": None, "text": None}
    for part in message.walk():
        kind = part.get_content_type()
        found["types"].append(kind)
        if kind == "application/pdf":
            found["pdf"], found["pdf_name"] = part.get_payload(decode=True), part.get_filename()
        elif kind == "text/html":
            found["html"] = part.get_content()
        elif kind == "text/plain" and found["text"] is None:
            found["text"] = part.get_content().replace("\r\n", "\n")
    return found


def reports_and_notices(sink: Sink, person: Person) -> list[Message]:
    """The reports and notices of the game the sink received for the person."""
    return [m for m in sink.to(person.address)
            if TITLE in m["Subject"] and re.search(r"report of|final report|phase is over", m["Subject"])]


def jobs_of(session: Session, game_id: int) -> list[ReportJob]:
    session.expire_all()
    rows = list(session.scalars(select(ReportJob).where(ReportJob.game_id == game_id).order_by(ReportJob.id)))
    session.rollback()
    return rows


# ---- the game ----------------------------------------------------------------------------------------

def test_a_whole_duel_by_web_api_and_mail_advanced_by_a_real_worker(app, client, session, make_user, workers,
                                                                    stack, sink, mail_env, gateway):
    worker = workers.start(concurrency=3, **mail_env)
    game_id, people, bot = duel(app, session, make_user, client)
    submitted: list[tuple[str, str]] = []  # (seat, order) of everything the people sent
    used: Counter[str] = Counter()
    secrets = []  # (round, first bidder, their bid, the other person, outbox ids while it was pending)

    def send_order(person: Person, text: str) -> None:
        used[order(gateway, sink, session, game_id, person, text)] += 1
        submitted.append((person.seat, text))

    for number in range(1, ROUNDS + 1):
        wait_until(lambda: all(owes(p, game_id, "bid", number) for p in people.values()), 120,
                   f"round {number}'s bids to be owed")
        first = people[FIRST[number - 1]]
        second = next(p for p in people.values() if p is not first)
        coins = BIDS[first.name][number - 1]
        low = last_outbox_id(session)
        send_order(first, f"bid {coins}")
        # While the first bid is pending the other person asks what stands, by mail: the
        # answer says the game waits for them alone, not what the first bid is.
        answer = mail(gateway, sink, session, second, ASK)
        assert f"round {number}, bidding.\nWaiting for: you (bid for this round's tokens)." in answer, answer
        secrets.append((number, first, coins, second, low, last_outbox_id(session)))
        send_order(second, f"bid {BIDS[second.name][number - 1]}")
        while (step := wait_until(lambda: next_pick(people, game_id, number), 120,
                                  f"the next pick of round {number}")) != "done":
            person, token = step
            send_order(person, f"pick {token}")

    # The game is over, advanced by the worker alone.
    session.expire_all()
    game = session.get(Game, game_id)
    assert game.status == Game.FINISHED
    # Every order is in the log exactly once, the bot's beside them, and the log replays to
    # the stored result.
    log = session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.text, OrderLogEntry.by)
                          .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq)).all()
    assert [row.seq for row in log] == list(range(1, len(log) + 1))
    # Each round's three bids were applied together, before its picks.
    assert [row.text.split()[0] for row in log] == (["bid"] * 3 + ["pick"] * 3) * ROUNDS
    assert Counter((row.seat, row.text) for row in log if row.by == "player") == Counter(submitted)
    bots = [row.text.split()[0] for row in log if row.by not in ("player", "forced")]
    assert {row.seat for row in log if row.by not in ("player", "forced")} == {bot} and bots == ["bid", "pick"] * ROUNDS
    # A pick with one token value left is the service's to answer (docs/deadlines.md, "Forced
    # answers"): a person's seat, never the bot's; every other order came by a channel, in turn.
    forced = [row for row in log if row.by == "forced"]
    assert {row.seat for row in forced} <= {p.seat for p in people.values()}
    assert all(row.text.startswith("pick ") for row in forced)
    assert len(log) == len(submitted) + len(forced) + 2 * ROUNDS == 6 * ROUNDS
    assert sum(used.values()) == len(submitted) and set(used) == {"web", "api", "mail"}
    assert max(used.values()) - min(used.values()) <= 1  # the channels took turns
    assert replay(record(game, log_lines(session, game_id))).result().to_json() == game.result
    session.rollback()

    # The worker rendered a notice after each round's bidding and a report of each round (the
    # last one the final report), and mailed each person every one of them once.
    wait_until(lambda: all(job.done_at for job in jobs_of(session, game_id)), 240, "every report job to be done",
               interval=0.2)
    jobs = jobs_of(session, game_id)
    assert sorted((j.topic, j.round, j.phase) for j in jobs) == sorted(
        [(ReportJob.NOTICE, n, "bidding") for n in range(1, ROUNDS + 1)]
        + [(ReportJob.REPORT, n, "picking") for n in range(1, ROUNDS + 1)])
    assert "pbem.render_reports" in worker.log()
    for person in people.values():
        wait_until(lambda: len(reports_and_notices(sink, person)) >= 2 * ROUNDS, 120,
                   f"{person.name}'s reports and notices", interval=0.2)
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 60, "the queue to drain")  # nothing more to come
    game_title = get_game("duel").title
    reports_of = {}
    for person in people.values():
        mine = reports_and_notices(sink, person)
        assert len(mine) == 2 * ROUNDS  # each once
        reports, notices = {}, []
        for message in mine:
            assert message["Subject"].startswith(("Your turn: ", game_title))
            assert message["Reply-To"] == person.reply_to
            found = parts(message)
            assert found["html"] and found["text"] and f"For {person.name} (" in found["text"]
            kind = re.search(r"the report of round (\d)|the final report", message["Subject"])
            if kind is None:
                assert message["Subject"].endswith("the bidding phase is over") and found["pdf"] is None
                notices.append(message)
                continue
            number = int(kind.group(1) or ROUNDS)
            reports[number] = found
            assert found["pdf"].startswith(b"%PDF-")
            assert found["pdf_name"] == (f"duel-final-report-{person.seat}.pdf" if number == ROUNDS
                                         else f"duel-round-{number}-report-{person.seat}.pdf")
            assert f"SCORES OF ROUND {number}" in found["text"]
        assert sorted(reports) == list(range(1, ROUNDS + 1)) and len(notices) == ROUNDS
        assert "THE FINAL REPORT" in reports[ROUNDS]["text"] and "RANKING" in reports[ROUNDS]["text"]
        reports_of[person.name] = reports

    # No mail queued for the other person while a first bid was pending tells that bid; the
    # round's report, once it is revealed, does (so the check would catch it).
    for number, first, coins, second, low, high in secrets:
        pending = mailed_between(session, second.address, low, high)
        assert pending, "nothing was mailed while the bid was pending: the check proved nothing"
        for text, page in pending:
            assert not telling(coins).search(text) and not telling(coins).search(page), (number, text)
        report = reports_of[second.name][number]["text"]
        assert re.search(rf"{first.name} \({first.seat}\): .*\bbid {coins}\b", report, re.IGNORECASE), report
        assert telling(coins).search(html.unescape(re.sub(r"<[^>]+>", " ", reports_of[second.name][number]["html"])))

    # The game page shows each person the result, and nothing left to decide.
    for person in people.values():
        page = person.web.get(f"/games/{game_id}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200 and "Result" in text
        assert re.search(r"<strong>[^<]+</strong> wins\.|First place is shared\.", text)
        assert not [f for f in forms(text) if "decision" in f.attrs.get("class", "")]
