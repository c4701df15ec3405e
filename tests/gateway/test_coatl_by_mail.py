"""Cóatl by mail (over real SMTP): BOARD answers with the position in words and the board's
picture of the asking seat's view, HAND with the reader's own cards, and neither tells a seat
another seat's hand."""
from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from gateway_helpers import ask, body, seat_address
from pbem.mail.picture import board_picture
from pbem.models import Game
from pbem.services import lobby
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"
BO = "bo@example.org"


def test_board_and_hand_by_mail(app: Any, session: Session, gateway: Any, sink: Any) -> None:
    ana, bo = make_user(session, ANA, "Ana"), make_user(session, BO, "Bo")
    game = make_game(session, ana, title="Snakes", game="coatl", players=2, bots=(), invites=[BO], seed=3)
    lobby.join_game(session, game.id, bo)
    game = session.get(Game, game.id)
    seat = next(s.name for s in game.seats if s.user_id == ana.id)
    state = game_state(session, game)
    dealt = sorted(state.players[state.seats.index(seat)].dealt)
    reply = ask(gateway, sink, ANA, seat_address(session, app.config, game, ana.id), "BOARD")
    text = body(reply)
    assert f"Board of Snakes (game {game.id}), round 1, setup:" in text
    assert "Supply board:\n  head: 1 " in text and "Face-up prophecies:\n  " in text and "Common temples:\n  " in text
    assert f"Ana ({seat}): 0 points, 0 prophecies in hand, tokens pick, future, commit." in text
    pictures = [part for part in reply.walk() if part.get_content_type() == "image/png"]
    expected = board_picture(state, state.view(seat))
    assert len(pictures) == 1 and expected is not None and pictures[0].get_content() == expected.data
    hand = body(ask(gateway, sink, ANA, seat_address(session, app.config, game, ana.id), "HAND"))
    assert "Your draw, to keep up to 3 from:" in hand and f"\n  {dealt[0]} (" in hand and "(secret)" in hand
    told = body(ask(gateway, sink, BO, seat_address(session, app.config, game, bo.id), "BOARD\nHAND"))
    bo_draw = told.split("Your draw, to keep up to 3 from:\n", 1)[1].split("Your prophecies:", 1)[0]
    bo_dealt = sorted(state.players[1 - state.seats.index(seat)].dealt)
    assert [int(line.split()[0]) for line in bo_draw.splitlines()] == bo_dealt  # Bo's draw, not Ana's
