"""Site operators' review queue of held inbound mail (pbem/mail/review.py says who and why).

Signed-in people who are not operators get 403; every action is a CSRF-checked POST."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, url_for

from pbem.extensions import db
from pbem.mail import review
from pbem.services.errors import Forbidden
from pbem.web import back, login_required, signed_in

bp = Blueprint("review", __name__, url_prefix="/admin/mail/review")


@bp.before_request
@login_required
def operators_only() -> Any:
    if not review.is_operator(db.session(), signed_in()):
        raise Forbidden("only site operators review held mail")
    return None


def _operator() -> str:
    user = signed_in()
    return f"{user.primary_address} (user {user.id})"


@bp.get("")
def queue() -> Any:
    return render_template("admin/review.html", held=review.held(db.session()))


@bp.post("/<int:inbound_id>/process")
def process(inbound_id: int) -> Any:
    status = review.release(db.session(), inbound_id, _operator())
    return back(url_for("review.queue"), f"Mail {inbound_id}: {status}.")


@bp.post("/<int:inbound_id>/discard")
def discard(inbound_id: int) -> Any:
    status = review.discard(db.session(), inbound_id, _operator())
    return back(url_for("review.queue"), f"Mail {inbound_id}: {status}.")
