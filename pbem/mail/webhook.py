"""HTTP side of the gateway: the signed inbound webhook, and one-click unsubscribe.

POST /mail/inbound
    body: the raw RFC 5322 message (any Content-Type; message/rfc822 is usual)
    X-Pbem-Timestamp: Unix seconds when the provider sent it
    X-Pbem-Envelope-From: SMTP MAIL FROM ("" for a bounce; leave the header out if unknown)
    X-Pbem-Envelope-To: RCPT TO addresses, comma-separated (leave out if unknown)
    X-Pbem-Signature: hex HMAC-SHA256 with PBEM_WEBHOOK_SECRET over
        timestamp "\\n" envelope-from "\\n" envelope-to "\\n" body
  200 once the raw message is stored (then it is processed), 403 for a bad or missing
  signature or a timestamp more than 5 minutes off, 413 over MAX_BYTES, 404 when no secret
  is configured.  A replayed request within the 5 minutes is stored again and then
  dropped as a duplicate (Message-ID).

GET/POST /mail/unsubscribe/<token>
    The List-Unsubscribe link of notifications: GET shows a button, POST (also RFC 8058's
    one-click "List-Unsubscribe=One-Click") turns that kind of mail off on the profile.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import time
from typing import Any

from flask import Blueprint, abort, current_app, request
from markupsafe import escape
from sqlalchemy.exc import OperationalError

from pbem.extensions import db
from pbem.mail import gateway, store
from pbem.mail.inbound import MAX_BYTES, MailRejected
from pbem.outbox.delivery import read_unsubscribe_token, unsubscribe
from pbem.outbox.settings import load

log = logging.getLogger(__name__)
bp = Blueprint("mail", __name__, url_prefix="/mail")


@bp.after_request
def _no_referrer(response: Any) -> Any:
    """The unsubscribe page's address is a secret: nothing it loads may carry it on."""
    response.headers["Referrer-Policy"] = "no-referrer"
    return response

MAX_SKEW = 300  # seconds
HEADER_SLACK = 64 * 1024


def signature(secret: str, timestamp: str, envelope_from: str, envelope_to: str, body: bytes) -> str:
    signed = f"{timestamp}\n{envelope_from}\n{envelope_to}\n".encode("utf-8") + body
    return hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


@bp.post("/inbound")
def inbound() -> Any:
    settings = load()
    if not settings.webhook_secret:
        abort(404)
    request.max_content_length = MAX_BYTES + HEADER_SLACK  # above the app's form limit
    if (request.content_length or 0) > MAX_BYTES:
        return {"error": "too large"}, 413
    timestamp = request.headers.get("X-Pbem-Timestamp", "")
    given = request.headers.get("X-Pbem-Signature", "")
    envelope_from = request.headers.get("X-Pbem-Envelope-From")
    envelope_to = request.headers.get("X-Pbem-Envelope-To")
    try:
        skew = abs(time.time() - int(timestamp))
    except ValueError:
        return {"error": "bad timestamp"}, 403
    if skew > MAX_SKEW:
        return {"error": "stale timestamp"}, 403
    body = request.get_data(cache=False)
    expected = signature(settings.webhook_secret, timestamp, envelope_from or "", envelope_to or "", body)
    if not hmac.compare_digest(expected, given.strip().lower()):
        return {"error": "bad signature"}, 403
    recipients = [a.strip() for a in envelope_to.split(",") if a.strip()] if envelope_to is not None else None
    try:
        inbound_id = store.receive(db.session(), body, channel="webhook", envelope_from=envelope_from,
                                   envelope_to=recipients)
    except MailRejected:
        return {"error": "too large"}, 413
    _schedule(inbound_id)
    return {"stored": inbound_id}, 200


def _schedule(inbound_id: int) -> None:
    """Hand the stored message on; inline (no worker) the request itself processes it, and
    the 200 is owed only for storing."""
    try:
        gateway.start_processing(db.session(), inbound_id, load(),
                                 app=current_app._get_current_object())  # type: ignore[attr-defined]
    except OperationalError:  # stored all the same: the sweep retries it
        log.exception("processing inbound mail %s failed; it stays stored", inbound_id)


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>pbem: mail preferences</title></head>
<body><main><h1>Mail preferences</h1><p>{text}</p>{form}</main></body></html>"""
_LABELS = {"notify_turn": "turn mails and reminders", "notify_results": "results and reports",
           "notify_invites": "invitations", "notify_press": "press (players' messages)",
           "opponent_moves": "mails about your opponents' moves"}


@bp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe_view(token: str) -> Any:
    settings = load()
    found = read_unsubscribe_token(settings, token)
    if found is None:
        return _PAGE.format(text="This link is not valid.", form=""), 404
    label = _LABELS[found[1]]
    if request.method == "GET":  # link scanners fetch links: only a POST changes anything
        form = ('<form method="post"><button type="submit">Stop ' + str(escape(label))
                + "</button></form>")
        return _PAGE.format(text=f"Stop receiving {escape(label)} from pbem?", form=form)
    unsubscribe(db.session(), settings, token)
    return _PAGE.format(text=f"Done: no more {escape(label)}. You can turn them on again on your profile.",
                        form="")
