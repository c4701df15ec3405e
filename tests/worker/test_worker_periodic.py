"""Beat's periodic jobs as production runs them: Celery tasks in a real worker (never eager),
with the app's own session (Flask-SQLAlchemy's `db.session`), over Redis and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update

from pbem.models import Game, GameEvent, OrderLogEntry, Seat
from pbem.services.dispatch import MAIL_SWEEP_TASK, TICK_TASK
from pbem.tasks import QUEUE, producer
from service_helpers import make_game
from worker_helpers import queue_idle, wait_until

DUE_GAMES = 5


def due_games(session, make_user, count: int) -> list[int]:
    """`count` started games, each with one person (who has not played) and two bots, whose
    deadline passed a minute ago."""
    ids = []
    for number in range(count):
        person = make_user(session, f"late{number}@example.com", f"Late {number}")
        ids.append(make_game(session, person, seed=number + 1).id)
    session.execute(update(Game).where(Game.id.in_(ids))
                    .values(deadline_at=datetime.now(timezone.utc) - timedelta(minutes=1)))
    session.commit()
    return ids


def defaulted(session, ids: list[int]) -> set[int]:
    """The games in which the default played for the person who missed the deadline."""
    found = set(session.scalars(select(OrderLogEntry.game_id).where(OrderLogEntry.game_id.in_(ids),
                                                                     OrderLogEntry.by == "default")))
    session.rollback()
    return found


def test_beats_tick_handles_every_due_game_in_one_run(session, workers, make_user, stack):
    ids = due_games(session, make_user, DUE_GAMES)
    workers.start(concurrency=2, beat=True, PBEM_TICK_SECONDS="1")
    wait_until(lambda: defaulted(session, ids) == set(ids), 60, f"the tick to default all {DUE_GAMES} games")
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 30, "the queue to drain")
    # One tick did it all: every default carries the time of the same tick.
    ticks = set(session.scalars(select(GameEvent.at).where(GameEvent.game_id.in_(ids), GameEvent.type == "default")))
    assert len(ticks) == 1, sorted(ticks)
    missed = session.scalars(select(Seat.missed_total).where(Seat.game_id.in_(ids), Seat.user_id.is_not(None)))
    assert sorted(missed) == [1] * DUE_GAMES  # each person charged once, not once per tick
    session.rollback()


def test_one_run_of_the_tick_task_handles_all_due_games(session, workers, make_user, stack):
    """Not beat's repetition: a single run of the task reaches every due game."""
    ids = due_games(session, make_user, DUE_GAMES)
    workers.start(concurrency=1)
    report = producer(stack.app).send_task(TICK_TASK, queue=QUEUE, ignore_result=False).get(timeout=120)
    assert "deadlines_error" not in report, report
    assert sorted(game for game, _ in report["deadlines"]["defaulted"]) == ids
    assert report["deadlines"]["failed"] == []
    assert defaulted(session, ids) == set(ids)


def test_the_mail_sweep_task_processes_mail_whose_processing_was_lost(session, workers, make_user, stack):
    """A mail stored by the gateway whose processing task never arrived: beat's sweep, as a
    task in a worker, has it carried out."""
    from email.message import EmailMessage

    from pbem.mail import store
    from pbem.mail.models import InboundMessage
    from pbem.outbox.seat_tokens import seat_reply_address
    from pbem.outbox.settings import load
    from pbem.services.state import game_state

    person = make_user(session, "ana@example.org", "Ana")
    game = make_game(session, person, seed=5)
    seat = next(s for s in game.seats if s.user_id == person.id)
    order = f"card {game_state(session, game).view(seat.name)['me']['power_left'][0]}"
    settings = load({**stack.config, "PBEM_MAIL_DOMAIN": "pbem.test"})
    mail = EmailMessage()
    mail["From"], mail["To"] = "ana@example.org", seat_reply_address(session, seat, settings)
    mail["Subject"], mail["Message-ID"] = "card", "<sweep-test@example.org>"
    mail.set_content(order + "\n")
    inbound_id = store.receive(session, bytes(mail), channel="smtp", envelope_from="ana@example.org",
                               envelope_to=[mail["To"]], settings=settings)
    session.commit()  # stored; the task that should process it is lost
    workers.start(concurrency=1, PBEM_MAIL_DOMAIN="pbem.test")
    report = producer(stack.app).send_task(MAIL_SWEEP_TASK, queue=QUEUE, ignore_result=False).get(timeout=60)
    assert report["inbound"] == 1

    def processed() -> str:
        status = session.scalar(select(InboundMessage.status).where(InboundMessage.id == inbound_id))
        session.rollback()
        return status if status != InboundMessage.STORED else ""
    assert wait_until(processed, 60, "the swept mail to be processed") == "processed"
    wait_until(lambda: any(line == order for line in logged(session, game.id)), 60, "the mailed order")


def logged(session, game_id: int) -> list[str]:
    lines = list(session.scalars(select(OrderLogEntry.text).where(OrderLogEntry.game_id == game_id)))
    session.rollback()
    return lines


def test_a_tick_out_of_time_queues_the_next_which_goes_on_once(session, workers, make_user, stack):
    """No time budget at all (PBEM_TICK_BUDGET_SECONDS=0): each run of the task takes one due
    game and queues the next run itself (no beat here), until every game is done, each once."""
    ids = due_games(session, make_user, 3)
    workers.start(concurrency=1, PBEM_TICK_BUDGET_SECONDS="0")
    report = producer(stack.app).send_task(TICK_TASK, queue=QUEUE, ignore_result=False).get(timeout=120)
    assert report["deadlines"]["more"] is True and len(report["deadlines"]["defaulted"]) == 1
    wait_until(lambda: defaulted(session, ids) == set(ids), 60, "the queued ticks to default the other games")
    wait_until(lambda: queue_idle(stack.redis, stack.prefix), 30, "the queue to drain")
    ticks = set(session.scalars(select(GameEvent.at).where(GameEvent.game_id.in_(ids), GameEvent.type == "default")))
    assert len(ticks) == 3  # three runs of the task, one game each
    missed = session.scalars(select(Seat.missed_total).where(Seat.game_id.in_(ids), Seat.user_id.is_not(None)))
    assert sorted(missed) == [1] * 3  # each person charged once
    session.rollback()
