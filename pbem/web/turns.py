"""Forms for asynchronous play: the host's deadline controls, queued turns, takeovers and
vacations.  Each posts to the application layer and comes back to the page it was on."""
from __future__ import annotations

from datetime import date
from typing import Any, Callable

from flask import Blueprint, request, url_for

from pbem.extensions import db
from pbem.models import now
from pbem.services import deadlines, turn_queue, vacations
from pbem.services.errors import Invalid, ServiceError
from pbem.web import back, login_required, signed_in

bp = Blueprint("turns", __name__)


def _game_url(game_id: int) -> str:
    return url_for("game.page", game_id=game_id)


def _do(target: str, action: Callable[[], Any], done: str | Callable[[Any], str]) -> Any:
    """Run a service call; a refusal comes back to the page as an error message."""
    try:
        result = action()
    except ServiceError as error:
        db.session.rollback()
        return back(target, f"Not done: {error.message}", "error")
    return back(target, done(result) if callable(done) else done, "success")


def _int(name: str, *, low: int = 1, high: int = 10_000) -> int:
    raw = (request.form.get(name) or "").strip()
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}")
    return int(raw)


# ---- the host -----------------------------------------------------------------------------------

@bp.post("/games/<int:game_id>/deadline/extend")
@login_required
def extend(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: deadlines.extend_deadline(
        db.session(), game_id, signed_in(), _int("hours", high=deadlines.EXTENSION_HOURS_PER_DECISION), now()),
        lambda game: "Deadline extended.")


@bp.post("/games/<int:game_id>/pause")
@login_required
def pause(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: deadlines.pause_game(db.session(), game_id, signed_in(), now()),
               "Game paused: its deadlines stand still.")


@bp.post("/games/<int:game_id>/resume")
@login_required
def resume(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: deadlines.resume_game(db.session(), game_id, signed_in(), now()),
               "Game resumed.")


@bp.post("/games/<int:game_id>/hand-to-bot")
@login_required
def hand_to_bot(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: deadlines.hand_to_bot(
        db.session(), game_id, signed_in(), request.form.get("seat", ""), request.form.get("bot", "heuristic"), now()),
        "The seat is a bot's now.")


# ---- players ------------------------------------------------------------------------------------

@bp.post("/games/<int:game_id>/takeover")
@login_required
def takeover(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: deadlines.take_over(
        db.session(), game_id, signed_in(), request.form.get("seat", ""), now()),
        "You took over the seat: it is yours now.")


@bp.post("/games/<int:game_id>/queue")
@login_required
def queue(game_id: int) -> Any:
    return _do(_game_url(game_id), lambda: turn_queue.queue_turns(
        db.session(), game_id, signed_in(), request.form.get("turns", ""), channel="web"),
        lambda left: f"Queued {len(left)} turn(s)." if left else "Queued; nothing is left to play.")


@bp.post("/games/<int:game_id>/queue/cancel")
@login_required
def cancel_queued(game_id: int) -> Any:
    which = request.form.get("which", "all")
    return _do(_game_url(game_id), lambda: turn_queue.cancel_queued(
        db.session(), game_id, signed_in(), None if which == "all" else _int("which", high=turn_queue.MAX_QUEUE)),
        "Queued turn(s) cancelled.")


# ---- vacations (on the profile page) ----------------------------------------------------------------

def _date(name: str) -> date:
    try:
        return date.fromisoformat((request.form.get(name) or "").strip())
    except ValueError:
        raise Invalid(f"{name} must be a date (YYYY-MM-DD)") from None


@bp.post("/profile/vacations")
@login_required
def declare_vacation() -> Any:
    return _do(url_for("profile.show"), lambda: vacations.declare_vacation_dates(
        db.session(), signed_in(), _date("start"), _date("end"), now()), "Vacation noted.")


@bp.post("/profile/vacations/<int:vacation_id>/cancel")
@login_required
def cancel_vacation(vacation_id: int) -> Any:
    return _do(url_for("profile.show"), lambda: vacations.cancel_vacation(db.session(), signed_in(), vacation_id, now()),
               "Vacation cancelled.")
