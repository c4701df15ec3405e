"""One seat of a whole Azteca game played purely by email (over real SMTP), the other two
seats the service's bots: every order goes to the gateway in a mail, every answer comes back
over SMTP to a sink and is read from there; the turn mails and the BOARD and HAND answers speak
Azteca's words and show the seat its own secrets and no one else's."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy.orm import Session

from engine.azteca.bots import BOTS
from gateway_helpers import DOMAIN, ask, body, compose, send
from pbem.games.azteca.sentences import chart_text
from pbem.mail.models import InboundMessage
from pbem.models import Game
from pbem.outbox.delivery import deliver_pending
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"
MAX_MAILS = 2_000  # far beyond one seat's orders in a whole game


def _mail_order(gateway: Any, sink: Any, address: str, text: str, title: str) -> str:
    """Mail one order as a reply to a turn mail; the one answer's body."""
    raw, message_id = compose(ANA, address, f"{text}\n\n-- \nAna\n", subject=f"Re: {title}")
    send(gateway.port, raw, ANA, address)
    assert gateway.handler.wait_idle(30)
    replies = sink.replies_to(message_id)
    assert len(replies) == 1, f"one reply per mail; got {len(replies)} for {text!r}"
    assert replies[0]["Reply-To"] == address and replies[0]["To"] == ANA
    return body(replies[0])


def test_one_seat_of_a_whole_azteca_game_by_email(app: Any, session: Session, gateway: Any, sink: Any) -> None:
    with app.app_context():  # as in the service: its first turn mail is addressed with the app's domain
        ana = make_user(session, ANA, "Ana")
        game = make_game(session, ana, game="azteca", players=3, bots=("heuristic", "random"), seed=7)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    settings = load(app.config)
    address = seat_reply_address(session, seat, settings)
    session.commit()
    deliver_pending(session, settings)  # the game's first mails (made outside the gateway)
    assert address.endswith("@" + DOMAIN)
    seat_name, game_id, title = seat.name, game.id, game.title
    bot = BOTS["heuristic"](f"mail:{game_id}")  # Ana's orders, as a careful player would write them
    kinds: set[str] = set()
    for mails in range(MAX_MAILS):
        session.expire_all()
        game = session.get(Game, game_id)
        if game.status == Game.FINISHED:
            break
        state = game_state(session, game)
        owed = [d for d in state.decisions(options=False) if d.seat == seat_name]
        assert owed, f"the game waits for {[d.seat for d in state.decisions(options=False)]}, not for Ana"
        kinds.add(owed[0].kind)
        text = state.order_text(bot.order(state.clone(), state.seats.index(seat_name)))
        session.rollback()  # the test reads; it holds nothing while the gateway writes
        answer = _mail_order(gateway, sink, address, text, title)
        assert answer.startswith("Accepted for ") and f"    {text}\n" in answer, answer
        assert re.search(r"Waiting for: (.*, )?you \(|The game is over\.", answer), answer
    else:
        raise AssertionError("the game did not finish")
    assert {"army", "place", "purchase", "bid", "send", "urn", "tezcatlipoca"} <= kinds, kinds
    assert {row.status for row in session.query(InboundMessage)} == {InboundMessage.PROCESSED}
    turns = [m for m in sink.to(ANA) if "Your turn" in m["Subject"]]
    assert turns and {m["Reply-To"] for m in turns} == {address}
    assert any("Your choices now:" in body(m) and "Quetzalcoatl:" in body(m) for m in turns)
    assert any("game over" in m["Subject"] for m in sink.to(ANA))


def test_board_and_hand_by_mail_show_the_seat_its_own_secrets(app: Any, session: Session, gateway: Any,
                                                               sink: Any) -> None:
    """Once the organisation charts are in (5.0, secret), HAND gives Ana her own chart and Azteca
    cards, BOARD the valley and the gods in words, and neither gives another seat's chart."""
    with app.app_context():
        ana = make_user(session, ANA, "Ana")
        game = make_game(session, ana, game="azteca", players=3, bots=("heuristic", "random"), seed=7)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(app.config))
    seat_name, game_id = seat.name, game.id
    session.commit()
    answer = _mail_order(gateway, sink, address, "army A 4w, B 3w 1j, C 2w 1j, R 1w 1j", game.title)
    assert answer.startswith("Accepted for "), answer
    reply = body(ask(gateway, sink, ANA, address, "BOARD\nHAND"))
    assert "Quetzalcoatl: 0 of 5 steps climbed" in reply and "Tezcatlipoca: 0 of 4 steps down" in reply
    assert "Your organisation chart: A 4w, B 3w 1j, C 2w 1j, R 1w 1j." in reply
    session.expire_all()
    state = game_state(session, session.get(Game, game_id))
    assert state.view(seat_name)["me"]["chart"] == {"A": [4, 0], "B": [3, 1], "C": [2, 1], "R": [1, 1]}
    for other in (s for s in state.seats if s != seat_name):
        chart = chart_text(state.view(other)["me"]["chart"])
        assert chart == "A 4w, B 3w 1j, C 2w 1j, R 1w 1j" or chart not in reply, f"{other}'s chart told to Ana"
