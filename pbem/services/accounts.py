"""People: sign-in by emailed one-time link, profiles, several confirmed addresses, API tokens.

Tokens (links and API tokens) are random, stored only as SHA-256 hashes, and compared
by looking the hash up: a leaked database does not let anyone sign in.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

from sqlalchemy import select, update
from sqlalchemy.orm import Session, joinedload

from pbem.models import EMAIL_MAX, NAME_MAX, ApiToken, EmailAddress, EmailToken, User, now
from pbem.outbox.messages import send_mail
from pbem.services import links
from pbem.services.errors import Forbidden, Invalid, NotFound
from pbem.services.locking import unit_of_work
from pbem.services.moves_mail import CHOICES
from pbem.text import INVISIBLE, one_line

LINK_LIFETIME = timedelta(minutes=15)
API_TOKEN_PREFIX = "pbem_"
TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)  # how often last_used_at is written
_ADDRESS = re.compile(r"^[^@\s<>()\[\],;:\"\\]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$")
SIGNIN, CONFIRM = "signin", "confirm"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def normalize_address(address: str) -> str:
    """Addresses compare without case and surrounding space; refuse what cannot be one."""
    address = (address or "").strip().lower()
    if len(address) > EMAIL_MAX or not _ADDRESS.match(address) or INVISIBLE.search(address):
        raise Invalid("that does not look like an email address")
    return address


def _new_link_token(session: Session, purpose: str, address: str, user_id: int | None) -> str:
    token = secrets.token_urlsafe(32)
    session.add(EmailToken(token_hash=hash_token(token), purpose=purpose, address=address,
                           user_id=user_id, expires_at=now() + LINK_LIFETIME))
    return token


def owner_of(session: Session, address: str) -> User | None:
    return session.scalar(select(User).join(EmailAddress).where(EmailAddress.address == address))


# ---- sign-in ------------------------------------------------------------------------------

@unit_of_work
def request_sign_in(session: Session, address: str, *, base_url: str) -> None:
    """Mail a one-time sign-in link.  The answer is the same whether or not the address
    is known, so the form cannot be used to find out who plays here."""
    address = normalize_address(address)
    owner = owner_of(session, address)
    token = _new_link_token(session, SIGNIN, address, owner.id if owner else None)
    link = links.signin(base_url, token)
    # No idempotency key: each request makes a new one-time link, and asking again must mail it.
    send_mail(session, address, "Your pbem sign-in link",
              f"Open this link within {LINK_LIFETIME.seconds // 60} minutes to sign in to pbem:\n\n"
              f"{link}\n\nIf you did not ask for it, ignore this mail: nothing happens without the link.\n",
              topic="signin")
    session.commit()


def _use_token(session: Session, token: str, purpose: str) -> EmailToken:
    """Spend a one-time token: the conditional UPDATE lets only one request win."""
    row = session.scalar(select(EmailToken).where(EmailToken.token_hash == hash_token(token or ""),
                                                  EmailToken.purpose == purpose))
    if row is None or row.used_at is not None or row.expires_at < now():
        raise Invalid("this link is not valid any more: it was used already or it expired; ask for a new one")
    spent = session.execute(update(EmailToken).where(EmailToken.id == row.id, EmailToken.used_at.is_(None))
                            .values(used_at=now()))
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        raise Invalid("this link was used already; ask for a new one")
    return row


@unit_of_work
def complete_sign_in(session: Session, token: str) -> User:
    """Sign in with a link; the first sign-in of an address creates the person (the link
    proves the address, so it is confirmed)."""
    row = _use_token(session, token, SIGNIN)
    user = owner_of(session, row.address)
    if user is None:
        user = User(display_name=one_line(row.address.split("@")[0])[:NAME_MAX] or "player")
        user.addresses.append(EmailAddress(address=row.address, is_primary=True))
        session.add(user)
    session.commit()
    return user


def session_user(session: Session, user_id: int | None, generation: int) -> User | None:
    """Who a browser session is signed in as: nobody once that person signed out (any
    session begun before, in any browser), or if the account is gone."""
    user = session.get(User, user_id) if isinstance(user_id, int) else None
    if user is None or user.session_generation != generation:
        return None
    return user


@unit_of_work
def sign_out_everywhere(session: Session, user: User) -> None:
    """End every browser session of the person: each carries the generation it began in."""
    session.execute(update(User).where(User.id == user.id)
                    .values(session_generation=User.session_generation + 1))
    session.commit()


# ---- profile and addresses ----------------------------------------------------------------

# Zones a person lives in: the IANA areas plus UTC.  The rest of the database is links kept
# for old software ("US/Pacific", "Etc/GMT+5") and files that are no zone ("Factory",
# "localtime", "posixrules"); the profile offers none of them.
AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
         "Indian", "Pacific")
TIME_ZONES = frozenset(name for name in available_timezones()
                       if name == "UTC" or name.split("/", 1)[0] in AREAS) | {"UTC"}
OPPONENT_MOVES = CHOICES  # for opponents' moves (pbem/services/moves_mail.py)
PAPER_SIZES = ("A4", "Letter")  # report PDFs (pbem/reports)


def _hour(value: int | str) -> int:
    """A digest hour, 0 to 23 (a form sends it as text)."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 23:
        raise Invalid("the digest hour is a whole hour from 0 to 23")
    return int(text)


