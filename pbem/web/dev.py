"""Development only: the outbox, where mails wait instead of being sent (sign-in links too)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template

from pbem.extensions import db
from pbem.mail.outbox import recent

bp = Blueprint("dev", __name__, url_prefix="/dev")


@bp.get("/outbox")
def outbox() -> Any:
    if not current_app.config["PBEM_DEV_OUTBOX"]:
        abort(404)  # in production the outbox holds live sign-in links
    return render_template("dev/outbox.html", messages=recent(db.session))
