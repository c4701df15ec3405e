"""Operations: `/healthz` for monitors and load balancers (anyone may read it; it names no
person and no position) and `/admin/ops` for site operators (the games the deadline tick
keeps failing on, with their errors).  What they check: pbem/services/health.py."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template

from pbem.extensions import db, limiter
from pbem.mail import review
from pbem.services import health
from pbem.services.errors import Forbidden
from pbem.services.dispatch import TICK_SECONDS
from pbem.web import login_required, signed_in

bp = Blueprint("ops", __name__)


def _check() -> health.Health:
    period = float(current_app.config.get("PBEM_TICK_SECONDS") or TICK_SECONDS)
    return health.check(db.session(), datetime.now(timezone.utc), period)


@bp.get("/healthz")
@limiter.exempt
def healthz() -> Any:
    """200 while the database answers ("ok" or "degraded": a late tick or failing games, which
    need an operator but no restart); 503 when it does not."""
    found = _check()
    return jsonify(found.public()), 503 if found.status == "down" else 200


@bp.get("/admin/ops")
@login_required
def page() -> Any:
    if not review.is_operator(db.session(), signed_in()):
        raise Forbidden("only site operators see the service's health")
    return render_template("admin/ops.html", health=_check(), failing_ticks=health.FAILING_TICKS)
