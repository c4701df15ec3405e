"""Reports and notices by mail (issue 6), rendered by real `celery worker` processes over Redis
and PostgreSQL and delivered over SMTP to a real sink (tests/gateway's mail catcher)."""
from __future__ import annotations

import random
from collections import Counter
import re
import subprocess
from datetime import timedelta
from email.message import Message
from pathlib import Path
from typing import Any, Callable

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine import get_game
from pbem.app import create_app
from pbem.outbox.models import MailDelivery
from pbem.models import Game, OutboxMessage, ReportJob, now
from pbem.reports import content
from pbem.reports.render import subject as report_subject
from pbem.services import accounts, lobby, play, report_mail
from pbem.tasks import QUEUE, REPORT_QUEUE, producer
from pbem.services.state import game_state, log_lines, record
from pbem.testing import first_legal_order
from service_helpers import make_game
from worker_helpers import drive_by_api, four_player_game, wait_until

REPORT_KIND = re.compile(r"the report of age (\d)|the final report")


@pytest.fixture
def inline_app(stack: Any, app: Flask) -> Flask:
    """One process, no worker: advances and report mails right after the commit; no SMTP,
    so mails stay in the outbox."""
    return create_app({**stack.config, "PBEM_ADVANCE": "inline", "PBEM_REPORT_MAIL": "inline",
                       "PBEM_MAIL_DOMAIN": "pbem.test"})


# ---- reading mail ------------------------------------------------------------------------------

def parts(message: Message) -> dict[str, Any]:
    found: dict[str, Any] = {"types": [], "cids": {}, "pdf": None, "html": None, "text": None}
    for part in message.walk():
        kind = part.get_content_type()
        found["types"].append(kind)
        if part["Content-ID"]:
            found["cids"][part["Content-ID"].strip("<>")] = part.get_payload(decode=True)
        if kind == "application/pdf":
            found["pdf"] = part.get_payload(decode=True)
        elif kind == "text/html":
            found["html"] = part.get_content()
        elif kind == "text/plain" and found["text"] is None:
            found["text"] = part.get_content().replace("\r\n", "\n")
    return found


def hand_lines(text: str) -> list[str]:
    """The reader's own cards, as the mail's plain text lists them."""
    block = text.split("YOUR HAND\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if not line.startswith("  ") or line.startswith("  Power cards") or line.startswith("  Drawn"):
            break
        lines.append(line.strip())
    return lines


def expected_hand(context: dict[str, Any]) -> list[str]:
    return [f"{h['count']} x {h['title']}: {h['help']}" for h in context["hand"]] or ["No prosperity card."]


def pdf_info(pdf: bytes, folder: Path) -> dict[str, str]:
    """What pdfinfo says of a PDF: "Pages", "Page size", ..."""
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in info.splitlines())}


def jobs_of(session: Session, game_id: int) -> list[ReportJob]:
    session.expire_all()
    rows = list(session.scalars(select(ReportJob).where(ReportJob.game_id == game_id).order_by(ReportJob.id)))
    session.rollback()
    return rows


def person_and_bot_game(session: Session, make_user: Any, address: str) -> tuple[Game, Any]:
    ana = make_user(session, address, "Ana")
    game = make_game(session, ana, players=2, bots=("random",), seed=5, title="Duel")
    return game, ana


def play_person(session: Session, game: Game, user: Any, until: Any) -> None:
    """Play the person's seat with first legal orders (advancing inline) until `until(state)`."""
    seat = next(s for s in game.seats if s.user_id == user.id)
    for _ in range(500):
        session.expire_all()
        state = game_state(session, session.get(Game, game.id))
        if until(state):
            return
        mine = [d for d in state.decisions() if d.seat == seat.name]
        assert mine, "the person owes nothing, yet the game waits"
        play.submit_orders(session, seat, first_legal_order(mine[0].private()), channel="web", user_id=user.id)
    raise AssertionError("the game did not get there")


def coexisting(seed: int) -> Callable[[dict[str, Any]], str]:
    """First legal orders, but pawns go anywhere (so players meet) and a won conflict ends in
    coexistence, which draws a prosperity card: hands differ from seat to seat, and a report
    showing the wrong one would be caught."""
    places = random.Random(seed)

    def pick(decision: dict[str, Any]) -> str:
        if decision["kind"] == "turn":
            return f"place {places.choice(decision['options']['place'])}"
        if decision["kind"] == "conflict" and decision["options"]["won"]:
            return f"coexist {decision['options']['won'][0]}"
        return first_legal_order(decision)
    return pick