@unit_of_work
def update_profile(session: Session, user: User, *, display_name: str, time_zone: str,
                   notify_turn: bool, notify_results: bool, notify_invites: bool,
                   opponent_moves: str | None = None, digest_hour: int | str | None = None,
                   paper_size: str | None = None, notify_press: bool | None = None) -> User:
    """`notify_press`: mails of other players' press (None keeps it); `opponent_moves` ("off", "each", "digest"), `digest_hour` (0-23, local) and
    `paper_size` (PAPER_SIZES, for report PDFs): None keeps them."""
    name = one_line(display_name)
    if not 1 <= len(name) <= NAME_MAX:
        raise Invalid(f"a display name has 1 to {NAME_MAX} characters")
    if time_zone not in TIME_ZONES:
        raise Invalid(f"unknown time zone {time_zone[:64]!r}; use a name such as Europe/Rome")
    ZoneInfo(time_zone)  # every name listed loads; this fails loudly if the tz data is broken
    if opponent_moves is not None and opponent_moves not in OPPONENT_MOVES:
        raise Invalid(f"opponents' moves: choose one of {', '.join(OPPONENT_MOVES)}")
    if paper_size is not None and paper_size not in PAPER_SIZES:
        raise Invalid(f"paper size: choose one of {', '.join(PAPER_SIZES)}")
    hour = _hour(digest_hour) if digest_hour is not None else user.digest_hour
    user.display_name, user.time_zone = name, time_zone
    user.notify_turn, user.notify_results, user.notify_invites = notify_turn, notify_results, notify_invites
    user.opponent_moves, user.digest_hour = opponent_moves or user.opponent_moves, hour
    user.paper_size = paper_size or user.paper_size
    user.notify_press = user.notify_press if notify_press is None else notify_press
    session.commit()
    return user


@unit_of_work
def add_address(session: Session, user: User, address: str, *, base_url: str) -> None:
    """Mail a confirmation link to a new address; nothing else goes there until it is confirmed."""
    address = normalize_address(address)
    owner = owner_of(session, address)
    if owner is not None and owner.id == user.id:
        raise Invalid("that address is already yours")
    if owner is not None:
        return  # someone else's: say nothing about it and send nothing
    token = _new_link_token(session, CONFIRM, address, user.id)
    send_mail(session, address, "Confirm your address for pbem",
              f"{user.display_name} asked to add this address to their pbem account.\n"
              f"Open this link within {LINK_LIFETIME.seconds // 60} minutes to confirm it:\n\n"
              f"{links.confirm_address(base_url, token)}\n\nIf that was not you, ignore this mail.\n",
              topic="confirm")
    session.commit()


@unit_of_work
def confirm_address(session: Session, user: User, token: str) -> EmailAddress:
    row = _use_token(session, token, CONFIRM)
    if row.user_id != user.id:  # (the rollback leaves the link usable by its owner)
        raise Forbidden("this confirmation link belongs to another account; sign in as that person")
    if owner_of(session, row.address) is not None:
        raise Invalid("that address was confirmed by another account meanwhile")
    address = EmailAddress(address=row.address, is_primary=not user.addresses)
    user.addresses.append(address)
    session.commit()
    return address


def _address_of(user: User, address_id: int) -> EmailAddress:
    for address in user.addresses:
        if address.id == address_id:
            return address
    raise NotFound("no such address on your account")


@unit_of_work
def remove_address(session: Session, user: User, address_id: int) -> None:
    address = _address_of(user, address_id)
    if len(user.addresses) == 1:
        raise Invalid("you cannot remove your only address: you sign in with it")
    user.addresses.remove(address)
    if address.is_primary:
        user.addresses[0].is_primary = True
    session.commit()


def make_primary(session: Session, user: User, address_id: int) -> None:
    chosen = _address_of(user, address_id)
    for address in user.addresses:
        address.is_primary = address is chosen
    session.commit()


# ---- API tokens ---------------------------------------------------------------------------

def create_api_token(session: Session, user: User, name: str) -> tuple[ApiToken, str]:
    """A new personal API token; the secret is returned once and never stored."""
    name = one_line(name) or "API token"
    if len(name) > NAME_MAX:
        raise Invalid(f"a token name has at most {NAME_MAX} characters")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user_id=user.id, name=name, token_hash=hash_token(secret), prefix=secret[:12])
    session.add(token)
    session.commit()
    return token, secret


def api_tokens(session: Session, user: User) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user.id,
                                                       ApiToken.revoked_at.is_(None))
                                .order_by(ApiToken.id)))


def revoke_api_token(session: Session, user: User, token_id: int) -> None:
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != user.id or token.revoked_at is not None:
        raise NotFound("no such token")
    token.revoked_at = now()
    session.commit()


def user_for_api_token(session: Session, secret: str) -> User | None:
    if not secret.startswith(API_TOKEN_PREFIX):
        return None
    token = session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(secret),
                                                  ApiToken.revoked_at.is_(None))
                           .options(joinedload(ApiToken.user)))  # the person with the token: one query
    if token is None:
        return None
    moment: datetime = now()
    if token.last_used_at is None or moment - token.last_used_at > TOKEN_TOUCH_INTERVAL:
        token.last_used_at = moment
        session.commit()
    return token.user
