"""Development only: the outbox, where mails wait instead of being sent (sign-in links too).

A rich mail (a report) shows a link to its HTML, with its inline pictures served from here
in place of their cid: references, and links to download its attachments."""
from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, url_for
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.outbox.delivery import envelope, parts_of
from pbem.outbox.settings import load
from pbem.outbox.messages import recent
from pbem.outbox.models import MailDelivery, OutboxPart

bp = Blueprint("dev", __name__, url_prefix="/dev")
# The stored HTML is ours, but shown as a page it may run nothing and load only its pictures.
HTML_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"


@bp.before_request
def development_only() -> None:
    if not current_app.config["PBEM_DEV_OUTBOX"]:
        abort(404)  # in production the outbox holds live sign-in links


@bp.get("/outbox")
def outbox() -> Any:
    messages = recent(db.session())
    ids = [m.id for m in messages]
    with_html = set(db.session.scalars(select(MailDelivery.outbox_id).where(
        MailDelivery.outbox_id.in_(ids), MailDelivery.html.is_not(None))))
    parts: dict[int, list[Any]] = {}
    for row in db.session.execute(select(OutboxPart.outbox_id, OutboxPart.id, OutboxPart.filename,
                                         OutboxPart.content_type, OutboxPart.content_id,
                                         func.length(OutboxPart.data).label("size"))
                                  .where(OutboxPart.outbox_id.in_(ids)).order_by(OutboxPart.position)):
        parts.setdefault(row.outbox_id, []).append(row)
    # Mail that will never go out, and why (given up after its retries, or withheld).
    stopped = {row.outbox_id: row for row in db.session.scalars(select(MailDelivery).where(
        MailDelivery.outbox_id.in_(ids), MailDelivery.failed_at.is_not(None) | MailDelivery.withheld_at.is_not(None)))}
    # Every header as it would be sent (Reply-To, In-Reply-To, List-Unsubscribe...): what a
    # developer checks when a reply does not find its game.
    settings, extras = load(), {row.outbox_id: row for row in db.session.scalars(
        select(MailDelivery).where(MailDelivery.outbox_id.in_(ids)))}
    headers = {m.id: list(envelope(db.session(), m, extras.get(m.id), settings).items()) for m in messages}
    return render_template("dev/outbox.html", messages=messages, with_html=with_html, parts=parts, stopped=stopped,
                           headers=headers)


@bp.get("/outbox/<int:outbox_id>/html")
def outbox_html(outbox_id: int) -> Any:
    extra = db.session.get(MailDelivery, outbox_id)
    if extra is None or extra.html is None:
        abort(404)
    html = extra.html
    for part in parts_of(db.session(), outbox_id):
        if part.content_id:
            html = html.replace(f"cid:{part.content_id}", url_for("dev.outbox_part", part_id=part.id))
    return Response(html, mimetype="text/html", headers={"Content-Security-Policy": HTML_POLICY})


@bp.get("/outbox/part/<int:part_id>")
def outbox_part(part_id: int) -> Any:
    part = db.session.get(OutboxPart, part_id)
    if part is None:
        abort(404)
    inline = part.content_type.startswith("image/")
    name = re.sub(r"[^A-Za-z0-9._-]", "_", part.filename)  # nothing that could end the header value
    return Response(part.data, mimetype=part.content_type, headers={
        "Content-Disposition": f'{"inline" if inline else "attachment"}; filename="{name}"',
        "X-Content-Type-Options": "nosniff"})