# ---- the whole game, four people, real workers ----------------------------------------------------

def test_a_four_player_game_mails_every_seat_its_reports_and_notices(client, session, make_user, workers, sink,
                                                                        mail_env, tmp_path):
    workers.start(concurrency=4, **mail_env)
    game_id, headers = four_player_game(session, make_user, tag="r")
    drive_by_api(client, session, game_id, headers, timeout=240, pick=coexisting(seed=1))
    wait_until(lambda: all(j.done_at for j in jobs_of(session, game_id)), 300, "every report job to be done",
               interval=0.2)
    jobs = jobs_of(session, game_id)
    assert sorted(j.round for j in jobs if j.topic == "report") == [1, 2, 3, 4, 5]
    notices = [j for j in jobs if j.topic == "notice"]
    assert notices  # at least the choosing of each age ends with nobody's report superseding it
    game = session.get(Game, game_id)
    full = record(game, log_lines(session, game_id))
    names = {s.name: s.label for s in game.seats}
    seats = {s.name: s.user.primary_address for s in game.seats}
    session.rollback()
    expected = len(jobs)
    held: set[str] = set()  # every hand line any report showed

    for seat_name, address in seats.items():
        mine = wait_until(lambda: len([m for m in sink.to(address) if "Aztlán" in m["Subject"]]) >= expected
                          and [m for m in sink.to(address) if "Aztlán" in m["Subject"]], 120,
                          f"{seat_name}'s {expected} report and notice mails", interval=0.2)
        assert len(mine) == expected  # each job once, none twice
        reports = {}
        for message in mine:
            found = parts(message)
            assert message["Reply-To"].startswith("orders+")
            kind = REPORT_KIND.search(message["Subject"])
            if kind is None:
                assert found["pdf"] is None  # notices have no PDF
                continue
            age = int(kind.group(1) or 5)
            reports[age] = message
            assert f"For {names[seat_name]} (" in found["text"]  # rendered from its reader's own view
            assert found["types"][:3] == ["multipart/mixed", "multipart/related", "multipart/alternative"]
            assert int(pdf_info(found["pdf"], tmp_path)["Pages"]) >= 1
            cids = set(re.findall(r'cid:([A-Za-z0-9._-]+)', found["html"]))
            assert "board" in cids and cids <= set(found["cids"])  # every picture is in the mail
            assert all(png.startswith(b"\x89PNG") for png in found["cids"].values())
            if age < 5:  # its reader's hand, from the record, so nobody else's (all are public at the end)
                context = content.round_report(full, seat_name, age, names=names)
                assert hand_lines(found["text"]) == expected_hand(context)
        assert sorted(reports) == [1, 2, 3, 4, 5]
        held.update(line for m in reports.values() for line in hand_lines(parts(m)["text"]))
        assert "the final report" in reports[5]["Subject"]
        for job in notices:  # each notice names its reader's own hand too
            context = content.phase_notice(full, seat_name, job.round, job.phase, title=game.title, names=names)
            message = next(m for m in mine if m["Subject"].endswith(report_subject(context)))
            assert hand_lines(parts(message)["text"]) == expected_hand(context)
    assert held - {"No prosperity card."}, "nobody ever held a card: the hand checks proved nothing"


# ---- run twice, lost, and one mail per moment ------------------------------------------------------

