"""Per-seat reply addresses: `orders+<token>@<domain>`, where the token is the credential;
and the same shape for a press thread, `press+<token>@<domain>`.

The token is lower-case base32 (a-z, 2-7), 26 characters, 130 random bits.  Not base64:
mail systems on the way may lower-case an address, and some treat '-' or '_' as a
sub-address separator, so an alphabet without case and punctuation survives them all.
Only the exact shape is accepted; anything else is "no token", never a guess.  Pure: the
tokens stored per seat are in pbem/outbox/seat_tokens.py.
"""
from __future__ import annotations

import base64
import re
import secrets

TOKEN_LENGTH = 26  # 16 random bytes in unpadded base32
LOCAL_PART = "orders"
PRESS_LOCAL_PART = "press"  # a press thread's address (pbem/outbox/press_tokens.py)
_TOKEN = re.compile(r"[a-z2-7]+")


def new_token() -> str:
    """A fresh reply token (the caller stores it, or its hash, against one seat)."""
    return base64.b32encode(secrets.token_bytes(16)).decode("ascii").rstrip("=").lower()


def reply_address(token: str, *, domain: str, local_part: str = LOCAL_PART) -> str:
    if not is_token(token):
        raise ValueError("not a reply token")
    return f"{local_part}+{token}@{domain.lower()}"


def is_token(text: str, length: int = TOKEN_LENGTH) -> bool:
    return len(text) == length and _TOKEN.fullmatch(text) is not None


def token_from_address(address: str, *, domain: str, local_part: str = LOCAL_PART,
                       length: int = TOKEN_LENGTH) -> str | None:
    """The token of `orders+<token>@<domain>`, or None if the address is not exactly that.

    Case is ignored (the alphabet has none), so a relay that lower- or upper-cases the
    address does not lock the player out.
    """
    local, at, host = address.strip().rpartition("@")
    if not at or host.lower() != domain.lower():
        return None
    prefix, plus, token = local.partition("+")
    if not plus or prefix.lower() != local_part.lower():
        return None
    token = token.lower()
    return token if is_token(token, length) else None
