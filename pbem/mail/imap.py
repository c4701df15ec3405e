"""The IMAP side of the gateway: poll a mailbox at any provider (PBEM_IMAP_*).

`poll_once(session)` fetches every unseen message of the folder, stores each with
`gateway.receive(channel="imap")` and only then marks it seen (\\Seen), so a crash in between
fetches it again (and de-duplication by Message-ID drops the second copy).  Messages over
MAX_BYTES are marked seen and not fetched.  The envelope is unknown over IMAP: the
recipients come from Delivered-To / X-Original-To / To / Cc, and the null sender of bounces
from Return-Path: <> (both read by the inbound core).

Run it from beat or cron (e.g. every minute); processing follows as for SMTP.
"""
from __future__ import annotations

import imaplib
import logging
import re
from typing import Callable

from sqlalchemy.orm import Session

from pbem.mail import gateway
from pbem.mail.inbound import MAX_BYTES
from pbem.mail.settings import MailSettings, load

log = logging.getLogger(__name__)

BATCH = 100
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def connect(settings: MailSettings) -> imaplib.IMAP4:
    if not settings.imap_host:
        raise RuntimeError("PBEM_IMAP_HOST is not set")
    client = (imaplib.IMAP4_SSL(settings.imap_host, settings.imap_port) if settings.imap_ssl
              else imaplib.IMAP4(settings.imap_host, settings.imap_port))
    client.login(settings.imap_user or "", settings.imap_password or "")
    return client


def poll_once(session: Session, settings: MailSettings | None = None,
              on_stored: Callable[[int], None] | None = None) -> list[int]:
    """Store the folder's unseen messages; their inbound ids (oldest first)."""
    settings = settings or load()
    stored: list[int] = []
    client = connect(settings)
    try:
        status, _ = client.select(settings.imap_folder)
        if status != "OK":
            raise RuntimeError(f"cannot open IMAP folder {settings.imap_folder!r}")
        status, data = client.uid("SEARCH", None, "UNSEEN")
        uids = (data[0] or b"").split() if status == "OK" else []
        for uid in uids[:BATCH]:
            status, meta = client.uid("FETCH", uid, "(RFC822.SIZE)")
            match = _SIZE.search(b" ".join(part for part in meta if isinstance(part, bytes))) if status == "OK" else None
            if match is None or int(match.group(1)) > MAX_BYTES:
                log.warning("IMAP message %s is too large or unreadable: marked seen, not fetched", uid)
                client.uid("STORE", uid, "+FLAGS", r"(\Seen)")
                continue
            status, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")  # PEEK: not seen until stored
            raw = next((part[1] for part in parts if isinstance(part, tuple)), None) if status == "OK" else None
            if raw is None:
                continue
            inbound_id = gateway.receive(session, raw, channel="imap")  # committed
            client.uid("STORE", uid, "+FLAGS", r"(\Seen)")
            stored.append(inbound_id)
            if on_stored is not None:
                on_stored(inbound_id)
    finally:
        try:
            client.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return stored


def main() -> int:
    """Poll once and process what came in (inline mode) — for cron: `python -m pbem.mail.imap`."""
    from pbem.app import create_app
    from pbem.extensions import db

    app = create_app({"RATELIMIT_ENABLED": False})
    with app.app_context():
        settings = load()
        ids = poll_once(db.session, settings)
        if settings.mode == "queue":
            from pbem.mail.smtpd import send_process
            for inbound_id in ids:
                send_process(inbound_id, app=app)
        else:
            for inbound_id in ids:
                gateway.process(db.session, inbound_id, settings)
        print(f"stored {len(ids)} message(s) from IMAP")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
