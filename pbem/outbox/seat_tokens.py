"""A seat's reply token, stored (table `seat_tokens`): one live token per seat, made on first
use; replacing it revokes the old one (a leaked address, pbem/services/seat_address.py).
The token's format is pbem/outbox/tokens.py.
"""
from __future__ import annotations

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session

from pbem.models import Seat, now
from pbem.outbox.models import SeatToken
from pbem.outbox.press_tokens import revoke_press_tokens
from pbem.outbox.settings import MailSettings, load
from pbem.outbox.tokens import new_token, reply_address


_READ = "pbem.seat_tokens"  # session.info: live tokens read ahead for the open transaction


def read_tokens(session: Session, game_ids: list[int]) -> None:
    """Read the live tokens of these games' seats in one query, for `seat_token` to use until
    this transaction ends (the deadline tick mails many games' seats in one)."""
    read = session.info.setdefault(_READ, {})
    for game_id, seat, token in session.execute(
            select(SeatToken.game_id, SeatToken.seat, SeatToken.token)
            .where(SeatToken.game_id.in_(game_ids), SeatToken.revoked_at.is_(None)).order_by(SeatToken.id)):
        read[game_id, seat] = token  # the newest last, as seat_token picks


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _forget_read(session: Session) -> None:
    session.info.pop(_READ, None)


def seat_token(session: Session, game_id: int, seat: str) -> str:
    """The seat's live reply token, made on first use (the caller commits)."""
    token = session.info.get(_READ, {}).get((game_id, seat))
    if token is not None:
        return token
    token = session.scalar(select(SeatToken.token).where(
        SeatToken.game_id == game_id, SeatToken.seat == seat, SeatToken.revoked_at.is_(None))
        .order_by(SeatToken.id.desc()).limit(1))
    if token is None:
        token = new_token()
        session.add(SeatToken(token=token, game_id=game_id, seat=seat))
        session.flush()
    return token


def seat_reply_address(session: Session, seat: Seat, settings: MailSettings | None = None) -> str:
    """`orders+<token>@<domain>` for a started game's seat: the Reply-To of its mails."""
    assert seat.name is not None, "seats are named when the game starts"
    return reply_address(seat_token(session, seat.game_id, seat.name), domain=(settings or load()).domain)


def replace_token(session: Session, game_id: int, seat: str) -> str:
    """Revoke the seat's token (leaked address) and make a new one (the caller commits, with
    the mail that tells the player: pbem/services/seat_address.py).  Its press threads'
    tokens go too: they reach the seat just the same."""
    session.info.get(_READ, {}).pop((game_id, seat), None)
    revoke_press_tokens(session, game_id, seat)
    session.execute(update(SeatToken).where(SeatToken.game_id == game_id, SeatToken.seat == seat,
                                            SeatToken.revoked_at.is_(None)).values(revoked_at=now()))
    return seat_token(session, game_id, seat)
