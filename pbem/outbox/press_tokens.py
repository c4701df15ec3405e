"""A press mail's reply token, stored (table `press_tokens`): one live token per seat and
audience (None: the whole table; a seat's name: a private thread with it), made on first use.
`press+<token>@<domain>` is the Reply-To of the press mails that seat receives, so a reply
goes as press to the same audience and is never read as orders (pbem/mail/execute.py).
Replacing the seat's reply address revokes these too (pbem/outbox/seat_tokens.py).
"""
from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.models import now
from pbem.outbox.models import PressToken
from pbem.outbox.settings import MailSettings, load
from pbem.outbox.tokens import PRESS_LOCAL_PART, new_token, reply_address


def press_token(session: Session, game_id: int, seat: str, audience: str | None) -> str:
    """The live token of `seat`'s thread with `audience`, made on first use (the caller commits)."""
    query = select(PressToken.token).where(PressToken.game_id == game_id, PressToken.seat == seat,
                                           PressToken.revoked_at.is_(None))
    query = query.where(PressToken.audience.is_(None) if audience is None else PressToken.audience == audience)
    token = session.scalar(query.order_by(PressToken.id.desc()).limit(1))
    if token is None:
        token = new_token()
        session.add(PressToken(token=token, game_id=game_id, seat=seat, audience=audience))
        session.flush()
    return token


def press_reply_address(session: Session, game_id: int, seat: str, audience: str | None,
                        settings: MailSettings | None = None) -> str:
    """`press+<token>@<domain>`: where `seat`'s reply to a press mail of that thread goes."""
    return reply_address(press_token(session, game_id, seat, audience), domain=(settings or load()).domain,
                         local_part=PRESS_LOCAL_PART)


def revoke_press_tokens(session: Session, game_id: int, seat: str) -> None:
    """A leaked reply address: the seat's press threads get new tokens on their next mail."""
    session.execute(update(PressToken).where(PressToken.game_id == game_id, PressToken.seat == seat,
                                             PressToken.revoked_at.is_(None)).values(revoked_at=now()))