def test_a_job_run_twice_sends_once_and_a_lost_job_is_redone_by_the_sweep(stack, session, make_user, workers,
                                                                            sink, mail_env, tmp_path):
    game, ana = person_and_bot_game(session, make_user, "ana@example.com")
    ana.paper_size = "Letter"  # her profile's paper size is the attached PDF's
    play_person(session, game, ana, lambda state: len(state.age_scores) >= 1)
    seq = len(log_lines(session, game.id))
    # As an advance would have left them: one job just committed, one whose worker died.
    fresh = ReportJob(game_id=game.id, topic="report", round=1, phase="scoring", seq=seq, attempts=0)
    untouched = now() - report_mail.REDO_AFTER - timedelta(minutes=1)
    lost = ReportJob(game_id=game.id, topic="notice", round=1, phase="conflict", seq=seq, attempts=1,
                     created_at=untouched, tried_at=untouched)
    session.add_all([fresh, lost])
    session.commit()
    workers.start(concurrency=2, **mail_env)
    sender = producer(stack.app)

    def render(job_id: int) -> Any:
        return sender.send_task(report_mail.RENDER_TASK, args=[job_id], queue=REPORT_QUEUE, ignore_result=False)
    # Delivered twice (two worker processes: the runs may overlap; the key's unique index
    # settles it if they do), and once more after the job is done.
    runs = [run.get(timeout=120) for run in [render(fresh.id), render(fresh.id)]]
    assert sum(run.get("sent", 0) for run in runs) == 1 and not any(run.get("failed") for run in runs)
    assert render(fresh.id).get(timeout=60) == {"job": fresh.id, "already": True}
    assert jobs_of(session, game.id)[1].done_at is None  # nobody looks after the lost one...
    assert sender.send_task("pbem.mail_sweep", queue=QUEUE, ignore_result=False).get(timeout=60)["report_jobs"] == 1
    wait_until(lambda: jobs_of(session, game.id)[1].done_at, 120, "the sweep to redo the lost job", interval=0.1)
    queued = [row.subject for row in session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_address == "ana@example.com", OutboxMessage.topic.in_(("report", "notice"))))]
    session.rollback()
    assert len(queued) == 2 and sum("the report of age 1" in subject for subject in queued) == 1
    wait_until(lambda: len(sink.to("ana@example.com")) >= 2, 60, "the report and notice mails")
    assert Counter(m["Subject"] for m in sink.to("ana@example.com")) == Counter(queued)  # each once
    report = next(m for m in sink.to("ana@example.com") if "the report of age 1" in m["Subject"])
    assert "(letter)" in pdf_info(parts(report)["pdf"], tmp_path)["Page size"]


def test_a_run_that_finds_its_mail_queued_just_after_its_check_counts_it_skipped(session, make_user, inline_app,
                                                                                monkeypatch):
    """Two runs of a job: the other commits the seat's mail between this run's check and its
    own send_mail, which then hands back that mail: "skipped", not "sent", and one mail."""
    game, ana = person_and_bot_game(session, make_user, "ana@example.com")
    play_person(session, game, ana, lambda state: len(state.age_scores) >= 1)
    job = ReportJob(game_id=game.id, topic="report", round=1, phase="scoring", seq=len(log_lines(session, game.id)),
                    attempts=0)
    session.add(job)
    session.commit()
    with inline_app.app_context():
        assert report_mail.render_job(session, job.id)["sent"] == 1
        job = session.get(ReportJob, job.id)
        job.done_at, job.attempts = None, 0  # as the other run saw it
        session.commit()
        monkeypatch.setattr(report_mail, "queued", lambda session, key: False)  # both checks came too early
        run = report_mail.render_job(session, job.id)
    assert (run["sent"], run["skipped"]) == (0, 1)
    key = report_mail.mail_key(job, next(s.name for s in game.seats if s.user_id == ana.id))
    assert session.scalar(select(func.count()).select_from(MailDelivery).where(MailDelivery.key == key)) == 1


def _choose_cards(session: Session, make_user: Any, inline_app: Flask, first_wants_reports: bool,
                  first_chooses_last: bool = False) -> tuple[Any, list[OutboxMessage]]:
    """Two people choose their cards; the last choice makes the one who plays first in
    development owe a new decision (whether they chose first, or last and so never stopped
    owing one); the mails that last advance queued for them (report mails on, inline)."""
    ana, bo = make_user(session, "ana@example.com", "Ana"), make_user(session, "bo@example.com", "Bo")
    game = make_game(session, ana, players=2, bots=(), invites=["bo@example.com"], seed=5, title="Duel")
    lobby.join_game(session, game.id, bo)
    session.expire_all()
    game = session.get(Game, game.id)
    state = game_state(session, game)
    by_name = {s.name: s for s in game.seats}
    first = by_name[state.seats[state.turn_order()[0]]]  # Aztlán: the first to develop
    second = next(s for s in game.seats if s is not first)
    if not first_wants_reports:
        accounts.update_profile(session, first.user, display_name="First", time_zone="UTC", notify_turn=True,
                                notify_results=False, notify_invites=True)
    for seat in (second, first) if first_chooses_last else (first, second):
        decision = next(d for d in game_state(session, session.get(Game, game.id)).decisions() if d.seat == seat.name)
        before = session.scalar(select(func.max(OutboxMessage.id))) or 0
        with inline_app.app_context():
            play.submit_orders(session, seat, first_legal_order(decision.private()), channel="web",
                               user_id=seat.user_id)
    rows = list(session.scalars(select(OutboxMessage).where(
        OutboxMessage.id > before, OutboxMessage.to_address == first.user.primary_address)))
    session.rollback()
    return first, rows


