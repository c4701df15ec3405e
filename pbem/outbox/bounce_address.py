"""The envelope sender of every mail we send: `bounces+<outbox id>.<signature>@<domain>` (VERP).

The signature is an HMAC of the row and its recipient under SECRET_KEY, so a bounce names
exactly the mail that failed and nobody can invent one for a row or an address.  Reading
the bounces that come back is the gateway's (pbem/mail/bounces.py).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Iterable

from sqlalchemy.orm import Session

from pbem.models import OutboxMessage
from pbem.outbox.settings import MailSettings

LOCAL_PART = "bounces"
_MAC_CHARS = 24  # 15 bytes of HMAC-SHA256 in lower-case base32 (case-proof, like reply tokens)


def _signature(settings: MailSettings, outbox_id: int, to_address: str) -> str:
    digest = hmac.new(f"pbem-bounce:{settings.secret_key}".encode(),
                      f"{outbox_id}:{to_address.lower()}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:15]).decode("ascii").lower()


def bounce_address(settings: MailSettings, outbox_id: int, to_address: str) -> str:
    """The envelope sender (MAIL FROM) of outbox row `outbox_id`."""
    return f"{LOCAL_PART}+{outbox_id}.{_signature(settings, outbox_id, to_address)}@{settings.domain}"


def _parts(address: str, domain: str) -> tuple[int, str] | None:
    match = re.fullmatch(rf"{LOCAL_PART}\+(\d{{1,18}})\.([a-z2-7]{{{_MAC_CHARS}}})@(.+)", address.strip().lower())
    if match is None or match.group(3) != domain.lower():
        return None
    return int(match.group(1)), match.group(2)


def is_bounce_address(address: str, settings: MailSettings) -> bool:
    """Whether `address` is one of our bounce addresses (valid or not)."""
    address = address.lower()
    return address.startswith(LOCAL_PART + "+") and address.endswith("@" + settings.domain.lower())


def bounced_row(session: Session, recipients: Iterable[str], settings: MailSettings) -> OutboxMessage | None:
    """The outbox row a bounce sent to `recipients` names, if one of them is a genuine bounce
    address of it (the signature matches the row and its recipient)."""
    for recipient in recipients:
        parts = _parts(recipient, settings.domain)
        if parts is None:
            continue
        row = session.get(OutboxMessage, parts[0])
        if row is not None and hmac.compare_digest(parts[1], _signature(settings, row.id, row.to_address)):
            return row
    return None
