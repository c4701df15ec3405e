"""Resigning: a person gives up their seat for the rest of the game; a bot takes it over
(the game's default bot), so the others play on.  Mail `RESIGN CONFIRM` (pbem/mail/execute.py)
calls it; it is final."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from engine import get_game
from pbem.models import Game, Seat, User
from pbem.outbox.models import SeatToken
from pbem.services.dispatch import advance_after_change
from pbem.services.errors import Conflict
from pbem.services.events import log_event
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.play import require_seat
from pbem.services.policy import policy_from
from pbem.services.takeover import clear_seat, rename_seat

@unit_of_work
def resign_seat(session: Session, game_id: int, user: User, now: datetime) -> Seat:
    game = lock_game(session, game_id)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    seat = require_seat(game, user)
    policy = policy_from(game.deadline_policy)
    bot = policy.abandoned or policy.default  # as for a seat nobody plays any more
    if bot not in get_game(game.kind).bots:
        bot = get_game(game.kind).stand_in
    clear_seat(session, game, seat)
    seat.user_id, seat.user, seat.bot, seat.waiting = None, None, bot, False
    rename_seat(session, game, seat.name, seat.label)
    log_event(session, game, "resign", f"{user.display_name} resigned; the {bot} bot plays {seat.name}",
              now, seat=seat.name, user_id=user.id)
    # The seat's reply address stops working.
    session.execute(update(SeatToken).where(SeatToken.game_id == game.id, SeatToken.seat == seat.name,
                                            SeatToken.revoked_at.is_(None)).values(revoked_at=now))
    session.commit()
    advance_after_change(session, game.id, at=now)
    return seat

