"""A game of three where one person (Ana) holds a seat and owes a power card: the setting of
the mail tests that need one player (IMAP, bounces, the scheduled poll)."""
from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy.orm import Session

from pbem.mail.gateway import seat_reply_address
from pbem.mail.settings import load
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"


def ana_game(session: Session, config: Mapping[str, Any]) -> dict[str, Any]:
    """game_id, Ana's seat (tribe), her reply address and a legal first order of hers."""
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    address = seat_reply_address(session, seat, load(config))
    session.commit()
    card = game_state(session, game).view(seat.tribe)["me"]["power_left"][0]
    return {"game_id": game.id, "seat": seat.tribe, "address": address, "order": f"card {card}"}
