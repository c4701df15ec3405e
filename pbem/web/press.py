"""Press on the game page (templates/game/_press.html): send to the table or to one seat,
mute a seat, report a message, the host's switch; and the site operators' list of reported
messages.  The service (pbem/services/press.py) decides; these views only read the forms."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for

from pbem.extensions import db, limiter
from pbem.mail import review
from pbem.services import lobby, press
from pbem.services.errors import Conflict, Forbidden, Invalid
from pbem.web import back, login_required, signed_in
from pbem.web.game import render_page

bp = Blueprint("press", __name__)


def _game_page(game_id: int) -> str:
    return url_for("game.page", game_id=game_id) + "#press"


@bp.post("/games/<int:game_id>/press")
@login_required
@limiter.limit(lambda: current_app.config["PBEM_PRESS_LIMIT"], scope="press")
def send(game_id: int) -> Any:
    text = request.form.get("text", "")
    to = request.form.get("to") or None
    try:
        message = press.post(db.session(), game_id, signed_in(), text, to=None if to == "all" else to,
                             channel="web")
    except (Invalid, Conflict) as error:  # the page again, the text kept, the reason above it
        game = lobby.get_game_row(db.session(), game_id)
        return render_page(game, error.status, press_error=error.message, press_text=text[:press.MAX_TEXT])
    audience = "the whole table" if message.to_seat is None else f"{message.to_seat} (privately)"
    return back(_game_page(game_id), f"Message sent to {audience}.", "success")


@bp.post("/games/<int:game_id>/press/mute")
@login_required
def mute(game_id: int) -> Any:
    seat = request.form.get("seat", "")
    unmute = request.form.get("mute") == "off"
    press.set_muted(db.session(), game_id, signed_in(), seat, not unmute)
    return back(_game_page(game_id), f"{'Unmuted' if unmute else 'Muted'} {seat[:16]}.")


@bp.post("/games/<int:game_id>/press/<int:message_id>/report")
@login_required
def report(game_id: int, message_id: int) -> Any:
    press.report(db.session(), game_id, message_id, signed_in(), request.form.get("reason", ""))
    return back(_game_page(game_id), "Reported: the site operators will look at the message.", "success")


@bp.post("/games/<int:game_id>/press/switch")
@login_required
def switch(game_id: int) -> Any:
    off = request.form.get("press") != "on"
    press.switch(db.session(), game_id, signed_in(), off)
    return back(_game_page(game_id), "Press is off." if off else "Press is on again.")


# ---- the site operators' list of reported messages ---------------------------------------------

def _operator() -> str:
    user = signed_in()
    if not review.is_operator(db.session(), user):
        raise Forbidden("only site operators review reported press")
    return f"{user.primary_address} (user {user.id})"


@bp.get("/admin/press")
@login_required
def reports() -> Any:
    _operator()
    return render_template("admin/press.html", reports=press.open_reports(db.session()))


@bp.post("/admin/press/<int:report_id>/dismiss")
@login_required
def dismiss(report_id: int) -> Any:
    press.resolve_report(db.session(), report_id, _operator(), hide=False)
    return back(url_for("press.reports"), f"Report {report_id} dismissed.")


@bp.post("/admin/press/<int:report_id>/hide")
@login_required
def hide(report_id: int) -> Any:
    press.resolve_report(db.session(), report_id, _operator(), hide=True)
    return back(url_for("press.reports"), f"Report {report_id}: the message is hidden from everyone.")