def test_a_seat_whose_turn_comes_with_a_notice_gets_one_mail(session, make_user, inline_app):
    _, rows = _choose_cards(session, make_user, inline_app, first_wants_reports=True)
    assert [row.topic for row in rows] == ["notice"]  # not a notice and a turn mail
    notice = rows[0]
    assert notice.subject.startswith("Your turn: ")
    assert "It is your development turn" in notice.body
    with inline_app.app_context():
        from pbem.outbox.delivery import build
        from pbem.outbox.settings import load
        mime = build(session, notice, session.get(MailDelivery, notice.id), load())
        session.rollback()
    types = [part.get_content_type() for part in mime.walk()]
    assert types[:4] == ["multipart/related", "multipart/alternative", "text/plain", "text/html"]
    assert "application/pdf" not in types and "image/png" in types


def test_without_report_mail_the_turn_mail_comes_as_before(session, make_user, inline_app):
    _, rows = _choose_cards(session, make_user, inline_app, first_wants_reports=False)
    assert [row.topic for row in rows] == ["turn"]


@pytest.mark.parametrize("wants_reports, topic", [(True, "notice"), (False, "turn")])
def test_the_last_to_choose_who_develops_first_is_told_it_is_their_turn(session, make_user, inline_app,
                                                                         wants_reports, topic):
    # They owed the card choice and owe the development turn: waiting all along, yet a new decision.
    _, rows = _choose_cards(session, make_user, inline_app, first_wants_reports=wants_reports,
                            first_chooses_last=True)
    assert [row.topic for row in rows] == [topic]
    assert "development turn" in rows[0].body


# ---- a seat whose mail cannot be rendered, and the end of the game ----------------------------------

def _broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
    raise RuntimeError("the renderer is broken")


def _plain(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {"subject": "A rendered report", "text": "The report.", "html": None, "parts": []}


def keyed(session: Session, rows: list[OutboxMessage]) -> list[tuple[str, str | None]]:
    """(topic, idempotency key) of outbox rows."""
    found = [(row.topic, session.get(MailDelivery, row.id).key) for row in rows]
    session.rollback()
    return found


def test_a_turn_told_in_a_notice_that_cannot_be_rendered_comes_as_a_plain_turn_mail(session, make_user, inline_app,
                                                                                    monkeypatch):
    monkeypatch.setattr(report_mail, "_render", _broken)  # inline: nobody renders it again later
    first, rows = _choose_cards(session, make_user, inline_app, first_wants_reports=True)
    seq = len(log_lines(session, first.game_id))
    assert keyed(session, rows) == [("turn", f"turn:{first.game_id}:{seq}:{first.name}")]
    assert all(job.done_at for job in jobs_of(session, first.game_id))


@pytest.mark.parametrize("attempts", [report_mail.MAX_ATTEMPTS - 1, report_mail.MAX_ATTEMPTS])
def test_a_job_that_keeps_failing_or_dying_is_given_up_and_the_turn_it_told_is_mailed(
        session, make_user, inline_app, monkeypatch, attempts):
    # The advance records the notice (telling the first to develop it is their turn), its
    # render is lost; then it has failed, or its worker died (time limit, memory), `attempts` times.
    monkeypatch.setattr(report_mail, "render_job", lambda *args, **kwargs: None)
    first, rows = _choose_cards(session, make_user, inline_app, first_wants_reports=True)
    assert rows == []  # the notice carries the turn
    monkeypatch.undo()
    [job] = jobs_of(session, first.game_id)
    assert job.turn_seats == [first.name]
    session.get(ReportJob, job.id).attempts = attempts
    session.commit()
    monkeypatch.setattr(report_mail, "_render", _broken)
    before = session.scalar(select(func.max(OutboxMessage.id)))
    with inline_app.app_context():
        outcome = report_mail.render_job(session, job.id)
    seats = session.get(Game, first.game_id).seats
    assert sorted(outcome["given_up"]) == sorted(s.name for s in seats)
    address = next(s.user.primary_address for s in seats if s.name == first.name)
    [job] = jobs_of(session, first.game_id)
    assert job.done_at is not None and job.attempts == report_mail.MAX_ATTEMPTS  # a dead job is not run again
    mails = list(session.scalars(select(OutboxMessage).where(OutboxMessage.to_address == address,
                                                             OutboxMessage.id > before)))
    seq = len(log_lines(session, first.game_id))
    assert keyed(session, mails) == [("turn", f"turn:{first.game_id}:{seq}:{first.name}")]


@pytest.mark.parametrize("render, kinds", [(_plain, ["report"]), (_broken, ["result"])])
def test_the_final_report_is_the_game_over_mail_and_falls_back_to_it(session, make_user, inline_app, monkeypatch,
                                                                   render, kinds):
    monkeypatch.setattr(report_mail, "_render", render)  # what is rendered is tested above
    game, ana = person_and_bot_game(session, make_user, "ana@example.com")
    with inline_app.app_context():
        play_person(session, game, ana, lambda state: state.is_over())
    seat_name = next(s.name for s in game.seats if s.user_id == ana.id)
    mails = list(session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_address == "ana@example.com", OutboxMessage.topic.in_(("report", "result")))))
    found = keyed(session, mails)
    end = [kind for kind, key in found if key in (f"report:{game.id}:5:{seat_name}", f"result:{game.id}:{seat_name}")]
    assert end == kinds  # one mail at the end of the game, not two
    assert [kind for kind, _ in found].count("result") == kinds.count("result")


