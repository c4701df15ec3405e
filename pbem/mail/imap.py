"""The IMAP side of the gateway: poll a mailbox at any provider (PBEM_IMAP_*).

`poll_once(session)` fetches every unseen message of the folder, stores each with
`store.receive(channel="imap")` and only then marks it seen (\\Seen), so a crash in between
fetches it again (and de-duplication by Message-ID drops the second copy).  Messages over
MAX_BYTES are not fetched: they are marked \\Seen and \\Flagged (a person may look at them in
any mail client); so is one that turns out larger than the server said.  The envelope is
unknown over IMAP: the recipients come from Delivered-To / X-Original-To / To / Cc, and the
null sender of bounces from Return-Path: <> (both read by the inbound core).

`poll(session, settings)` polls once and hands what came in to processing
(`gateway.start_processing`), as the SMTP server does, also what was stored before an error
cut the poll short (cron has no sweep to find it later); beat runs it every
PBEM_IMAP_SECONDS (the task `pbem.imap_poll`), cron may run `pbem imap-poll` (`run`).
"""
from __future__ import annotations

import imaplib
import logging
import re
from typing import Any, Callable

from flask import Flask
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.mail import gateway, store
from pbem.mail.inbound import MAX_BYTES, MailRejected
from pbem.outbox.settings import MailSettings, load

log = logging.getLogger(__name__)

BATCH = 100
TIMEOUT = 60.0  # seconds per network operation: a hung server must not hold the poll lock forever
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
SEEN, TOO_LARGE = r"(\Seen)", r"(\Seen \Flagged)"


class ImapError(RuntimeError):
    """The mailbox cannot be polled (login refused, folder missing, server gone).  Messages
    stored before the error stay stored (`poll` processes them); the message names host,
    port, user and folder, never the password."""


def connect(settings: MailSettings) -> imaplib.IMAP4:
    if not settings.imap_host:
        raise ImapError("PBEM_IMAP_HOST is not set")
    where = f"{settings.imap_host}:{settings.imap_port}"
    try:
        client = (imaplib.IMAP4_SSL(settings.imap_host, settings.imap_port, timeout=TIMEOUT) if settings.imap_ssl
                  else imaplib.IMAP4(settings.imap_host, settings.imap_port, timeout=TIMEOUT))
    except (imaplib.IMAP4.error, OSError) as error:
        raise ImapError(f"cannot reach the IMAP server {where}: {error}") from None
    try:
        client.login(settings.imap_user or "", settings.imap_password or "")
    except (imaplib.IMAP4.error, OSError) as error:
        client.shutdown()  # no LOGOUT after a refused login: just close the socket
        raise ImapError(f"IMAP login to {where} as {settings.imap_user!r} failed "
                        f"(check PBEM_IMAP_USER and PBEM_IMAP_PASSWORD): {_text(error)}") from None
    return client


def poll_once(session: Session, settings: MailSettings | None = None,
              on_stored: Callable[[int], None] | None = None) -> list[int]:
    """Store the folder's unseen messages; their inbound ids (oldest first).  `on_stored` hears
    of each id as soon as it is committed, so a caller keeps them even if the poll then fails."""
    settings = settings or load()
    stored: list[int] = []
    client = connect(settings)
    try:
        status, data = client.select(_quoted(settings.imap_folder))
        if status != "OK":
            raise ImapError(f"cannot open the IMAP folder {settings.imap_folder!r}: {_text(data)}")
        status, data = client.uid("SEARCH", None, "UNSEEN")
        uids = (data[0] or b"").split() if status == "OK" else []
        for uid in uids[:BATCH]:
            size = _size(client, uid)
            if size is None:  # expunged meanwhile (another client): nothing to do
                continue
            if size > MAX_BYTES:
                _too_large(client, uid, size)
                continue
            status, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")  # PEEK: not seen until stored
            raw = next((part[1] for part in parts if isinstance(part, tuple)), None) if status == "OK" else None
            if raw is None:
                continue
            try:
                inbound_id = store.receive(session, raw, channel="imap")  # committed
            except MailRejected:  # bigger than the server said: left unseen, every poll would stop here
                _too_large(client, uid, len(raw))
                continue
            stored.append(inbound_id)
            if on_stored is not None:
                on_stored(inbound_id)
            _flag(client, uid, SEEN)
    except (imaplib.IMAP4.abort, OSError) as error:  # the connection broke: what was stored stays stored
        raise ImapError(f"the IMAP server {settings.imap_host}:{settings.imap_port} went away: {error}") from None
    except imaplib.IMAP4.error as error:  # a BAD answer: callers catch ImapError only
        raise ImapError(f"the IMAP server {settings.imap_host}:{settings.imap_port} refused a command "
                        f"in folder {settings.imap_folder!r}: {_text(error)}") from None
    finally:
        try:
            client.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return stored


def poll(session: Session, settings: MailSettings | None = None, app: Any = None) -> list[int]:
    """Poll once, then process what came in: inline, or as `pbem.process_inbound` tasks
    (PBEM_MAIL_PROCESS=queue).  The ids stored.  After an error (ImapError, raised again)
    what was stored before it is processed all the same."""
    settings = settings or load()
    ids: list[int] = []
    try:
        poll_once(session, settings, on_stored=ids.append)
    finally:
        for inbound_id in ids:
            gateway.start_processing(session, inbound_id, settings, app=app)
    return ids


def _size(client: imaplib.IMAP4, uid: bytes) -> int | None:
    status, meta = client.uid("FETCH", uid, "(RFC822.SIZE)")
    if status != "OK":
        return None
    match = _SIZE.search(b" ".join(part for part in meta if isinstance(part, bytes)))
    return int(match.group(1)) if match else None


def _too_large(client: imaplib.IMAP4, uid: bytes, size: int) -> None:
    log.warning("IMAP message %s has %d bytes (at most %d): marked seen and flagged, not stored",
                uid.decode(), size, MAX_BYTES)
    _flag(client, uid, TOO_LARGE)


def _flag(client: imaplib.IMAP4, uid: bytes, flags: str) -> None:
    status, data = client.uid("STORE", uid, "+FLAGS", flags)
    if status != "OK":  # stored but not marked: the next poll stores it again (dropped as a replay)
        raise ImapError(f"cannot flag IMAP message {uid.decode()}: {_text(data)}")


def _quoted(folder: str) -> str:
    """imaplib sends the name as written: a name with spaces or quotes must be a quoted string."""
    if re.fullmatch(r"[A-Za-z0-9_./-]+", folder):
        return folder
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(value: Any) -> str:
    """An imaplib error or response as readable text."""
    if isinstance(value, BaseException):
        value = value.args[0] if value.args else str(value)
    if isinstance(value, list):
        value = b" ".join(v for v in value if isinstance(v, bytes))
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def run(app: Flask) -> int:
    """Poll once and process what came in, for cron (`pbem imap-poll`); the exit status."""
    with app.app_context():
        try:
            ids = poll(db.session(), load(), app)
        except ImapError as error:
            print(f"error: {error}")
            return 1
        print(f"stored {len(ids)} message(s) from IMAP")
    return 0
