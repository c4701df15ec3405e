"""What one authenticated order mail costs the database, counted on the app's own engine: at
most 2 commits and 17 statements with the advance its order asks for (in the mail's own
transaction), a number that does not grow with the seats or the length of the game.  The app runs as in production (PostgreSQL, advances and mail processing queued for
workers); the mail goes through `gateway.process`, what the worker task `pbem.process_inbound`
runs.  A cold state cache (a worker that never saw the game) reads the order log once."""
from __future__ import annotations

import os
from typing import Any, Iterator

import pytest
from flask import Flask
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from engine.aztlan.bots import make_bot
from databases import app_config, drop_postgres_schema, postgres_schema_url, worker
from gateway_helpers import DOMAIN, compose
from pbem.app import create_app
from pbem.db import upgrade
from pbem.extensions import db
from pbem.mail import gateway, store
from pbem.mail.models import InboundMessage
from pbem.models import Game, OrderLogEntry, OutboxMessage, PendingOrder
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services import play
from pbem.services.state import clear_cache, game_state
from service_helpers import make_game, make_user

MOST_COMMITS = 2
# With the advance the order asks for (its writes: the order log, the orders used, the seats,
# the game, then the turn mails); the game locked in a statement of its own
# (test_lock_reads.py); commits not counted; the pool's connection checks are not statements here.
MOST_STATEMENTS = 17
LATE_ORDERS = 40  # Ana's orders before the late mail: the fourth age or later


@pytest.fixture(scope="module")
def production_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    schema = f"pbem_budget_{worker()}_{os.getpid()}"
    url = postgres_schema_url(schema)
    upgrade(url)
    app = create_app(app_config(url, PBEM_MAIL_DOMAIN=DOMAIN, PBEM_ADVANCE="queue",
                                        PBEM_MAIL_PROCESS="queue",
                                        PBEM_QUEUE_DIR=str(tmp_path_factory.mktemp("queue"))))
    yield app
    with app.app_context():
        db.engine.dispose()
    drop_postgres_schema(schema)


class Counter:
    """Statements and commits on the app's engine while counting."""

    def __init__(self, engine: Any):
        self.statements: list[str] = []
        self.commits = 0
        self.on = False
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if self.on:
            self.statements.append(" ".join(statement.split())[:90])

    def _commit(self, conn: Any) -> None:
        self.commits += self.on


def _ana_owes(session: Session, game_id: int, seat: str, step: int) -> str:
    """A legal order for what Ana's seat owes now, in order text."""
    game = session.get(Game, game_id)
    state = game_state(session, game)
    assert seat in [d.seat for d in state.decisions(options=False)], "the game waits for Ana"
    return state.order_text(make_bot("heuristic", f"budget:{step}").order(state, state.seats.index(seat)))


def _cost(app: Flask, players: int, late: bool, name: str = "ana") -> tuple[int, list[str], dict[str, Any]]:
    """Commits and statements of processing one order mail of Ana's, in a game of `players`
    (Ana and heuristic bots), at its start or after LATE_ORDERS of her orders."""
    ana_address = f"{name}{players}{'late' if late else 'early'}@example.org"  # a game and a person of its own
    with app.app_context():
        session = db.session()
        ana = make_user(session, ana_address, "Ana")
        game = make_game(session, ana, players=players, bots=("heuristic",) * (players - 1), seed=players)
        seat = next(s for s in game.seats if s.user_id == ana.id)
        game_id, seat_name = game.id, seat.name
        address = seat_reply_address(session, seat, load(app.config))
        session.commit()
        app.config["PBEM_ADVANCE"] = "inline"  # the bots answer at once while the game is set up
        try:
            for step in range(LATE_ORDERS if late else 0):
                play.submit_orders(session, session.get(type(seat), seat.id),
                                   _ana_owes(session, game_id, seat_name, step), channel="web")
                session.expire_all()
        finally:
            app.config["PBEM_ADVANCE"] = "queue"
        order = _ana_owes(session, game_id, seat_name, -1)
        raw, _ = compose(ana_address, address, f"{order}\n\nThanks!\n-- \nAna\n")
        inbound_id = store.receive(session, raw, channel="smtp", envelope_from=ana_address, envelope_to=[address])
        logged = session.scalar(select(func.coalesce(func.max(OrderLogEntry.seq), 0)).where(OrderLogEntry.game_id == game_id))
        db.session.remove()
        clear_cache()  # a worker that never read this game
        counter = Counter(db.engine)
        counter.on = True
        try:
            status = gateway.process(db.session(), inbound_id)
        finally:
            counter.on = False
            db.session.remove()
        session = db.session()
        row = session.get(InboundMessage, inbound_id)
        facts = {"status": status, "row": (row.status, row.reason, row.user_id is not None, row.dedup_key is not None),
                 "pending": list(session.scalars(select(PendingOrder.text).where(PendingOrder.game_id == game_id,
                                                                                 PendingOrder.seat == seat_name))),
                 "order": order,
                 "logged": list(session.scalars(select(OrderLogEntry.text).where(
                     OrderLogEntry.game_id == game_id, OrderLogEntry.seat == seat_name, OrderLogEntry.seq > logged))),
                 "replies": list(session.scalars(select(OutboxMessage.body).where(OutboxMessage.topic == "reply",
                                                                             OutboxMessage.to_address == ana_address)))}
        db.session.remove()
    return counter.commits, counter.statements, facts


@pytest.fixture(scope="module")
def early_two(production_app: Flask) -> tuple[int, list[str], dict[str, Any]]:
    return _cost(production_app, 2, late=False, name="first")


@pytest.mark.parametrize("players,late", [(2, False), (4, False), (2, True), (4, True)])
def test_an_order_mail_takes_at_most_two_commits_and_a_bounded_number_of_statements(
        production_app: Flask, early_two: tuple[int, list[str], dict[str, Any]], players: int, late: bool) -> None:
    commits, statements, facts = _cost(production_app, players, late)
    assert facts["status"] == "processed" and facts["row"] == ("processed", "ok", True, True), facts
    # The bots answer at once: the advance that went with the order (in the mail's own
    # transaction, no task of its own) applied it.
    assert facts["pending"] == [] and facts["logged"][0] == facts["order"], facts
    [reply] = facts["replies"]
    assert "\n\nAccepted for Ana " in reply and f"    {facts['order']}\n" in reply
    assert commits <= MOST_COMMITS, f"{commits} commits"
    assert len(statements) <= MOST_STATEMENTS, "\n".join([f"{len(statements)} statements:", *statements])
    # Most mails take 12; an order that completes a phase or ends the game also reads what its
    # reports, result mails and league need.
    reference = early_two[1]
    assert len(reference) == 12, "\n".join(reference)