# ---- as of the moment the mail is sent ----------------------------------------------------------------

def _told_notice(session: Session, make_user: Any, moved: bool) -> tuple[Any, int]:
    """Two people chose their cards (report mail off); a notice job of that moment tells the
    first to develop it is their turn, and is rendered late: after they played (`moved`) or not."""
    ana, bo = make_user(session, "ana@example.com", "Ana"), make_user(session, "bo@example.com", "Bo")
    game = make_game(session, ana, players=2, bots=(), invites=["bo@example.com"], seed=5, title="Duel")
    lobby.join_game(session, game.id, bo)
    session.expire_all()
    seats = {s.name: s for s in session.get(Game, game.id).seats}
    for seat in seats.values():
        decision = next(d for d in game_state(session, session.get(Game, game.id)).decisions() if d.seat == seat.name)
        play.submit_orders(session, seat, first_legal_order(decision.private()), channel="web", user_id=seat.user_id)
    state = game_state(session, session.get(Game, game.id))
    assert state.milestones()[-1].phase == "choosing"
    first = seats[state.decisions()[0].seat]
    job = ReportJob(game_id=game.id, topic="notice", round=1, phase="choosing", seq=len(state.order_log()),
                    attempts=0, turn_seats=[first.name])
    session.add(job)
    session.commit()
    if moved:
        decision = state.decisions()[0]
        play.submit_orders(session, first, first_legal_order(decision.private()), channel="web",
                           user_id=first.user_id)
    return first, job.id


def _outbox_to(session: Session, seat: Any, topic: str) -> list[OutboxMessage]:
    rows = list(session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_address == seat.user.primary_address, OutboxMessage.topic == topic)))
    session.rollback()
    return rows


@pytest.mark.parametrize("moved", [False, True])
def test_your_turn_is_told_as_of_the_moment_the_mail_is_rendered(session, make_user, inline_app, moved):
    first, job_id = _told_notice(session, make_user, moved)
    with inline_app.app_context():
        assert report_mail.render_job(session, job_id)["sent"] == 2
    [notice] = _outbox_to(session, first, "notice")
    assert notice.subject.startswith("Your turn: ") is not moved
    assert ("It is your development turn" in notice.body) is not moved
    assert ("Nothing for you to do now" in notice.body) is moved


def test_no_transaction_stays_open_while_a_mail_is_rendered(session, make_user, inline_app, monkeypatch):
    first, job_id = _told_notice(session, make_user, moved=False)
    open_during_render = []

    def render(*args: Any, **kwargs: Any) -> dict[str, Any]:
        open_during_render.append(session.in_transaction())
        return _plain()
    monkeypatch.setattr(report_mail, "_render", render)
    with inline_app.app_context():
        report_mail.render_job(session, job_id)
    assert open_during_render == [False, False]
    assert [row.subject for row in _outbox_to(session, first, "notice")] == ["A rendered report"]


