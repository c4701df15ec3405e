"""A game of three where one person (Ana) holds a seat and owes a power card: the setting of
the mail tests that need one player (IMAP, bounces, the scheduled poll); and one where Bo
plays too, so Ana's card choice stays pending until Bo's."""
from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy.orm import Session

from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services import lobby
from pbem.services.state import game_state
from service_helpers import make_game, make_user

ANA = "ana@example.org"
BO = "bo@example.org"


def ana_game(session: Session, config: Mapping[str, Any]) -> dict[str, Any]:
    """game_id, Ana's seat (its name), her reply address and a legal first order of hers."""
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, players=3, bots=("heuristic", "random"), seed=5)
    return _ana_seat(session, game, ana.id, config)


def ana_and_bo_game(session: Session, config: Mapping[str, Any]) -> dict[str, Any]:
    """As ana_game, with Bo in the third seat (and "cards": Ana's first two power cards)."""
    ana, bo = make_user(session, ANA, "Ana"), make_user(session, BO, "Bo")
    game = make_game(session, ana, bots=("heuristic",), invites=[BO], seed=5)
    lobby.join_game(session, game.id, bo)
    session.expire_all()
    return _ana_seat(session, game, ana.id, config)


def _ana_seat(session: Session, game: Any, ana_id: int, config: Mapping[str, Any]) -> dict[str, Any]:
    seat = next(s for s in game.seats if s.user_id == ana_id)
    address = seat_reply_address(session, seat, load(config))
    session.commit()
    cards = game_state(session, game).view(seat.name)["me"]["power_left"]
    return {"game_id": game.id, "seat": seat.name, "address": address, "order": f"card {cards[0]}",
            "cards": cards[:2]}
