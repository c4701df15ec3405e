"""Who an inbound mail is from, and whether it may act for a seat.

The token in the address it was sent to is the credential (a seat's, or a press thread's:
then the mail is press to that thread's audience, pbem/outbox/press_tokens.py); the From must also be a confirmed
address of that seat's player; and a trusted receiving server must not say the From is forged
(DMARC).  A mail that fails any of these carries nothing out.  What it is answered, if
anything, is decided by the gateway (pbem/mail/gateway.py) with the checks here: the rate
limit of failures per From (`flooded`), and whether an answer could only reach the real
sender (`vouched_for`), never a forger's victim (backscatter).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import bindparam, func, inspect, select
from sqlalchemy.orm import Session

from pbem.mail.inbound import InboundMail
from pbem.mail.models import InboundMessage
from pbem.mail.store import RELEASED
from pbem.models import EmailAddress, Game, Seat, User
from pbem.outbox.models import PressToken, SeatToken
from pbem.outbox.settings import MailSettings
from pbem.services.accounts import normalize_address
from pbem.services.errors import NotFound, ServiceError
from pbem.services.locking import lock_game

# Reasons of mail that failed authentication: what the per-address rate limit counts.
UNAUTHENTICATED = ("no_token", "unknown_token", "replaced_token", "from_mismatch", "dmarc_fail", "rate_limited")


@dataclass
class Sender:
    """What authentication found.  `refused`: None when the mail may act for `seat` (then
    game, seat, user and token are set), else one of UNAUTHENTICATED; `forged`: a trusted
    server says the From is forged (and no operator released the mail)."""

    refused: str | None
    forged: bool
    game: Game | None = None
    seat: Seat | None = None
    user: User | None = None
    token: str | None = None
    press: bool = False  # the token is a press thread's: the mail is a message to `audience`
    audience: str | None = None  # the seat of a private thread; None: the whole table


def authenticate(session: Session, row: InboundMessage, mail: InboundMail) -> Sender:
    """Find the seat the mail's token names and check its From against the seat's player.
    Records on `row` what was found (game and seat; the user and token only when the mail
    authenticated: from then on an error sends it to review); the gateway commits it with
    what the mail does.  The game of a live token is locked from here, read once with its
    seats, players and pending orders (the mail's orders go in under this lock): replays of
    one mail racing each other wait for one another."""
    sender = mail.from_address.lower()
    # A trusted server says the From is forged (unless an operator released the mail): never
    # answer it, the answer would go to whoever was impersonated (backscatter).
    forged = mail.dmarc == "fail" and not (row.reason or "").startswith(RELEASED)
    token = mail.token
    found: SeatToken | PressToken | None = session.scalar(_LIVE_SEAT_TOKEN, {"token": token}) if token else None
    if found is None and token:
        found = session.scalar(_LIVE_PRESS_TOKEN, {"token": token})
    game = _locked(session, found.game_id) if found is not None else None
    seat = next((s for s in game.seats if s.name == found.seat), None) if game is not None else None
    user = seat.user if seat is not None else None
    if found is None:
        replaced = token is not None and _replaced_for(session, token, sender)
        return Sender("replaced_token" if replaced else "no_token" if not mail.tokens else "unknown_token", forged)
    if game is None or seat is None or user is None or not confirmed(session, user, sender):
        row.game_id, row.seat = found.game_id, found.seat
        return Sender("from_mismatch", forged, game)
    row.game_id, row.seat, row.user_id, row.token = game.id, seat.name, user.id, found.token
    press = isinstance(found, PressToken)
    return Sender("dmarc_fail" if forged else None, forged, game, seat, user, found.token, press,
                  found.audience if isinstance(found, PressToken) else None)


# Built once: building a statement costs more than running it.
_LIVE_SEAT_TOKEN = select(SeatToken).where(SeatToken.token == bindparam("token"), SeatToken.revoked_at.is_(None))
_LIVE_PRESS_TOKEN = select(PressToken).where(PressToken.token == bindparam("token"), PressToken.revoked_at.is_(None))


def _locked(session: Session, game_id: int) -> Game | None:
    try:
        # With every seat's person and addresses, the pending orders an order mail replaces, and
        # the rest of what the advance that goes with an order reads (play.submit_orders(within=True)).
        return lock_game(session, game_id, people=True, pending=True, queued=True)
    except NotFound:  # a token outliving its game
        return None


def flooded(session: Session, row: InboundMessage, settings: MailSettings) -> bool:
    """Whether the From sent more mail that failed authentication in the last hour than the
    rate limit allows (then this failed one is ignored, unanswered).  Only failed mail counts:
    the From is the sender's word, so a flood under a forged From never silences the real
    sender's authenticated mail."""
    recent = session.scalar(select(func.count(InboundMessage.id)).where(
        InboundMessage.from_address == row.from_address, InboundMessage.id != row.id,
        InboundMessage.reason.in_(UNAUTHENTICATED),
        InboundMessage.received_at > row.received_at - timedelta(hours=1)))
    return recent >= settings.rate_per_hour


def vouched_for(session: Session, sender: str, game: Game | None, settings: MailSettings) -> bool:
    """Whether a mail that failed authentication may get its short answer.  Yes if one of our
    own receiving servers checks From (a DMARC failure never gets here); with none configured,
    only a confirmed address of a player of the game the token names: anyone else may be a
    forger's victim, who would get the answer (backscatter)."""
    if settings.trusted_authserv_ids:
        return True
    return game is not None and any(s.user is not None and confirmed(session, s.user, sender) for s in game.seats)


def confirmed(session: Session, user: User, sender: str) -> bool:
    """Whether `sender` is a confirmed address of `user`, compared as the accounts do."""
    try:
        address = normalize_address(sender)
    except ServiceError:
        return False
    if "addresses" not in inspect(user).unloaded:  # read with the game (`authenticate`)
        return any(known.address == address for known in user.addresses)
    return session.scalar(select(EmailAddress.id).where(EmailAddress.user_id == user.id,
                                                        EmailAddress.address == address)) is not None


def _replaced_for(session: Session, token: str, sender: str) -> bool:
    """Whether `token` is a replaced reply address of a seat that `sender` still plays.
    Anyone else writing to it learns nothing more than from any unknown address."""
    old: SeatToken | PressToken | None = session.scalar(
        select(SeatToken).where(SeatToken.token == token, SeatToken.revoked_at.is_not(None)))
    if old is None:
        old = session.scalar(select(PressToken).where(PressToken.token == token, PressToken.revoked_at.is_not(None)))
    game = session.get(Game, old.game_id) if old is not None else None
    seat = next((s for s in game.seats if s.name == old.seat), None) if game is not None else None
    return seat is not None and seat.user is not None and confirmed(session, seat.user, sender)