def test_the_sweep_leaves_a_recent_job_alone_and_redoes_an_old_one_once(session, make_user):
    game, _ = person_and_bot_game(session, make_user, "ana@example.com")
    running = now() - timedelta(minutes=3)  # a render may run this long (its task's time limit)
    lost = now() - report_mail.REDO_AFTER - timedelta(minutes=1)
    jobs = [ReportJob(game_id=game.id, topic="notice", round=1, phase=phase, seq=0, attempts=attempts,
                      created_at=created, tried_at=tried)
            for phase, attempts, created, tried in [("choosing", 0, now(), None), ("development", 1, lost, running),
                                                    ("conflict", 1, lost, lost)]]
    session.add_all(jobs)
    session.commit()
    ids = [job.id for job in jobs]
    swept = [[i for i in report_mail.stale_jobs(session) if i in ids] for _ in range(2)]
    assert swept == [[ids[2]], []]  # the second sweep waits REDO_AFTER again


# ---- a game without a presentation of its own -----------------------------------------------------------

def test_a_game_without_a_presentation_mails_plain_reports_and_its_final_report(session, make_user, inline_app):
    """Duel (the test game) registers no presentation: its players get the plain report of
    each round with its PDF, a notice after each unscored phase no report supersedes, and
    the final report instead of the game-over mail; which is which comes from the engine's
    milestones, not from phase names."""
    ana = make_user(session, "ana@example.com", "Ana")
    # Results mail only: the turn mail's news of moves (pbem/services/moves_mail.py) is not this test's.
    accounts.update_profile(session, ana, display_name="Ana", time_zone="UTC", notify_turn=False,
                            notify_results=True, notify_invites=True)
    game = make_game(session, ana, game="duel", players=2, bots=("random",), seed=5, title="Bids")
    seat = next(s for s in game.seats if s.user_id == ana.id)
    bot = get_game("duel").make_bot("minimal")
    with inline_app.app_context():
        for _ in range(50):
            session.expire_all()
            state = game_state(session, session.get(Game, game.id))
            if state.is_over():
                break
            me = state.seats.index(seat.name)
            assert me in state.waiting(), "the person owes nothing, yet the game waits"
            play.submit_orders(session, seat, state.order_text(bot.order(state, me)), channel="web", user_id=ana.id)
    assert state.is_over()
    rows = list(session.scalars(select(OutboxMessage).where(
        OutboxMessage.to_address == "ana@example.com", OutboxMessage.topic.in_(("report", "notice", "result")))
        .order_by(OutboxMessage.id)))
    found = keyed(session, rows)
    reports = [row for row, (kind, _) in zip(rows, found) if kind == "report"]
    assert [key for kind, key in found if kind == "report"] == [f"report:{game.id}:{n}:{seat.name}" for n in (1, 2, 3)]
    assert "result" not in [kind for kind, _ in found]  # the final report is the game-over mail
    title = get_game("duel").title
    # A round's report also tells that the next bid is owed, when it is: a bid with one possible
    # answer the service gives itself (docs/deadlines.md, "Forced answers"), and nobody is told.
    told = [seat.name in (job.turn_seats or []) for job in session.scalars(
        select(ReportJob).where(ReportJob.game_id == game.id, ReportJob.topic == "report").order_by(ReportJob.id))]
    session.rollback()
    assert len(told) == 3 and not told[-1] and any(told)
    assert [row.subject for row in reports] == [
        f"{'Your turn: ' if told[n - 1] else ''}{title} · Bids: the report of round {n}" for n in (1, 2)] + [
        f"{title} · Bids: the final report"]
    notices = [row for row, (kind, _) in zip(rows, found) if kind == "notice"]
    assert notices and all(row.subject.endswith("the bidding phase is over") for row in notices)
    assert "RANKING" in reports[-1].body and "SCORES OF ROUND 3" in reports[-1].body
    with inline_app.app_context():
        from pbem.outbox.delivery import build
        from pbem.outbox.settings import load
        mime = build(session, reports[-1], session.get(MailDelivery, reports[-1].id), load())
        session.rollback()
    pdfs = [part for part in mime.walk() if part.get_content_type() == "application/pdf"]
    assert [part.get_filename() for part in pdfs] == [f"duel-final-report-{seat.name}.pdf"]
    assert pdfs[0].get_payload(decode=True).startswith(b"%PDF-")
