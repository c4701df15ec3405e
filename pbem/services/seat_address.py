"""A player's own reply address for their seat, as the game page and the API show it, and
replacing it when it leaked.

Only the seat's player may see or replace it: the address is the seat's mail credential.
Replacing revokes the old token and makes a new one, and the player gets the new address
by mail, in the same transaction.  Mail to the old address is then refused with one short
answer a day (pbem/mail/senders.py, reason `replaced_token`).
"""
from __future__ import annotations

from sqlalchemy.orm import Session

from pbem.models import Game, Seat, User
from pbem.outbox.messages import send_mail
from pbem.outbox.seat_tokens import replace_token, seat_reply_address
from pbem.outbox.settings import MailSettings, load
from pbem.outbox.tokens import reply_address
from pbem.services import links
from pbem.services.errors import Conflict, NotFound
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.play import require_seat

TOPIC = "reply-address"


def _own_seat(game: Game | None, game_id: int, user: User) -> Seat:
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    seat = require_seat(game, user)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running: its reply addresses take no orders")
    return seat


@unit_of_work
def current_address(session: Session, game_id: int, user: User, settings: MailSettings | None = None) -> str:
    """The seat's reply address (made and committed on first use)."""
    seat = _own_seat(session.get(Game, game_id), game_id, user)
    address = seat_reply_address(session, seat, settings)
    session.commit()
    return address


@unit_of_work
def replace_address(session: Session, game_id: int, user: User, settings: MailSettings | None = None) -> str:
    """Revoke the seat's reply address, make a new one and mail it to the player."""
    settings = settings or load()
    game = lock_game(session, game_id)  # two replacements at once must not leave two live tokens
    seat = _own_seat(game, game_id, user)
    assert seat.name is not None
    address = reply_address(replace_token(session, game.id, seat.name), domain=settings.domain)
    to = user.primary_address
    if to is not None:
        send_mail(session, to, f"Your new reply address for {game.title} (game {game.id})",
                  f"Your reply address for {game.title} was replaced. Send your orders for this game to\n\n"
                  f"    {address}\n\nor simply reply to this mail. Mail to the old address is refused "
                  f"from now on.\n\nThe game: {links.game(settings.base_url, game.id)}\n",
                  topic=TOPIC, reply_to=address)
    session.commit()
    return address
