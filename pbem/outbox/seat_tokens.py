"""A seat's reply token, stored (table `seat_tokens`): one live token per seat, made on first
use; replacing it revokes the old one (a leaked address, pbem/services/seat_address.py).
The token's format is pbem/outbox/tokens.py.
"""
from __future__ import annotations

from typing import Collection

from sqlalchemy import inspect, select, update
from sqlalchemy.orm import Session

from pbem.models import Seat, now
from pbem.outbox.models import SeatToken
from pbem.outbox.press_tokens import revoke_press_tokens
from pbem.outbox.settings import MailSettings, mail_domain
from pbem.outbox.tokens import new_token, reply_address


def seat_token(session: Session, game_id: int, seat: str) -> str:
    """The seat's live reply token, made on first use (the caller commits)."""
    return seat_tokens(session, game_id, [seat])[seat]


def seat_tokens(session: Session, game_id: int, seats: Collection[str]) -> dict[str, str]:
    """`seat_token` of each of these seats of one game, read in one query (the newest live
    token of a seat wins), those missing made and stored together."""
    tokens: dict[str, str] = {}
    for seat, token in session.execute(select(SeatToken.seat, SeatToken.token).where(
            SeatToken.game_id == game_id, SeatToken.seat.in_(list(seats)), SeatToken.revoked_at.is_(None))
            .order_by(SeatToken.id)):
        tokens[seat] = token
    missing = [seat for seat in dict.fromkeys(seats) if seat not in tokens]
    for seat in missing:
        tokens[seat] = new_token()
        session.add(SeatToken(token=tokens[seat], game_id=game_id, seat=seat))
    if missing:
        session.flush()
    return tokens


def seat_reply_address(session: Session, seat: Seat, settings: MailSettings | None = None) -> str:
    """`orders+<token>@<domain>` for a started game's seat: the Reply-To of its mails."""
    assert seat.name is not None, "seats are named when the game starts"
    token = _loaded_token(seat) or seat_token(session, seat.game_id, seat.name)
    return reply_address(token, domain=settings.domain if settings is not None else mail_domain())


def seat_reply_addresses(session: Session, seats: Collection[Seat]) -> dict[str, str]:
    """`seat_reply_address` of these started seats of one game, by seat name: their live
    tokens as read with the game's lock (`Seat.reply_tokens`, pbem/services/locking.py),
    else read in one query."""
    tokens = {seat.name: token for seat in seats if (token := _loaded_token(seat))}
    missing = [seat.name for seat in seats if seat.name not in tokens]
    if missing:
        tokens.update(seat_tokens(session, next(iter(seats)).game_id, missing))
    domain = mail_domain()
    return {str(name): reply_address(token, domain=domain) for name, token in tokens.items()}


def _loaded_token(seat: Seat) -> str | None:
    """The seat's newest live token if read with its game (`Seat.reply_tokens`, loaded by
    pbem/services/locking.py for an advance or the deadline tick), without a query."""
    if "reply_tokens" in inspect(seat).unloaded or not seat.reply_tokens:
        return None
    return seat.reply_tokens[-1].token


def replace_token(session: Session, game_id: int, seat: str) -> str:
    """Revoke the seat's token (leaked address) and make a new one (the caller commits, with
    the mail that tells the player: pbem/services/seat_address.py).  Its press threads'
    tokens go too: they reach the seat just the same."""
    revoke_press_tokens(session, game_id, seat)
    session.execute(update(SeatToken).where(SeatToken.game_id == game_id, SeatToken.seat == seat,
                                            SeatToken.revoked_at.is_(None)).values(revoked_at=now()))
    return seat_token(session, game_id, seat)
