"""The SMTP gateway processes different games' mails side by side (one lane per game) and a
seat's mails in order of arrival, on PostgreSQL (SQLite has one writer: one lane there).  A
game is held busy by another transaction's lock on its row, as a long advance would hold it."""
from __future__ import annotations

import time
from typing import Any, Callable, Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from gateway_helpers import compose, send, seat_address
from pbem.mail import store
from pbem.mail.models import InboundMessage
from pbem.mail.smtpd import PROCESS_LANES
from pbem.models import Game, OutboxMessage, PendingOrder
from pbem.services.state import game_state
from seat_game import ANA, ana_and_bo_game
from service_helpers import make_game, make_user

CY = "cy@example.org"


@pytest.fixture
def postgresql(session: Session) -> None:
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: one lane processes every game's mail")


def _status(session: Session, inbound_id: int) -> str:
    session.expire_all()
    status = session.scalar(select(InboundMessage.status).where(InboundMessage.id == inbound_id))
    session.rollback()
    return status


def _stored_ids(session: Session) -> list[int]:
    session.expire_all()
    ids = list(session.scalars(select(InboundMessage.id).order_by(InboundMessage.id)))
    session.rollback()
    return ids


def _until(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    """Wait for a condition another thread brings about (checked every 10 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.01)


@pytest.fixture
def held(session: Session) -> Iterator[Callable[[int], None]]:
    """hold(game_id): another transaction locks the game's row until the test ends or
    `hold(0)` lets it go; the gateway's handler for that game waits meanwhile."""
    other = Session(session.get_bind())

    def hold(game_id: int) -> None:
        if game_id:
            other.execute(select(Game.id).where(Game.id == game_id).with_for_update())
        else:
            other.rollback()

    yield hold
    other.rollback()
    other.close()


def test_a_busy_game_does_not_hold_up_another_games_mail(app: Any, session: Session, gateway: Any, postgresql: None,
                                                       held: Callable[[int], None]) -> None:
    ana_table = ana_and_bo_game(session, app.config)
    cy = make_user(session, CY, "Cy")
    other_game = make_game(session, cy, players=3, bots=("heuristic", "random"), seed=7)
    cy_address = seat_address(session, app.config, other_game, cy.id)
    cy_seat = next(s.name for s in other_game.seats if s.user_id == cy.id)
    cy_card = game_state(session, other_game).view(cy_seat)["me"]["power_left"][0]
    assert ana_table["game_id"] % PROCESS_LANES != other_game.id % PROCESS_LANES, "two lanes"
    held(ana_table["game_id"])
    ana_raw, _ = compose(ANA, ana_table["address"], ana_table["order"])
    send(gateway.port, ana_raw, ANA, ana_table["address"])
    [ana_mail] = _stored_ids(session)
    cy_raw, _ = compose(CY, cy_address, f"card {cy_card}")
    send(gateway.port, cy_raw, CY, cy_address)
    [cy_mail] = [i for i in _stored_ids(session) if i != ana_mail]
    _until(lambda: _status(session, cy_mail) == "processed", "Cy's mail, in the game nobody holds")
    assert _status(session, ana_mail) == "stored", "Ana's game is still held"
    held(0)
    assert gateway.handler.wait_idle(30)
    assert _status(session, ana_mail) == "processed"


def test_a_seats_mails_sent_while_its_game_is_busy_act_in_order(app: Any, session: Session, gateway: Any,
                                                               postgresql: None, held: Callable[[int], None]) -> None:
    """The correction, stored while the original waits for the game, follows it: the card
    chosen last is the one pending, and each mail is processed once, with one reply."""
    table = ana_and_bo_game(session, app.config)
    first_card, second_card = table["cards"]
    held(table["game_id"])
    for card in (first_card, second_card):
        raw, _ = compose(ANA, table["address"], f"card {card}")
        send(gateway.port, raw, ANA, table["address"])
    assert len(_stored_ids(session)) == 2
    held(0)
    assert gateway.handler.wait_idle(30)
    assert [_status(session, i) for i in _stored_ids(session)] == ["processed", "processed"]
    session.expire_all()
    assert list(session.scalars(select(PendingOrder.text).where(PendingOrder.seat == table["seat"]))) \
        == [f"card {second_card}"]
    replies = list(session.scalars(select(OutboxMessage.body).where(OutboxMessage.to_address == ANA,
                                                                    OutboxMessage.topic == "reply")
                                   .order_by(OutboxMessage.id)))
    assert len(replies) == 2 and f"card {first_card}" in replies[0] and f"card {second_card}" in replies[1]


def test_mail_stored_before_a_restart_is_processed_on_its_games_lane(app: Any, session: Session, gateway: Any,
                                                                    postgresql: None) -> None:
    """Stored, acknowledged, then the server stopped before processing it: `recover` finds
    its game from the token stored with it."""
    table = ana_and_bo_game(session, app.config)
    raw, _ = compose(ANA, table["address"], table["order"])
    with app.app_context():
        inbound_id = store.receive(session, raw, channel="smtp", envelope_from=ANA, envelope_to=[table["address"]])
    gateway.handler.recover()
    assert gateway.handler.wait_idle(30)
    assert _status(session, inbound_id) == "processed"
    session.expire_all()
    assert list(session.scalars(select(PendingOrder.text).where(PendingOrder.seat == table["seat"]))) \
        == [table["order"]]
