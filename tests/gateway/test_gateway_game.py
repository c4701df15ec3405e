"""A whole game played by one person purely by email: orders go to the gateway over real
SMTP, the confirmations come back over real SMTP to a sink and are read from there."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy.orm import Session

from engine.aztlan.bots import make_bot
from engine.aztlan.orders import to_text
from gateway_helpers import DOMAIN, body, compose, send, snapshot
from pbem.outbox.delivery import deliver_pending
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.mail.models import InboundMessage
from pbem.outbox.settings import load
from pbem.models import Game, Seat
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"


def _my_seat(session: Session, game: Game, user_id: int) -> Seat:
    return next(s for s in game.seats if s.user_id == user_id)


def test_a_whole_game_by_email(app: Any, session: Session, gateway: Any, sink: Any) -> None:
    with app.app_context():  # as in the service: its first turn mail is addressed with the app's domain
        ana = make_user(session, ANA, "Ana")
        game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=11)
    seat = _my_seat(session, game, ana.id)
    settings = load(app.config)
    address = seat_reply_address(session, seat, settings)
    session.commit()
    deliver_pending(session, settings)  # the game's first mails (made outside the gateway)
    assert address.startswith("orders+") and address.endswith("@" + DOMAIN)
    seat_name, game_id = seat.name, game.id
    assert seat_name is not None
    mails = 0
    for step in range(400):
        session.expire_all()
        game = session.get(Game, game_id)
        if game.status == Game.FINISHED:
            break
        state = game_state(session, game)
        waiting = [d.seat for d in state.decisions(options=False)]
        assert seat_name in waiting, f"the game waits for {waiting}, not for the person"
        order = make_bot("heuristic", f"mail:{step}").order(state, state.seats.index(seat_name))
        text = to_text(order)
        raw, message_id = compose(ANA, address, f"{text}\n\n-- \nAna\n", subject=f"Re: {game.title}")
        session.rollback()  # the test reads; it holds nothing while the gateway writes
        send(gateway.port, raw, ANA, address)
        assert gateway.handler.wait_idle(30)
        replies = sink.replies_to(message_id)
        assert len(replies) == 1, f"one reply per mail; got {len(replies)} for {text!r}"
        reply = replies[0]
        assert reply["Auto-Submitted"] == "auto-replied"
        assert reply["Reply-To"] == address
        assert reply["To"] == ANA
        assert f"    {text}\n" in body(reply), body(reply)
        assert body(reply).startswith("Accepted for ")
        # What the person learns by mail alone: what is awaited of them next, or the end.
        assert re.search(r"Waiting for: (.*, )?you \(|The game is over\.", body(reply)), body(reply)
        mails += 1
    else:
        raise AssertionError("the game did not finish")
    session.expire_all()
    assert session.get(Game, game_id).status == Game.FINISHED
    assert mails > 20
    statuses = {row.status for row in session.query(InboundMessage)}
    assert statuses == {InboundMessage.PROCESSED}
    # Turn and result mails went out over SMTP too, with an unsubscribe link.
    notices = [m for m in sink.to(ANA) if "Your turn" in m["Subject"] or "game over" in m["Subject"]]
    assert any("Your turn" in m["Subject"] for m in notices)
    assert any("game over" in m["Subject"] for m in notices)
    assert all(m["List-Unsubscribe"] and m["Auto-Submitted"] == "auto-generated" for m in notices)
    assert {m["Reply-To"] for m in notices} == {address}  # a reply to any of them acts for the seat
    assert snapshot(session, game_id)["status"] == Game.FINISHED
